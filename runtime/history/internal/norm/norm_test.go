package norm

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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

// FuzzASCII holds ascii to its definition, and Text and Plain to what they
// were without it.
func FuzzASCII(f *testing.F) {
	for _, s := range []string{"", "forecast", "0f8c3e5a-8a1b-4c2d-9e0f-123456789abc", `{"city":"Oslo"}`, "a\x00b", "Zürich", "\xff", "1234567\x80", "12345678\x00", "\x7f\x01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := true
		for i := 0; i < len(s); i++ {
			if s[i] == 0 || s[i] >= 0x80 {
				want = false
			}
		}
		if ascii(s) != want || ascii([]byte(s)) != want {
			t.Fatalf("ascii(%q) = %v, want %v", s, ascii(s), want)
		}
		plain := utf8.ValidString(s) && !strings.Contains(s, "\x00")
		if Plain([]byte(s)) != plain || (Text(s) == s) != plain {
			t.Fatalf("Text or Plain of %q changed", s)
		}
	})
}
