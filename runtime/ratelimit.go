package runtime

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/internal/policy"
)

// Rate is a tool's rate limit: at most N calls per Per, per caller (the
// principal's subject, else the client's address). The zero Rate is no
// limit. Limits are kept per process, unless the history store holds
// them for every process that shares it (history.RateLimiter: the
// PostgreSQL store does), so that replicas behind a load balancer allow
// the rate together.
type Rate struct {
	N   int
	Per time.Duration
}

// String writes the rate as the directive does: "10/m".
func (r Rate) String() string { return policy.FormatRate(r.N, r.Per) }

// maxBuckets bounds the token buckets a server keeps, however many callers
// it sees: past it, the full ones (callers idle long enough to be back at
// their whole allowance, the same as never seen) are dropped, and if that
// is not enough, any.
const maxBuckets = 100_000

// limiter holds a token bucket per tool and caller.
type limiter struct {
	mu      sync.Mutex
	buckets map[bucketKey]*bucket
	now     func() time.Time // time.Now; a test's clock
}

type bucketKey struct{ tool, caller string }

type bucket struct {
	tokens float64
	last   time.Time
	rate   Rate
}

// refill brings b's tokens up to now.
func (b *bucket) refill(now time.Time) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = math.Min(float64(b.rate.N), b.tokens+elapsed.Seconds()*float64(b.rate.N)/b.rate.Per.Seconds())
		b.last = now
	}
}

// allow takes a token from the bucket of tool and caller, or says how long
// until one is back.
func (l *limiter) allow(tool, caller string, r Rate) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock()
	k := bucketKey{tool, caller}
	b := l.buckets[k]
	if b == nil || b.rate != r {
		if l.buckets == nil {
			l.buckets = map[bucketKey]*bucket{}
		}
		if len(l.buckets) >= maxBuckets {
			l.sweep(now)
		}
		b = &bucket{tokens: float64(r.N), last: now, rate: r}
		l.buckets[k] = b
	}
	b.refill(now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) * float64(r.Per) / float64(r.N))
	// Up to the next millisecond: the float arithmetic is a hair short.
	wait = (wait + time.Millisecond - 1).Truncate(time.Millisecond)
	return false, max(wait, time.Millisecond)
}

// sweep drops the buckets that are full again, then, while there are too
// many, any (its caller merely gets a fresh allowance).
func (l *limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.refill(now); b.tokens >= float64(b.rate.N) {
			delete(l.buckets, k)
		}
	}
	for k := range l.buckets {
		if len(l.buckets) < maxBuckets*9/10 {
			break
		}
		delete(l.buckets, k)
	}
}

func (l *limiter) clock() time.Time {
	if l.now != nil {
		return l.now()
	}
	return time.Now()
}

// rateLimited is the outcome of a call past its tool's rate limit.
func rateLimitedError(t *Tool, wait time.Duration) *ToolError {
	secs := int(math.Ceil(wait.Seconds()))
	return &ToolError{
		Message:    fmt.Sprintf("Rate limit of %s reached for tool %s; retry in %d s.", t.RateLimit, t.Name, secs),
		CanRetry:   true,
		RetryAfter: wait,
	}
}
