package history_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
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

// TestMemoryReleasesText: the text of the records the store dropped is
// collected (the store keeps text in shared chunks, which nothing frees
// by hand): after ten times MaxRows records of 1 KiB each, the heap has
// grown by about what MaxRows of them hold, not by all of them.
func TestMemoryReleasesText(t *testing.T) {
	const rows, calls = 1000, 50000
	s := history.NewMemory(history.Retention{MaxRows: rows})
	defer s.Close()
	ctx := t.Context()
	input := []byte(`{"q":"` + strings.Repeat("x", 1<<10) + `"}`)
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for i := range calls {
		r := &history.Record{ID: fmt.Sprint("id-", i), Tool: "t", Status: history.Pending, Input: input}
		if err := s.Start(ctx, r); err != nil {
			t.Fatal(err)
		}
		r.Status, r.Result = history.Success, input
		if err := s.Finish(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// rows records hold about 2 KiB of text each: 2 MiB. Everything
	// written was 100 MiB.
	if grew := int64(heap()) - int64(before); grew > 16<<20 {
		t.Errorf("the heap grew by %d MiB holding %d records of 2 KiB", grew>>20, rows)
	}
	got, err := s.Get(ctx, fmt.Sprint("id-", calls-rows))
	if err != nil || !bytes.Equal(got.Input, input) || !bytes.Equal(got.Result, input) {
		t.Errorf("the oldest kept record: %v", err)
	}
}
