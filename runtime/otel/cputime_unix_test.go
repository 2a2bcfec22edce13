//go:build unix

package otel_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, every
// goroutine's (the batch processor's and the collector's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
