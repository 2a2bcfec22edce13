//go:build !unix

package otel_test

import "time"

// cpuTime is not measured here: cpu-ns/op reads 0.
func cpuTime() time.Duration { return 0 }
