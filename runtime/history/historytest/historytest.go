// Package historytest is the conformance suite of history stores: every
// [history.Store] passes [Run], so that the memory, SQLite and PostgreSQL
// stores (and a user's own) read back the same records, in the same order,
// under the same rules. [Bench] measures what one recorded call costs.
//
//	func TestStore(t *testing.T) {
//		historytest.Run(t, func(t *testing.T, r history.Retention) history.Store {
//			s, err := mystore.Open(t.Context(), t.TempDir()+"/h.db", r)
//			if err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
//
// The stores themselves are described in
// https://github.com/toolgen-go/toolgen/blob/main/docs/v1-and-history.md.
package historytest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// Opener returns a new, empty store bounded by r. Run closes it (twice, to
// check that the second Close is harmless); the opener only cleans up what
// outlives the store, such as a database schema.
type Opener func(t *testing.T, r history.Retention) history.Store

// Run runs the conformance suite on the stores open makes. Each subtest
// opens its own store and runs in parallel with the others.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		f    func(t *testing.T, open Opener)
	}{
		{"StartFinish", testStartFinish},
		{"OptionalFields", testOptionalFields},
		{"FinishKeepsStartFields", testFinishKeepsStartFields},
		{"FinishWithoutStart", testFinishWithoutStart},
		{"Refusals", testRefusals},
		{"NotFound", testNotFound},
		{"Copies", testCopies},
		{"Order", testOrder},
		{"Filters", testFilters},
		{"Pagination", testPagination},
		{"FilterErrors", testFilterErrors},
		{"ConcurrentWriters", testConcurrentWriters},
		{"RetentionMaxRows", testRetentionMaxRows},
		{"RetentionMaxAge", testRetentionMaxAge},
		{"NoRetentionWithoutBounds", testNoRetention},
		{"LargeJSON", testLargeJSON},
		{"OddJSON", testOddJSON},
		{"Unicode", testUnicode},
		{"InvalidText", testInvalidText},
		{"Timestamps", testTimestamps},
		{"Durations", testDurations},
		{"PingClose", testPingClose},
		{"Interrupted", testInterrupted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.f(t, open)
		})
	}
}

