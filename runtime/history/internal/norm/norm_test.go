package norm

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestTime holds Time to t.UTC().Truncate(time.Millisecond), field for
// field (== compares the location and the monotonic reading too), for
// times with a monotonic reading, in other zones, and before 1970.
func TestTime(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	r := rand.New(rand.NewPCG(3, 4))
	times := []time.Time{time.Now(), time.Time{}, time.Unix(-1, 999_999_999), time.Unix(0, 0), time.Date(1969, 12, 31, 23, 59, 59, 1_500_000, berlin)}
	for range 1000 {
		times = append(times, time.Unix(r.Int64N(1<<40)-1<<39, r.Int64N(1e9)).In(berlin))
	}
	for _, tm := range times {
		if got, want := Time(tm), tm.UTC().Truncate(time.Millisecond); got != want {
			t.Fatalf("Time(%v) = %#v, want %#v", tm, got, want)
		}
	}
}
