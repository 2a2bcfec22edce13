package history_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/historytest"
)

func TestMemory(t *testing.T) {
	historytest.Run(t, func(t *testing.T, r history.Retention) history.Store {
		return history.NewMemory(r)
	})
}

func TestMemoryHumans(t *testing.T) {
	historytest.RunHumans(t, func(t *testing.T, r history.Retention) history.Store {
		return history.NewMemory(r)
	})
}

// TestMemoryDefaultBound: with no MaxRows, the memory store still keeps
// at most DefaultMemoryRows, the newest.
func TestMemoryDefaultBound(t *testing.T) {
	s := history.NewMemory(history.Retention{})
	defer s.Close()
	ctx := t.Context()
	for i := range history.DefaultMemoryRows + 10 {
		r := &history.Record{ID: string(rune(0x4e00 + i)), Tool: "t", Status: history.Pending}
		if err := s.Start(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	recs, total, err := s.List(ctx, history.Filter{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if total != history.DefaultMemoryRows || recs[0].ID != string(rune(0x4e00+history.DefaultMemoryRows+9)) {
		t.Errorf("total %d, newest %q", total, recs[0].ID)
	}
	if _, err := s.Get(ctx, string(rune(0x4e00+9))); err == nil {
		t.Error("the oldest records were kept")
	}
	if _, err := s.Get(ctx, string(rune(0x4e00+10))); err != nil {
		t.Errorf("the oldest kept record: %v", err)
	}
}

func BenchmarkStore(b *testing.B) {
	historytest.Bench(b, func(*testing.B) history.Store { return history.NewMemory(history.Retention{}) })
}

// Times are written with exactly three fractional digits, in UTC, so that
// they sort as strings; they read back as the same times.
func TestRecordTimes(t *testing.T) {
	whole := time.Date(2026, 1, 18, 12, 0, 29, 0, time.UTC)
	frac := whole.Add(5 * time.Millisecond)
	local := frac.In(time.FixedZone("CET", 3600))
	for _, tc := range []struct {
		created   time.Time
		completed *time.Time
		want      string
	}{
		{whole, nil, `"created_at":"2026-01-18T12:00:29.000Z","completed_at":null`},
		{frac, &local, `"created_at":"2026-01-18T12:00:29.005Z","completed_at":"2026-01-18T12:00:29.005Z"`},
	} {
		b, err := json.Marshal(history.Record{ID: "x", CreatedAt: tc.created, CompletedAt: tc.completed})
		if err != nil || !strings.Contains(string(b), tc.want) || strings.Count(string(b), "created_at") != 1 {
			t.Errorf("%s: %v, want %s", b, err, tc.want)
		}
		var back history.Record
		if err := json.Unmarshal(b, &back); err != nil || !back.CreatedAt.Equal(tc.created) {
			t.Errorf("read back %v: %v", back.CreatedAt, err)
		}
	}
}

// A record's JSON keeps its input and result as written: no HTML escaping.
func TestRecordJSONUnescaped(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(history.Record{ID: "x", Input: json.RawMessage(`{"q":"<b>&</b>"}`)}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"input_params":{"q":"<b>&</b>"}`) {
		t.Errorf("%s", b.String())
	}
}