// newStore opens a store that is closed when the test ends.
func newStore(t *testing.T, open Opener, r history.Retention) history.Store {
	t.Helper()
	s := open(t, r)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// base is a fixed instant with nanoseconds, so that truncation shows.
var base = time.Date(2025, 3, 14, 15, 9, 26, 535_897_932, time.UTC)

func ptr[T any](v T) *T { return &v }

// id is a UUID-shaped id, unique within a test.
func id(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// pending is a plain pending record.
func pending(n int, tool string, at time.Time) *history.Record {
	return &history.Record{
		ID:        id(n),
		Tool:      tool,
		Surface:   "mcp",
		Input:     []byte(fmt.Sprintf(`{"n":%d}`, n)),
		Status:    history.Pending,
		CreatedAt: at,
	}
}

// finished is r completed with status st.
func finished(r *history.Record, st history.Status) *history.Record {
	c := *r
	c.Status = st
	done := r.CreatedAt.Add(1500 * time.Microsecond)
	c.CompletedAt = &done
	c.DurationMS = ptr(1.5)
	if st == history.Failed {
		c.Error, c.Result = ptr("failed: "+r.ID), nil
	} else {
		c.Error, c.Result = nil, []byte(`{"content":[{"type":"text","text":"ok `+r.ID+`"}],"isError":false}`)
	}
	return &c
}

// want is r as a store gives it back: times in UTC to the millisecond. It
// is the suite's own statement of the rule, not the stores' code.
func want(r *history.Record) *history.Record {
	c := *r
	c.CreatedAt = r.CreatedAt.UTC().Truncate(time.Millisecond)
	if r.CompletedAt != nil {
		c.CompletedAt = ptr(r.CompletedAt.UTC().Truncate(time.Millisecond))
	}
	return &c
}

func start(t *testing.T, s history.Store, r *history.Record) {
	t.Helper()
	if err := s.Start(t.Context(), r); err != nil {
		t.Fatalf("Start(%q): %v", r.ID, err)
	}
}

func finish(t *testing.T, s history.Store, r *history.Record) {
	t.Helper()
	if err := s.Finish(t.Context(), r); err != nil {
		t.Fatalf("Finish(%q): %v", r.ID, err)
	}
}

// get fetches id and checks it against w.
func get(t *testing.T, s history.Store, w *history.Record) {
	t.Helper()
	got, err := s.Get(t.Context(), w.ID)
	if err != nil {
		t.Fatalf("Get(%q): %v", w.ID, err)
	}
	if d := Diff(got, w); d != "" {
		t.Errorf("Get(%q):\n%s", w.ID, d)
	}
}

// list returns a page and checks that it is not nil.
func list(t *testing.T, s history.Store, f history.Filter) ([]history.Record, int) {
	t.Helper()
	recs, total, err := s.List(t.Context(), f)
	if err != nil {
		t.Fatalf("List(%+v): %v", f, err)
	}
	if recs == nil {
		t.Errorf("List(%+v) = nil, want an empty slice", f)
	}
	if len(recs) > total {
		t.Errorf("List(%+v): %d records but a total of %d", f, len(recs), total)
	}
	return recs, total
}

// ids lists the ids of recs.
func ids(recs []history.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

// expectList checks that f lists exactly wantIDs (in order) with a total
// of wantTotal.
func expectList(t *testing.T, s history.Store, f history.Filter, wantTotal int, wantIDs ...string) {
	t.Helper()
	recs, total := list(t, s, f)
	if got := ids(recs); !slices.Equal(got, wantIDs) || total != wantTotal {
		t.Errorf("List(%+v) = %q, total %d\nwant %q, total %d", f, got, total, wantIDs, wantTotal)
	}
}

// Diff describes how got differs from w, field by field, or is "". Times
// must be equal instants, in UTC, with no more than milliseconds; JSON must
// be equal byte for byte; an optional field must be nil exactly when w's
// is.
func Diff(got, w *history.Record) string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	str := func(name, g, w string) {
		if g != w {
			add("%s = %q, want %q", name, g, w)
		}
	}
	str("ID", got.ID, w.ID)
	str("Tool", got.Tool, w.Tool)
	str("Surface", got.Surface, w.Surface)
	str("Status", string(got.Status), string(w.Status))
	js := func(name string, g, w []byte) {
		switch {
		case (g == nil) != (w == nil):
			add("%s = %s, want %s", name, short(g), short(w))
		case !bytes.Equal(g, w):
			i := 0
			for i < len(g) && i < len(w) && g[i] == w[i] {
				i++
			}
			add("%s differs from byte %d on (lengths %d, want %d): %s, want %s", name, i, len(g), len(w), short(g[i:]), short(w[i:]))
		}
	}
	js("Input", got.Input, w.Input)
	js("Result", got.Result, w.Result)
	opt := func(name string, g, w *string) {
		switch {
		case (g == nil) != (w == nil):
			add("%s = %s, want %s", name, show(g), show(w))
		case g != nil && *g != *w:
			add("%s = %q, want %q", name, *g, *w)
		}
	}
	opt("Error", got.Error, w.Error)
	opt("CorrelationID", got.CorrelationID, w.CorrelationID)
	opt("Caller", got.Caller, w.Caller)
	switch {
	case (got.DurationMS == nil) != (w.DurationMS == nil):
		add("DurationMS = %s, want %s", show(got.DurationMS), show(w.DurationMS))
	case got.DurationMS != nil && *got.DurationMS != *w.DurationMS:
		add("DurationMS = %v, want %v", *got.DurationMS, *w.DurationMS)
	}
	tm := func(name string, g, w time.Time) {
		if !g.Equal(w) {
			add("%s = %s, want %s", name, g.Format(time.RFC3339Nano), w.Format(time.RFC3339Nano))
		}
		if g.Location() != time.UTC {
			add("%s is in %v, want UTC", name, g.Location())
		}
		if g.Nanosecond()%int(time.Millisecond) != 0 {
			add("%s = %s has more than milliseconds", name, g.Format(time.RFC3339Nano))
		}
	}
	tm("CreatedAt", got.CreatedAt, w.CreatedAt)
	switch {
	case (got.CompletedAt == nil) != (w.CompletedAt == nil):
		add("CompletedAt = %s, want %s", show(got.CompletedAt), show(w.CompletedAt))
	case got.CompletedAt != nil:
		tm("CompletedAt", *got.CompletedAt, *w.CompletedAt)
	}
	switch g, w := got.Approval, w.Approval; {
	case (g == nil) != (w == nil):
		add("Approval = %s, want %s", show(g), show(w))
	case g != nil:
		str("Approval.Decision", g.Decision, w.Decision)
		opt("Approval.By", g.By, w.By)
		tm("Approval.At", g.At, w.At)
	}
	return strings.Join(d, "\n")
}

func show[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprintf("&%v", *p)
}

// short quotes b, cut to a readable length.
func short(b []byte) string {
	if b == nil {
		return "nil"
	}
	if len(b) > 60 {
		return fmt.Sprintf("%q…", b[:60])
	}
	return fmt.Sprintf("%q", b)
}

func testStartFinish(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	zone := time.FixedZone("UTC+05:30", 5*3600+1800)
	r := &history.Record{
		ID:            "6f1c2b1e-6a4e-4d1c-9a43-3c1f0b2f9d10",
		Tool:          "get_weather",
		Surface:       "explorer",
		Input:         []byte(`{"city":"Paris","days":3}`),
		Status:        history.Pending,
		CreatedAt:     base.In(zone),
		CorrelationID: ptr("corr-1"),
		Caller:        ptr("alice"),
	}
	start(t, s, r)
	get(t, s, want(r))

	ok := *r
	ok.Status = history.Success
	ok.Result = []byte(`{"content":[{"type":"text","text":"sunny"}],"isError":false}`)
	ok.DurationMS = ptr(12.345)
	ok.CompletedAt = ptr(base.Add(12345 * time.Microsecond))
	finish(t, s, &ok)
	get(t, s, want(&ok))

	bad := pending(2, "get_weather", base.Add(time.Second))
	start(t, s, bad)
	get(t, s, want(bad))
	failed := finished(bad, history.Failed)
	finish(t, s, failed)
	get(t, s, want(failed))

	// List reads records by another path than Get: all fields again.
	recs, total := list(t, s, history.Filter{})
	if total != 2 || len(recs) != 2 {
		t.Fatalf("List: %d records, total %d, want 2", len(recs), total)
	}
	for i, w := range []*history.Record{want(failed), want(&ok)} {
		if d := Diff(&recs[i], w); d != "" {
			t.Errorf("List[%d]:\n%s", i, d)
		}
	}
}

// testOptionalFields: a pointer to "" is not nil, and JSON null is not an
// absent result.
func testOptionalFields(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	r := &history.Record{
		ID:            id(1),
		Tool:          "t",
		Input:         []byte(`{}`),
		CreatedAt:     base,
		CorrelationID: ptr(""),
		Caller:        ptr(""),
	}
	start(t, s, r)
	w := want(r)
	w.Status = history.Pending // Start records pending when no status is given
	get(t, s, w)
	f := *r
	f.Status = history.Failed
	f.Error = ptr("")
	f.Result = []byte(`null`)
	f.DurationMS = ptr(0.0)
	f.CompletedAt = ptr(base)
	finish(t, s, &f)
	get(t, s, want(&f))

	// Nothing optional at all, and no input.
	bare := &history.Record{ID: id(2), Tool: "t", Status: history.Pending, CreatedAt: base}
	start(t, s, bare)
	get(t, s, want(bare))
	// An empty input is an absent one.
	empty := &history.Record{ID: id(3), Tool: "t", Input: []byte{}, Status: history.Pending, CreatedAt: base}
	start(t, s, empty)
	we := want(empty)
	we.Input = nil
	get(t, s, we)
}

func testFinishKeepsStartFields(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	r := &history.Record{
		ID: id(1), Tool: "add", Surface: "oxp", Input: []byte(`{"a":1,"b":2}`), Status: history.Pending,
		CreatedAt: base, CorrelationID: ptr("c1"), Caller: ptr("alice"),
	}
	start(t, s, r)
	other := &history.Record{
		ID: id(1), Tool: "sub", Surface: "mcp", Input: []byte(`{"changed":true}`), Status: history.Success,
		Result: []byte(`3`), DurationMS: ptr(2.0), CreatedAt: base.Add(time.Hour),
		CompletedAt: ptr(base.Add(2 * time.Millisecond)), CorrelationID: ptr("c2"),
	}
	finish(t, s, other)
	w := want(r)
	w.Status, w.Result, w.DurationMS, w.CompletedAt = history.Success, []byte(`3`), ptr(2.0), ptr(base.Add(2*time.Millisecond).Truncate(time.Millisecond))
	get(t, s, w)
	expectList(t, s, history.Filter{Tool: "add"}, 1, id(1))
	expectList(t, s, history.Filter{Tool: "sub"}, 0)
	expectList(t, s, history.Filter{CorrelationID: "c1"}, 1, id(1))
}

func testFinishWithoutStart(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	older := pending(1, "t", base)
	start(t, s, older)
	newer := pending(3, "t", base.Add(time.Second))
	start(t, s, newer)
	// Finished, never started: inserted whole, and listed by its CreatedAt.
	r := finished(pending(2, "t", base.Add(500*time.Millisecond)), history.Success)
	r.CorrelationID, r.Caller = ptr("c"), ptr("bob")
	finish(t, s, r)
	get(t, s, want(r))
	expectList(t, s, history.Filter{}, 3, id(3), id(2), id(1))
	expectList(t, s, history.Filter{Status: "success"}, 1, id(2))
	// Finishing again updates it.
	again := finished(r, history.Failed)
	finish(t, s, again)
	w := want(r)
	w.Status, w.Error, w.Result = history.Failed, again.Error, nil
	get(t, s, w)
}

func testRefusals(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	ctx := t.Context()
	r := pending(1, "first", base)
	start(t, s, r)

	dup := pending(1, "second", base.Add(time.Second))
	if err := s.Start(ctx, dup); !errors.Is(err, history.ErrExists) {
		t.Errorf("Start of an id already recorded: %v, want ErrExists", err)
	}
	get(t, s, want(r)) // the first record is untouched

	f := finished(r, history.Success)
	finish(t, s, f)
	if err := s.Start(ctx, dup); !errors.Is(err, history.ErrExists) {
		t.Errorf("Start of an id already finished: %v, want ErrExists", err)
	}
	get(t, s, want(f))

	if err := s.Start(ctx, &history.Record{Tool: "t", Status: history.Pending, CreatedAt: base}); err == nil {
		t.Error("Start without an id: no error")
	}
	if err := s.Finish(ctx, &history.Record{Tool: "t", Status: history.Success, CreatedAt: base}); err == nil {
		t.Error("Finish without an id: no error")
	}
	done := finished(pending(2, "t", base), history.Success)
	if err := s.Start(ctx, done); err == nil {
		t.Error("Start with status success: no error")
	}
	if _, err := s.Get(ctx, id(2)); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("after a refused Start, Get = %v, want ErrNotFound", err)
	}
	for _, st := range []history.Status{"", history.Pending, "done"} {
		g := *f
		g.Status = st
		if err := s.Finish(ctx, &g); err == nil {
			t.Errorf("Finish with status %q: no error", st)
		}
	}
	get(t, s, want(f))
	expectList(t, s, history.Filter{}, 1, id(1))
}

func testNotFound(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	expectList(t, s, history.Filter{}, 0)
	r, err := s.Get(t.Context(), id(1))
	if !errors.Is(err, history.ErrNotFound) || r != nil {
		t.Errorf("Get of an unknown id = %v, %v; want nil, ErrNotFound", r, err)
	}
	start(t, s, pending(1, "t", base))
	for _, unknown := range []string{id(2), "", strings.ToUpper(id(1)) + "x", "' OR 1=1 --"} {
		if _, err := s.Get(t.Context(), unknown); !errors.Is(err, history.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", unknown, err)
		}
	}
}

// testCopies: neither the caller's record nor a returned one aliases the
// store's.
func testCopies(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	r := pending(1, "t", base)
	r.Caller = ptr("alice")
	w := want(r)
	w.Input, w.Caller = bytes.Clone(r.Input), ptr("alice")
	start(t, s, r)
	r.Input[1] = 'X'
	*r.Caller = "mallory"
	r.Tool = "changed"
	get(t, s, w)

	got, err := s.Get(t.Context(), id(1))
	if err != nil {
		t.Fatal(err)
	}
	got.Input[1] = 'Y'
	*got.Caller = "eve"
	get(t, s, w)

	recs, _ := list(t, s, history.Filter{})
	recs[0].Input[1] = 'Z'
	*recs[0].Caller = "trudy"
	get(t, s, w)
}

func testOrder(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	// Started out of time order: listed by CreatedAt, newest first.
	start(t, s, pending(1, "t", base.Add(2*time.Second)))
	start(t, s, pending(2, "t", base))
	start(t, s, pending(3, "t", base.Add(time.Second)))
	start(t, s, pending(4, "t", base.Add(3*time.Second)))
	expectList(t, s, history.Filter{}, 4, id(4), id(1), id(3), id(2))

	// Five records in one millisecond: the one started last comes first,
	// even though the sub-millisecond part (which stores drop) says the
	// opposite, and whatever the order of their ids. A record finished
	// without a start counts as started then.
	ms := base.Add(10 * time.Second).Truncate(time.Millisecond)
	start(t, s, pending(13, "t", ms.Add(900*time.Microsecond)))
	start(t, s, pending(10, "t", ms.Add(700*time.Microsecond)))
	finish(t, s, finished(pending(14, "t", ms.Add(500*time.Microsecond)), history.Success))
	start(t, s, pending(11, "t", ms.Add(300*time.Microsecond)))
	start(t, s, pending(12, "t", ms))
	want := []string{id(12), id(11), id(14), id(10), id(13), id(4), id(1), id(3), id(2)}
	expectList(t, s, history.Filter{}, 9, want...)
	// Finishing does not move a record.
	finish(t, s, finished(pending(13, "t", ms.Add(900*time.Microsecond)), history.Success))
	finish(t, s, finished(pending(2, "t", base), history.Failed))
	expectList(t, s, history.Filter{}, 9, want...)
	// The same order through a filter and in pages.
	expectList(t, s, history.Filter{Tool: "t", Limit: 3, Offset: 2}, 9, want[2:5]...)
	// One more in that millisecond, after a newer record: it still comes
	// first among its millisecond.
	start(t, s, pending(20, "t", ms.Add(time.Second)))
	start(t, s, pending(15, "t", ms.Add(999*time.Microsecond)))
	want = append([]string{id(20), id(15)}, want...)
	expectList(t, s, history.Filter{}, 11, want...)
}

func testFilters(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	tools := []string{"add", "sub", "mul"}
	surfaces := []string{"mcp", "oxp", "", "v1"}
	corrs := []*string{nil, ptr("x"), ptr("y")}
	callers := []*string{ptr("alice"), nil, ptr("bob"), ptr("alice"), ptr("")}
	var all []*history.Record
	for i := range 36 {
		r := pending(i, tools[i%3], base.Add(time.Duration(i)*time.Second))
		r.Surface = surfaces[i%4]
		r.CorrelationID = corrs[i/3%3]
		r.Caller = callers[i%5]
		start(t, s, r)
		switch i % 5 {
		case 1, 3:
			r = finished(r, history.Success)
			finish(t, s, r)
		case 2:
			r = finished(r, history.Failed)
			finish(t, s, r)
		}
		all = append(all, r)
	}
	match := func(f history.Filter) (out []string) {
		for i := len(all) - 1; i >= 0; i-- {
			r := all[i]
			if (f.Tool == "" || r.Tool == f.Tool) && (f.Status == "" || string(r.Status) == f.Status) &&
				(f.Surface == "" || r.Surface == f.Surface) &&
				(f.CorrelationID == "" || r.CorrelationID != nil && *r.CorrelationID == f.CorrelationID) &&
				(f.Caller == nil || r.Caller != nil && *r.Caller == *f.Caller) {
				out = append(out, r.ID)
			}
		}
		return out
	}
	filters := []history.Filter{
		{},
		{Tool: "add"}, {Tool: "mul"}, {Tool: "div"}, {Tool: "Add"}, {Tool: "ad"},
		{Status: "pending"}, {Status: "success"}, {Status: "failed"},
		{Surface: "mcp"}, {Surface: "v1"}, {Surface: "web"},
		{CorrelationID: "x"}, {CorrelationID: "y"}, {CorrelationID: "z"},
		{Tool: "add", Status: "success"},
		{Tool: "sub", Surface: "oxp"},
		{Status: "failed", CorrelationID: "y"},
		{Surface: "mcp", CorrelationID: "x"},
		{Tool: "add", Status: "pending", Surface: "mcp", CorrelationID: "x"},
		{Tool: "mul", Status: "success", Surface: "oxp", CorrelationID: "y"},
		{Tool: "add", Status: "success", Limit: 2},
		{Status: "pending", Limit: 3, Offset: 2},
		// Reads scoped to a caller; one that never called sees nothing,
		// and the empty subject is a caller of its own.
		{Caller: ptr("alice")}, {Caller: ptr("bob")}, {Caller: ptr("carol")}, {Caller: ptr("")},
		{Caller: ptr("alice"), Tool: "add", Status: "success"},
		{Caller: ptr("bob"), Limit: 2, Offset: 1},
	}
	nonEmpty := 0
	for _, f := range filters {
		w := match(f)
		total := len(w)
		if total > 0 && f.Tool != "" {
			nonEmpty++
		}
		if f.Offset < len(w) {
			w = w[f.Offset:]
		} else {
			w = nil
		}
		if f.Limit > 0 && len(w) > f.Limit {
			w = w[:f.Limit]
		}
		expectList(t, s, f, total, w...)
	}
	if nonEmpty < 5 {
		t.Fatalf("the filter cases match too little to test anything (%d)", nonEmpty)
	}
}

func testPagination(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	const n = 61
	var newestFirst []string
	for i := range n {
		start(t, s, pending(i, "t", base.Add(time.Duration(i)*time.Millisecond)))
		newestFirst = append([]string{id(i)}, newestFirst...)
	}
	// Pages of 7 walk every record once, in order.
	var walked []string
	for off := 0; off < n+7; off += 7 {
		recs, total := list(t, s, history.Filter{Limit: 7, Offset: off})
		if total != n {
			t.Errorf("offset %d: total %d, want %d", off, total, n)
		}
		walked = append(walked, ids(recs)...)
	}
	if !slices.Equal(walked, newestFirst) {
		t.Errorf("pages of 7 gave %q\nwant %q", walked, newestFirst)
	}
	expectList(t, s, history.Filter{Limit: 7, Offset: 56}, n, newestFirst[56:]...)
	expectList(t, s, history.Filter{Offset: n}, n)
	expectList(t, s, history.Filter{Offset: n + 1000}, n)
	expectList(t, s, history.Filter{Limit: history.MaxLimit}, n, newestFirst...)
	expectList(t, s, history.Filter{Limit: 1, Offset: n - 1}, n, newestFirst[n-1])
	// Limit 0 is the default limit.
	expectList(t, s, history.Filter{}, n, newestFirst[:history.DefaultLimit]...)
	expectList(t, s, history.Filter{Offset: 10}, n, newestFirst[10:10+history.DefaultLimit]...)
	// Filtered: the total counts the matches, not the page.
	expectList(t, s, history.Filter{Tool: "t", Limit: 2, Offset: 1}, n, newestFirst[1:3]...)
	expectList(t, s, history.Filter{Tool: "u", Limit: 2}, 0)
}

func testFilterErrors(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	start(t, s, pending(1, "t", base))
	for _, f := range []history.Filter{
		{Limit: history.MaxLimit + 1},
		{Limit: -1},
		{Offset: -1},
		{Status: "done"},
		{Status: "Pending"},
	} {
		want, err := f.Normalize()
		if err == nil {
			t.Fatalf("Normalize(%+v) = %+v, nil; the suite expects an error", f, want)
		}
		if _, _, got := s.List(t.Context(), f); got == nil || got.Error() != err.Error() {
			t.Errorf("List(%+v) error = %v, want %v", f, got, err)
		}
	}
}

// testConcurrentWriters: many goroutines record at once, readers read at
// the same time, and no call fails nor any record goes missing.
func testConcurrentWriters(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	const writers, each = 16, 50
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*2+100)
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for {
				// Read often, but leave the writers the CPU: this is
				// about reads alongside writes, not a read benchmark.
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond):
				}
				if _, _, err := s.List(ctx, history.Filter{Status: "pending", Limit: 20}); err != nil {
					errs <- fmt.Errorf("reader's List: %w", err)
					return
				}
				if _, err := s.Get(ctx, id(7)); err != nil && !errors.Is(err, history.ErrNotFound) {
					errs <- fmt.Errorf("reader's Get: %w", err)
					return
				}
			}
		})
	}
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				n := w*each + i
				r := pending(n, fmt.Sprintf("tool%d", w), time.Now())
				if err := s.Start(ctx, r); err != nil {
					errs <- fmt.Errorf("writer's Start %d: %w", n, err)
					return
				}
				if err := s.Finish(ctx, finished(r, history.Success)); err != nil {
					errs <- fmt.Errorf("writer's Finish %d: %w", n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := map[string]bool{}
	for off := 0; ; off += history.MaxLimit {
		recs, total := list(t, s, history.Filter{Limit: history.MaxLimit, Offset: off})
		if total != writers*each {
			t.Fatalf("total %d, want %d", total, writers*each)
		}
		for i := range recs {
			r := &recs[i]
			if seen[r.ID] {
				t.Errorf("%s listed twice", r.ID)
			}
			seen[r.ID] = true
			if r.Status != history.Success || r.CompletedAt == nil || r.DurationMS == nil || r.Result == nil {
				t.Errorf("%s is not complete: %+v", r.ID, r)
			}
			var n int
			if _, err := fmt.Sscanf(string(r.Input), `{"n":%d}`, &n); err != nil || r.ID != id(n) || r.Tool != fmt.Sprintf("tool%d", n/each) {
				t.Errorf("%s: input %s and tool %s do not belong to it", r.ID, r.Input, r.Tool)
			}
		}
		if len(recs) < history.MaxLimit {
			break
		}
	}
	if len(seen) != writers*each {
		t.Errorf("%d records listed, want %d", len(seen), writers*each)
	}
	for n := range writers * each {
		if _, err := s.Get(ctx, id(n)); err != nil {
			t.Errorf("Get(%s): %v", id(n), err)
		}
	}
}

// eventually polls cond until it holds or ten seconds pass: retention runs
// in the background, on its own schedule.
func eventually(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, state := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %s after 10s", what, state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func testRetentionMaxRows(t *testing.T, open Opener) {
	const keep = 10
	s := newStore(t, open, history.Retention{MaxRows: keep, Interval: 10 * time.Millisecond})
	// Recorded out of time order: the oldest by CreatedAt go, not the
	// first recorded.
	const n = 25
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		r := pending(i, "t", base.Add(time.Duration(i)*time.Second))
		start(t, s, r)
		if i%2 == 0 {
			finish(t, s, finished(r, history.Success))
		}
	}
	var newest []string
	for i := n - 1; i >= n-keep; i-- {
		newest = append(newest, id(i))
	}
	total := func() (bool, string) {
		_, total := list(t, s, history.Filter{Limit: 1})
		return total <= keep, fmt.Sprintf("%d records", total)
	}
	eventually(t, "retention to MaxRows", total)
	expectList(t, s, history.Filter{}, keep, newest...)

	// More arrive: again the newest are kept, and retention never cuts
	// below MaxRows.
	for i := n; i < n+5; i++ {
		start(t, s, pending(i, "t", base.Add(time.Duration(i)*time.Second)))
	}
	eventually(t, "retention to MaxRows again", total)
	time.Sleep(50 * time.Millisecond)
	newest = nil
	for i := n + 4; i >= n+5-keep; i-- {
		newest = append(newest, id(i))
	}
	expectList(t, s, history.Filter{}, keep, newest...)
	get(t, s, want(pending(n+4, "t", base.Add(time.Duration(n+4)*time.Second))))
}

