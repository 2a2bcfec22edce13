package history_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/historytest"
)

func TestMemory(t *testing.T) {
	historytest.Run(t, func(t *testing.T, r history.Retention) history.Store {
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
