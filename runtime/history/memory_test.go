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

// TestMemoryReleasesText: the text of the records the store dropped
// does not stay (the store keeps text in shared chunks, reused once no
// record's text is in them): after ten times MaxRows records of 1 KiB
// each, the heap has grown by about what MaxRows of them hold, not by
// all of them.
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

// TestMemoryIDs: every id is its own record, however close to another,
// and each leaves the store when its record does. (The store keys an id
// written as a canonical UUID by its 16 bytes, and any other by its
// text: a UUID with an uppercase digit is another id.)
func TestMemoryIDs(t *testing.T) {
	const uuid = "0a1b2c3d-4e5f-4789-8abc-def012345678"
	ids := []string{uuid, strings.ToUpper(uuid), "0A1b2c3d-4e5f-4789-8abc-def012345678",
		uuid[:35], uuid + "0", strings.Replace(uuid, "-", "0", 1), "0a1b2c3-d4e5f-4789-8abc-def012345678",
		strings.Replace(uuid, "a", "g", 1), "x", "ünïcode"}
	// One digit changed at each place.
	for i := range uuid {
		if uuid[i] != '-' {
			b := []byte(uuid)
			b[i] = "10"[min(1, int(b[i]-'0'))] // 0 becomes 1, anything else 0
			ids = append(ids, string(b))
		}
	}
	s := history.NewMemory(history.Retention{MaxRows: len(ids)})
	defer s.Close()
	ctx := t.Context()
	for _, id := range ids {
		if err := s.Start(ctx, &history.Record{ID: id, Tool: "t"}); err != nil {
			t.Fatalf("Start(%q): %v", id, err)
		}
	}
	for _, id := range ids {
		if r, err := s.Get(ctx, id); err != nil || r.ID != id {
			t.Errorf("Get(%q) = %v, %v", id, r, err)
		}
		if err := s.Start(ctx, &history.Record{ID: id, Tool: "t"}); err == nil {
			t.Errorf("a second Start(%q) was accepted", id)
		}
	}
	// As many again: every first id leaves, and can be recorded anew.
	for i := range ids {
		if err := s.Start(ctx, &history.Record{ID: fmt.Sprint("next-", i), Tool: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range ids {
		if _, err := s.Get(ctx, id); err != history.ErrNotFound {
			t.Errorf("Get(%q) after it left: %v", id, err)
		}
	}
	if err := s.Start(ctx, &history.Record{ID: uuid, Tool: "t"}); err != nil {
		t.Errorf("Start(%q) after it left: %v", uuid, err)
	}
}

// TestMemoryCopiesOut: a record Get or List returned stays as it was
// once the store has dropped it and written other records' text where
// its text was (the store reuses its chunks).
func TestMemoryCopiesOut(t *testing.T) {
	s := history.NewMemory(history.Retention{MaxRows: 10})
	defer s.Close()
	ctx := t.Context()
	record := func(i int, fill byte) *history.Record {
		text := strings.Repeat(string(fill), 1<<10)
		in, out := []byte(`{"q":"`+text+`"}`), []byte(`{"a":"`+text+`"}`)
		return &history.Record{ID: fmt.Sprintf("id-%04d-%s", i, text[:8]), Tool: "tool-" + text[:8], Surface: "s-" + text[:8],
			CorrelationID: &text, Caller: &text, Input: in, Result: out, Error: &text}
	}
	r := record(0, 'a')
	if err := s.Start(ctx, r); err != nil {
		t.Fatal(err)
	}
	r.Status = history.Failed
	if err := s.Finish(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	page, _, err := s.List(ctx, history.Filter{})
	if err != nil || len(page) != 1 {
		t.Fatalf("List: %v, %v", page, err)
	}
	// 64 KiB chunks, 4 KiB a record: 1,000 records reuse every chunk
	// many times over.
	for i := 1; i <= 1000; i++ {
		r := record(i, 'b'+byte(i%20))
		if err := s.Start(ctx, r); err != nil {
			t.Fatal(err)
		}
		r.Status = history.Success
		if err := s.Finish(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Get(ctx, r.ID); err != history.ErrNotFound {
		t.Fatalf("the first record is still there: %v", err)
	}
	for _, g := range []*history.Record{got, &page[0]} {
		if d := historytest.Diff(g, r); d != "" {
			t.Errorf("a record given out changed once the store reused its text:\n%s", d)
		}
	}
}

// TestMemoryAllocatesNoText: a full store recording call after call
// reuses the chunks of the records that left rather than allocating
// text: the collector has no new text to sweep or mark.
func TestMemoryAllocatesNoText(t *testing.T) {
	// Each way a record's text can go: with the record as it leaves, and
	// earlier, when Finish replaces an outcome Start gave.
	for _, startOutcome := range []bool{false, true} {
		t.Run(fmt.Sprint("start outcome ", startOutcome), func(t *testing.T) {
			const rows = 100
			s := history.NewMemory(history.Retention{MaxRows: rows})
			defer s.Close()
			ctx := t.Context()
			caller, failure := "alice", "upstream timed out"
			recs := make([]history.Record, 10*rows)
			for i := range recs {
				recs[i] = history.Record{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Tool: "forecast", Surface: "rest",
					Caller: &caller, Input: []byte(`{"city":"Oslo","days":2}`)}
			}
			result := []byte(`{"high":21.5}`)
			n := 0
			call := func() {
				r := &recs[n%len(recs)]
				n++
				r.Status, r.Result, r.Error = history.Pending, nil, nil
				if startOutcome {
					r.Result, r.Error = result, &failure
				}
				if err := s.Start(ctx, r); err != nil {
					t.Fatal(err)
				}
				r.Status, r.Result, r.Error = history.Success, result, nil
				if err := s.Finish(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			for range len(recs) { // full, its records' chunks reused once
				call()
			}
			// A record's text is about 100 bytes: a new chunk would be
			// needed every 650 calls or so, 30 in 20,000. (AllocsPerRun's
			// average a call would round those down to 0: the total is
			// what is counted.)
			const calls = 20000
			if a := testing.AllocsPerRun(1, func() {
				for range calls {
					call()
				}
			}); a > 2 {
				t.Errorf("%v allocations in %d calls", a, calls)
			}
		})
	}
}

// TestMemoryApprovalLeaves: an approval leaves with its record; the
// record that takes its place in the store has none.
func TestMemoryApprovalLeaves(t *testing.T) {
	s := history.NewMemory(history.Retention{MaxRows: 1})
	defer s.Close()
	ctx := t.Context()
	by := "bob"
	r := &history.Record{ID: "approved", Tool: "t"}
	if err := s.Start(ctx, r); err != nil {
		t.Fatal(err)
	}
	r.Status, r.Approval = history.Success, &history.Approval{Decision: "approve", By: &by, At: time.Now()}
	if err := s.Finish(ctx, r); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, r.ID); err != nil || got.Approval == nil || *got.Approval.By != by {
		t.Fatalf("Get = %+v, %v; want its approval", got, err)
	}
	for _, id := range []string{"next", "then"} { // a Start alone, then with its Finish
		n := &history.Record{ID: id, Tool: "t"}
		if err := s.Start(ctx, n); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Get(ctx, id); err != nil || got.Approval != nil {
			t.Errorf("Get(%q) = %+v, %v; want no approval", id, got, err)
		}
		n.Status = history.Success
		if err := s.Finish(ctx, n); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Get(ctx, id); err != nil || got.Approval != nil {
			t.Errorf("Get(%q) after Finish = %+v, %v; want no approval", id, got, err)
		}
	}
}

// TestMemoryKeepsNewest: in a full store, a record older than every one
// kept is not kept (it is the oldest of them all), and no newer one
// leaves for it.
func TestMemoryKeepsNewest(t *testing.T) {
	s := history.NewMemory(history.Retention{MaxRows: 2})
	defer s.Close()
	ctx := t.Context()
	at := time.Date(2026, 1, 18, 12, 0, 0, 0, time.UTC)
	for _, i := range []int{2, 3, 1} {
		if err := s.Start(ctx, &history.Record{ID: fmt.Sprint(i), Tool: "t", CreatedAt: at.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	page, total, err := s.List(ctx, history.Filter{})
	if err != nil || total != 2 || page[0].ID != "3" || page[1].ID != "2" {
		t.Errorf("List = %v, %d, %v; want 3 and 2", page, total, err)
	}
	if _, err := s.Get(ctx, "1"); err != history.ErrNotFound {
		t.Errorf("Get of the oldest: %v", err)
	}
}