func testRetentionMaxAge(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{MaxAge: time.Hour, Interval: 10 * time.Millisecond})
	now := time.Now()
	old := []*history.Record{
		pending(1, "t", now.Add(-3*time.Hour)),
		pending(2, "t", now.Add(-2*time.Hour)),
		pending(3, "t", now.Add(-61*time.Minute)),
	}
	fresh := []*history.Record{
		pending(4, "t", now.Add(-30*time.Minute)),
		pending(5, "t", now),
	}
	for _, r := range append(old, fresh...) {
		start(t, s, r)
	}
	finish(t, s, finished(old[0], history.Success))
	done := finished(fresh[0], history.Failed)
	finish(t, s, done)
	eventually(t, "retention by MaxAge", func() (bool, string) {
		recs, total := list(t, s, history.Filter{})
		return total <= len(fresh), fmt.Sprintf("%q", ids(recs))
	})
	expectList(t, s, history.Filter{}, 2, id(5), id(4))
	get(t, s, want(done))
	get(t, s, want(fresh[1]))
}

// testNoRetention: without MaxRows or MaxAge, a short Interval deletes
// nothing.
func testNoRetention(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{Interval: 5 * time.Millisecond})
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 30 {
		start(t, s, pending(i, "t", old.Add(time.Duration(i)*time.Second)))
	}
	time.Sleep(100 * time.Millisecond)
	if _, total := list(t, s, history.Filter{}); total != 30 {
		t.Errorf("total %d, want 30: a store without bounds deleted records", total)
	}
}

