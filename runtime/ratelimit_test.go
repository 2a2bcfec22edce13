package runtime

import (
	"strconv"
	"testing"
	"time"
)

// A bucket refills at N per Per and holds at most N; the wait it names is
// when the next token is back.
func TestLimiterBucket(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := &limiter{now: func() time.Time { return now }}
	r := Rate{N: 2, Per: time.Minute}
	for i := range 2 {
		if ok, _ := l.allow("t", "a", r); !ok {
			t.Fatalf("call %d refused", i+1)
		}
	}
	ok, wait := l.allow("t", "a", r)
	if ok || wait != 30*time.Second {
		t.Errorf("third call: %v, wait %s, want refused for 30s", ok, wait)
	}
	if ok, _ := l.allow("t", "b", r); !ok {
		t.Error("another caller refused")
	}
	if ok, _ := l.allow("u", "a", r); !ok {
		t.Error("another tool refused")
	}
	now = now.Add(29 * time.Second)
	if ok, wait := l.allow("t", "a", r); ok || wait != time.Second {
		t.Errorf("29 s later: %v, wait %s", ok, wait)
	}
	now = now.Add(time.Second)
	if ok, _ := l.allow("t", "a", r); !ok {
		t.Error("30 s later: refused")
	}
	now = now.Add(time.Hour) // back to a full bucket, not more
	for i := range 3 {
		if ok, _ := l.allow("t", "a", r); ok != (i < 2) {
			t.Errorf("an hour later, call %d: %v", i+1, ok)
		}
	}
}

// However many callers come, the limiter keeps at most maxBuckets
// buckets: full ones (idle callers) go first, then any.
func TestLimiterBounded(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := &limiter{now: func() time.Time { return now }}
	r := Rate{N: 5, Per: time.Second}
	for i := range maxBuckets + 1000 {
		l.allow("t", strconv.Itoa(i), r)
		if i == maxBuckets/2 {
			now = now.Add(time.Minute) // the first half is idle, and full again
		}
	}
	if n := len(l.buckets); n > maxBuckets {
		t.Errorf("%d buckets, more than %d", n, maxBuckets)
	}
	if _, kept := l.buckets[bucketKey{"t", "0"}]; kept {
		t.Error("an idle caller's full bucket was kept")
	}
	if _, kept := l.buckets[bucketKey{"t", strconv.Itoa(maxBuckets + 999)}]; !kept {
		t.Error("the newest caller's bucket is gone")
	}
}
