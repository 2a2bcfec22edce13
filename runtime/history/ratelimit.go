package history

import (
	"context"
	"time"
)

// RateLimiter is implemented by a Store that holds rate limits for every
// process that shares it (runtime/history/postgres): a tool's ratelimit=
// then holds across the replicas of a fleet rather than per process. The
// runtime asks it instead of its own per-process limiter when the
// server's store has one.
type RateLimiter interface {
	// Take takes one call from the bucket named key, which lets n calls
	// through per per (n at once, then one every per/n), at now: the
	// server's clock, passed in so that a test can move it. It reports
	// whether the call may go ahead and, when it may not, how long until
	// one may. An error means the limit could not be checked.
	Take(ctx context.Context, key string, n int, per time.Duration, now time.Time) (ok bool, wait time.Duration, err error)
}