func testLargeJSON(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	// Over a MiB of varied text, not one repeated byte that a store
	// could get right by accident.
	var in bytes.Buffer
	in.WriteString(`{"items":[`)
	for i := 0; in.Len() < 1<<20+4096; i++ {
		if i > 0 {
			in.WriteByte(',')
		}
		fmt.Fprintf(&in, `{"i":%d,"s":"ligne %d – ☃ – \u00e9\n","f":%d.%03d}`, i, i*7919, i, i%1000)
	}
	in.WriteString(`]}`)
	out := bytes.ReplaceAll(in.Bytes(), []byte("ligne"), []byte("line"))
	r := pending(1, "big", base)
	r.Input = in.Bytes()
	start(t, s, r)
	get(t, s, want(r))
	f := finished(r, history.Success)
	f.Result = out
	finish(t, s, f)
	get(t, s, want(f))
	recs, _ := list(t, s, history.Filter{})
	if len(recs) != 1 {
		t.Fatalf("List: %d records, want 1", len(recs))
	}
	if d := Diff(&recs[0], want(f)); d != "" {
		t.Errorf("List:\n%s", d)
	}
}

// oddJSON is JSON that a store which re-encodes, normalises or parses it
// would change: every document must come back byte for byte.
var oddJSON = map[string]string{
	"deep arrays":  strings.Repeat("[", 2000) + strings.Repeat("]", 2000),
	"deep objects": strings.Repeat(`{"a":`, 600) + "null" + strings.Repeat("}", 600),
	"unicode":      `{"emoji":"🌦️👩‍👩‍👧🏳️‍🌈","cjk":"天気予報","rtl":"مرحبا","combining":"e\u0301","astral":"𝄞"}`,
	"escapes":      `{"nul":"a\u0000b","esc":"\"\\\/\b\f\n\r\t","surrogates":"\ud83d\ude00","lone":"\udc00","ctl":"\u001f"}`,
	"numbers":      `[123456789012345678901234567890,1e400,-0,0.1000000000000000055511151231257827,1E-400,-9223372036854775809,18446744073709551616]`,
	"key order":    `{"z":1,"a":2,"m":{"y":[],"b":{}},"z":3}`,
	"whitespace":   "{ \"a\" :\t[ 1 ,\r\n2 ] ,\n  \"b\" : \"\" }\n",
	"string":       `"just a string"`,
	"null":         `null`,
	"false":        `false`,
	"zero":         `0`,
	"empty object": `{}`,
}

