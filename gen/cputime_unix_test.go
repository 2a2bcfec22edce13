//go:build unix

package gen

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process and its waited-for children (the
// go list that packages.Load runs) have used, user and system.
func cpuTime() (time.Duration, bool) {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return 0, false
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total, true
}
