package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/historytest"
)

func TestSQLiteHumans(t *testing.T) {
	historytest.RunHumans(t, func(t *testing.T, r history.Retention) history.Store {
		s, err := Open(t.Context(), filepath.Join(t.TempDir(), "history.db"), r)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func humanRequest(id string, at time.Time) *history.Request {
	return &history.Request{ID: id, Type: "approval", Prompt: "Deploy?", Options: []string{"approve", "reject"},
		Context: []byte(`{"env":"prod"}`), TimeoutSeconds: 3600, CreatedAt: at, Caller: ptr("alice"), Tool: "deploy"}
}

func ptr(s string) *string { return &s }

// TestHumansReopen: a pending request, an answered one with its response,
// an empty list of options and an approval outlive the store (a restart),
// and the pending request can be answered afterwards.
func TestHumansReopen(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "history.db")
	s := open(t, path)
	at := time.Now().Add(-time.Minute)
	waiting, answered := humanRequest("waiting", at), humanRequest("answered", at.Add(time.Millisecond))
	waiting.Options = []string{} // no answer allowed, which is not any answer
	for _, r := range []*history.Request{waiting, answered} {
		if err := s.CreateRequest(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	resp := &history.Response{ID: "resp-1", RequestID: "answered", Response: "approve", RespondedBy: ptr("bob"),
		Metadata: []byte(`{"n":1}`), CreatedAt: at.Add(time.Second)}
	if err := s.Respond(ctx, resp); err != nil {
		t.Fatal(err)
	}
	rec := pending("call", at)
	if err := s.Start(ctx, rec); err != nil {
		t.Fatal(err)
	}
	fin := *rec
	fin.Status, fin.Approval = history.Success, &history.Approval{Decision: "approve", By: ptr("bob"), At: at}
	if err := s.Finish(ctx, &fin); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, path)
	defer s.Close()
	got, gotResp, err := s.GetRequest(ctx, "waiting")
	if err != nil || got.Status != history.RequestPending || gotResp != nil || got.Options == nil || len(got.Options) != 0 ||
		got.Prompt != "Deploy?" || got.Caller == nil || *got.Caller != "alice" || got.Tool != "deploy" ||
		!got.ExpiresAt.Equal(at.Truncate(time.Millisecond).Add(time.Hour)) {
		t.Errorf("after reopening, the pending request: %+v, %+v, %v", got, gotResp, err)
	}
	got, gotResp, err = s.GetRequest(ctx, "answered")
	if err != nil || got.Status != history.RequestResponded || gotResp == nil || gotResp.ID != "resp-1" ||
		gotResp.Response != "approve" || string(gotResp.Metadata) != `{"n":1}` || !slices.Equal(got.Options, answered.Options) {
		t.Errorf("after reopening, the answered request: %+v, %+v, %v", got, gotResp, err)
	}
	r, err := s.Get(ctx, "call")
	if err != nil || r.Approval == nil || r.Approval.Decision != "approve" || !r.Approval.At.Equal(at.Truncate(time.Millisecond)) {
		t.Errorf("after reopening, the approval: %+v, %v", r, err)
	}
	if err := s.Respond(ctx, &history.Response{ID: "resp-2", RequestID: "waiting", Response: "reject", CreatedAt: time.Now()}); err != nil {
		t.Errorf("answering after reopening: %v", err)
	}
	if err := s.Respond(ctx, &history.Response{ID: "resp-3", RequestID: "answered", Response: "reject", CreatedAt: time.Now()}); !errors.Is(err, history.ErrResponded) {
		t.Errorf("answering again after reopening: %v, want ErrResponded", err)
	}
}

// TestMigrateHumans: a file of schema version 3 (before human requests
// and approvals) is migrated to 4 with its records kept, which read back
// without an approval.
func TestMigrateHumans(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "history.db")
	// A file of version 3, made as that version's Open made it (this
	// program's cannot open it before migrating: its statements name the
	// new column), with a record in version 3's columns.
	db, err := sql.Open("sqlite", uri(path, "_pragma=journal_mode(WAL)"))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, db, migrations[:3]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO invocations (id, tool, surface, input, status, created_at)
		VALUES ('old', 't', 'mcp', '{}', 'success', ?)`, time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := open(t, path)
	defer s.Close()
	var v int
	if err := s.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != 4 {
		t.Errorf("user_version = %d, %v; want 4", v, err)
	}
	r, err := s.Get(ctx, "old")
	if err != nil || r.Approval != nil || r.Status != history.Success {
		t.Errorf("a record from version 3: %+v, %v", r, err)
	}
	if err := s.CreateRequest(ctx, humanRequest("new", time.Now())); err != nil {
		t.Errorf("CreateRequest after the migration: %v", err)
	}
	f := pending("new", time.Now())
	f.Status, f.Approval = history.Failed, &history.Approval{Decision: "reject", At: time.Now()}
	if err := s.Finish(ctx, f); err != nil {
		t.Errorf("Finish with an approval after the migration: %v", err)
	}
}

// TestHumansRetention: retention bounds the human requests as it does the
// invocations, and a request's response goes with it.
func TestHumansRetention(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "history.db"), history.Retention{MaxRows: 2, Interval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Now().Add(-time.Minute)
	for i, id := range []string{"a", "b", "c", "d"} {
		if err := s.CreateRequest(ctx, humanRequest(id, at.Add(time.Duration(i)*time.Second))); err != nil {
			t.Fatal(err)
		}
		if err := s.Respond(ctx, &history.Response{ID: "resp-" + id, RequestID: id, Response: "approve", CreatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		reqs, total, err := s.ListRequests(ctx, history.RequestFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if total == 2 {
			if ids := []string{reqs[0].ID, reqs[1].ID}; !slices.Equal(ids, []string{"d", "c"}) {
				t.Errorf("kept %q, want the newest two", ids)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests kept, want 2", total)
		}
		time.Sleep(10 * time.Millisecond)
	}
	var ids []string
	rows, err := s.r.QueryContext(ctx, `SELECT request_id FROM human_responses ORDER BY request_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if !slices.Equal(ids, []string{"c", "d"}) {
		t.Errorf("responses of %q left, want those of c and d", ids)
	}
	if _, _, err := s.GetRequest(ctx, "a"); !errors.Is(err, history.ErrRequestNotFound) {
		t.Errorf("GetRequest of a dropped request: %v", err)
	}
}

// TestHumanQueryPlans: every request filter, alone, is read from an index
// in page order, without a sort.
func TestHumanQueryPlans(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "history.db"))
	defer s.Close()
	for _, f := range []history.RequestFilter{{}, {Status: "pending"}, {Status: "expired"}, {Status: "responded"}, {Type: "x"}, {Caller: ptr("x")}} {
		cond, args := requestWhere(f, time.Now())
		plan := explain(t, s.r, "SELECT "+requestColumns+" FROM human_requests q"+cond+" ORDER BY created_at DESC, seq DESC LIMIT 50", args...)
		if !strings.Contains(plan, "USING INDEX human_requests_") || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("%+v: plan %q", f, plan)
		}
	}
}

func explain(t *testing.T, db *sql.DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "; ")
}

// TestRespondTwoStoresOneFile: of answers at once through two stores on
// one file (as two processes would be), exactly one is accepted.
func TestRespondTwoStoresOneFile(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "history.db")
	a, b := open(t, path), open(t, path)
	defer a.Close()
	defer b.Close()
	if err := a.CreateRequest(ctx, humanRequest("q", time.Now())); err != nil {
		t.Fatal(err)
	}
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			errs[i] = s.Respond(ctx, &history.Response{ID: fmt.Sprint("resp-", i), RequestID: "q", Response: "approve", CreatedAt: time.Now()})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, history.ErrResponded):
			t.Errorf("Respond: %v", err)
		}
	}
	if won != 1 {
		t.Errorf("%d answers accepted, want 1", won)
	}
}