func testOddJSON(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	names := make([]string, 0, len(oddJSON))
	for name := range oddJSON {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
		doc := oddJSON[name]
		r := pending(i, name, base.Add(time.Duration(i)*time.Millisecond))
		r.Input = []byte(doc)
		start(t, s, r)
		got, err := s.Get(t.Context(), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Input, r.Input) {
			t.Errorf("%s as input came back as %s", name, short(got.Input))
		}
		f := finished(r, history.Success)
		f.Result = []byte(doc)
		finish(t, s, f)
		get(t, s, want(f))
	}
	recs, _ := list(t, s, history.Filter{Limit: history.MaxLimit})
	for _, r := range recs {
		if doc := oddJSON[r.Tool]; string(r.Input) != doc || string(r.Result) != doc {
			t.Errorf("List: %s came back as %s and %s", r.Tool, short(r.Input), short(r.Result))
		}
	}
}

func testUnicode(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	r := &history.Record{
		ID:            "id-🚀-ü-天",
		Tool:          "天気_予報_🌦",
		Surface:       "ｍｃｐ",
		Input:         []byte(`{"ville":"Zürich"}`),
		Status:        history.Pending,
		CreatedAt:     base,
		CorrelationID: ptr("相関-1-ß"),
		Caller:        ptr("Zoë 👩🏽‍💻"),
	}
	start(t, s, r)
	get(t, s, want(r))
	f := finished(r, history.Failed)
	f.Error = ptr("échec : 💥 \t\n")
	finish(t, s, f)
	get(t, s, want(f))
	// Names that differ only in Unicode normalisation or case are
	// different names: filters compare bytes.
	composed := pending(2, "caf\u00e9", base.Add(time.Millisecond))
	decomposed := pending(3, "cafe\u0301", base.Add(2*time.Millisecond))
	upper := pending(4, "CAF\u00c9", base.Add(3*time.Millisecond))
	for _, r := range []*history.Record{composed, decomposed, upper} {
		start(t, s, r)
	}
	expectList(t, s, history.Filter{Tool: "天気_予報_🌦"}, 1, r.ID)
	expectList(t, s, history.Filter{Surface: "ｍｃｐ"}, 1, r.ID)
	expectList(t, s, history.Filter{Surface: "mcp"}, 3, id(4), id(3), id(2))
	expectList(t, s, history.Filter{CorrelationID: "相関-1-ß"}, 1, r.ID)
	expectList(t, s, history.Filter{CorrelationID: "相関-1-ss"}, 0)
	expectList(t, s, history.Filter{Tool: "caf\u00e9"}, 1, id(2))
	expectList(t, s, history.Filter{Tool: "cafe\u0301"}, 1, id(3))
	expectList(t, s, history.Filter{Tool: "CAF\u00c9"}, 1, id(4))
	expectList(t, s, history.Filter{Tool: "café%"}, 0)
}

// testInvalidText: invalid UTF-8 and NUL bytes, which PostgreSQL's text
// cannot hold, come back as U+FFFD from every store, and ids and filters
// given with them find the record.
func testInvalidText(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	r := &history.Record{
		ID:            "id-\xfe\xff",
		Tool:          "bad\xffname\x00",
		Surface:       "mcp\x00",
		Input:         []byte("{\"s\":\"\xc3\x28\"}"),
		Status:        history.Pending,
		CreatedAt:     base,
		CorrelationID: ptr("c\x00"),
		Caller:        ptr("\xe2\x82"),
	}
	start(t, s, r)
	f := finished(r, history.Failed)
	f.Error = ptr("nul\x00here")
	finish(t, s, f)
	w := want(f)
	w.ID = "id-\uFFFD"
	w.Tool = "bad\uFFFDname\uFFFD"
	w.Surface = "mcp\uFFFD"
	w.Input = []byte("{\"s\":\"\uFFFD(\"}")
	w.CorrelationID = ptr("c\uFFFD")
	w.Caller = ptr("\uFFFD")
	w.Error = ptr("nul\uFFFDhere")
	got, err := s.Get(t.Context(), r.ID)
	if err != nil {
		t.Fatalf("Get by the id as given: %v", err)
	}
	if d := Diff(got, w); d != "" {
		t.Errorf("Get:\n%s", d)
	}
	get(t, s, w)
	expectList(t, s, history.Filter{Tool: r.Tool}, 1, w.ID)
	expectList(t, s, history.Filter{Tool: w.Tool, Surface: "mcp\x00", CorrelationID: "c\x00"}, 1, w.ID)
}

func testTimestamps(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	nepal := time.FixedZone("UTC+05:45", 5*3600+45*60)
	west := time.FixedZone("UTC-09:30", -(9*3600 + 30*60))
	cases := []struct {
		created, completed time.Time
		wantCreated        string
	}{
		// Truncated, never rounded: .999999999 stays in its millisecond.
		{time.Date(2025, 6, 1, 12, 0, 0, 999_999_999, nepal), time.Date(2025, 6, 1, 6, 15, 1, 500_000, time.UTC), "2025-06-01T06:15:00.999Z"},
		{time.Date(2025, 6, 1, 7, 0, 0, 123_456_789, time.UTC), time.Date(2025, 5, 31, 21, 30, 0, 124_999_999, west), "2025-06-01T07:00:00.123Z"},
		{time.Date(1969, 12, 31, 23, 59, 59, 999_500_000, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), "1969-12-31T23:59:59.999Z"},
		{time.Date(1900, 1, 1, 0, 0, 0, 1, west), time.Date(1900, 1, 1, 9, 30, 0, 1_000_000, time.UTC), "1900-01-01T09:30:00Z"},
		{time.Date(2999, 12, 31, 23, 59, 59, 999_999_999, time.UTC), time.Date(3000, 1, 1, 0, 0, 0, 0, nepal), "2999-12-31T23:59:59.999Z"},
		// time.Now carries a monotonic reading and a local zone.
		{time.Now().Add(-time.Hour), time.Now(), ""},
	}
	for i, c := range cases {
		r := pending(i, "t", c.created)
		start(t, s, r)
		got, err := s.Get(t.Context(), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if c.wantCreated != "" && got.CreatedAt.Format(time.RFC3339Nano) != c.wantCreated {
			t.Errorf("CreatedAt %s came back as %s, want %s", c.created, got.CreatedAt.Format(time.RFC3339Nano), c.wantCreated)
		}
		f := finished(r, history.Success)
		f.CompletedAt = ptr(c.completed)
		finish(t, s, f)
		get(t, s, want(f))
	}
	// Ordered by instant, not by the time of day as written: case 0 is
	// 06:15Z (12:00 in Nepal), case 1 is 07:00Z.
	expectList(t, s, history.Filter{}, len(cases), id(4), id(5), id(1), id(0), id(2), id(3))
}

func testDurations(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	for i, d := range []float64{0, 0.001, 1234.5678901234567, 86_400_000.5, 5e-324, 1.7976931348623157e308} {
		r := finished(pending(i, "t", base), history.Success)
		r.DurationMS = ptr(d)
		finish(t, s, r)
		get(t, s, want(r))
	}
}

func testPingClose(t *testing.T, open Opener) {
	s := open(t, history.Retention{MaxRows: 5, MaxAge: time.Hour, Interval: time.Millisecond})
	if err := s.Ping(t.Context()); err != nil {
		t.Errorf("Ping: %v", err)
	}
	start(t, s, pending(1, "t", time.Now()))
	time.Sleep(10 * time.Millisecond) // let retention run while Close comes
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// A record still pending past its deadline reads as failed, "interrupted",
// through Get, List and its status filters; one whose deadline is ahead,
// or that has none, is pending; a Finish that comes late completes it.
func testInterrupted(t *testing.T, open Opener) {
	s := newStore(t, open, history.Retention{})
	now := time.Now().UTC()
	past, future := now.Add(-time.Minute), now.Add(time.Hour)
	stale := pending(1, "t", now.Add(-2*time.Minute))
	stale.Deadline = &past
	live := pending(2, "t", now.Add(-time.Second))
	live.Deadline = &future
	forever := pending(3, "t", now)
	for _, r := range []*history.Record{stale, live, forever} {
		start(t, s, r)
	}
	got, err := s.Get(t.Context(), stale.ID)
	if err != nil || got.Status != history.Failed || got.Error == nil || *got.Error != history.Interrupted {
		t.Fatalf("a stale pending record reads %+v, %v", got, err)
	}
	if got.Deadline == nil || !got.Deadline.Equal(past.Truncate(time.Millisecond)) {
		t.Errorf("deadline %v, want %v", got.Deadline, past)
	}
	for _, id := range []string{live.ID, forever.ID} {
		if got, err := s.Get(t.Context(), id); err != nil || got.Status != history.Pending || got.Error != nil {
			t.Errorf("%s reads %+v, %v", id, got, err)
		}
	}
	expectList(t, s, history.Filter{Status: "pending"}, 2, forever.ID, live.ID)
	expectList(t, s, history.Filter{Status: "failed"}, 1, stale.ID)
	late := finished(stale, history.Success)
	late.Deadline = nil
	finish(t, s, late)
	if got, err := s.Get(t.Context(), stale.ID); err != nil || got.Status != history.Success || got.Error != nil {
		t.Errorf("finished late: %+v, %v", got, err)
	}
}
