package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/historytest"
)

func TestPostgresHumans(t *testing.T) {
	testDSN(t)
	historytest.RunHumans(t, func(t *testing.T, r history.Retention) history.Store {
		return openIn(t, newSchema(t), r)
	})
}

func humanRequest(id string, at time.Time) *history.Request {
	return &history.Request{ID: id, Type: "approval", Prompt: "Deploy?", Options: []string{"approve", "reject"},
		Context: []byte(`{"env":"prod"}`), TimeoutSeconds: 3600, CreatedAt: at, Caller: ptr("alice"), Tool: "deploy"}
}

func ptr(s string) *string { return &s }

// TestHumansReplicas: a request one replica makes, another reads and
// answers; of answers through several replicas at once, one is accepted;
// and everything outlives the stores.
func TestHumansReplicas(t *testing.T) {
	ctx := t.Context()
	schema := newSchema(t)
	stores := make([]*Store, 3)
	for i := range stores {
		stores[i] = openIn(t, schema, history.Retention{})
		defer stores[i].Close()
	}
	waiting := humanRequest("waiting", time.Now())
	waiting.Options = []string{} // no answer allowed, which is not any answer
	for _, r := range []*history.Request{humanRequest("q", time.Now()), waiting} {
		if err := stores[0].CreateRequest(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	const n = 9
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = stores[i%len(stores)].Respond(ctx, &history.Response{ID: fmt.Sprint("resp-", i), RequestID: "q", Response: "approve", CreatedAt: time.Now()})
		})
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won < 0:
			won = i
		case err == nil:
			t.Errorf("answers %d and %d both accepted", won, i)
		case !errors.Is(err, history.ErrResponded):
			t.Errorf("Respond: %v", err)
		}
	}
	for i := range stores {
		stores[i].Close()
	}

	s := openIn(t, schema, history.Retention{})
	defer s.Close()
	got, resp, err := s.GetRequest(ctx, "q")
	if err != nil || got.Status != history.RequestResponded || resp == nil || resp.ID != fmt.Sprint("resp-", won) {
		t.Errorf("after reopening, the answered request: %+v, %+v, %v (answer %d won)", got, resp, err, won)
	}
	got, resp, err = s.GetRequest(ctx, "waiting")
	if err != nil || got.Status != history.RequestPending || resp != nil || got.Options == nil || len(got.Options) != 0 {
		t.Errorf("after reopening, the pending request: %+v, %+v, %v", got, resp, err)
	}
}

// TestMigrateHumans: a schema of version 3 (before human requests and
// approvals) is migrated to 4 with its records kept, which read back
// without an approval.
func TestMigrateHumans(t *testing.T) {
	ctx := t.Context()
	schema := newSchema(t)
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = slices.Clip(saved[:3])
	s := openIn(t, schema, history.Retention{})
	// Version 3's columns, written by hand: this program's Start writes
	// the approval column.
	if _, err := s.pool.Exec(ctx, `INSERT INTO toolgen_invocations (id, tool, surface, input, status, created_at)
		VALUES ('old', 't', 'mcp', '{}', 'success', now())`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	migrations = saved
	s = openIn(t, schema, history.Retention{})
	defer s.Close()
	var v int
	if err := s.pool.QueryRow(ctx, `SELECT version FROM toolgen_history_schema`).Scan(&v); err != nil || v != len(migrations) {
		t.Errorf("version %d, %v; want %d", v, err, len(migrations))
	}
	r, err := s.Get(ctx, "old")
	if err != nil || r.Approval != nil || r.Status != history.Success {
		t.Errorf("a record from version 3: %+v, %v", r, err)
	}
	if err := s.CreateRequest(ctx, humanRequest("new", time.Now())); err != nil {
		t.Errorf("CreateRequest after the migration: %v", err)
	}
	f := pending("new")
	f.Status, f.Approval = history.Failed, &history.Approval{Decision: "reject", At: time.Now()}
	if err := s.Finish(ctx, f); err != nil {
		t.Errorf("Finish with an approval after the migration: %v", err)
	}
}

// TestHumansRetention: retention bounds the human requests as it does the
// invocations, and a request's response goes with it.
func TestHumansRetention(t *testing.T) {
	ctx := t.Context()
	s := openIn(t, newSchema(t), history.Retention{MaxRows: 2, Interval: 5 * time.Millisecond})
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
	rows, err := s.pool.Query(ctx, `SELECT request_id FROM toolgen_human_responses ORDER BY request_id`)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || !slices.Equal(ids, []string{"c", "d"}) {
		t.Errorf("responses of %q left, %v; want those of c and d", ids, err)
	}
}

// TestHumanQueryPlans: every request filter, alone, is read from an index
// in page order, with no sort, once sequential scans are priced out.
func TestHumanQueryPlans(t *testing.T) {
	ctx := t.Context()
	s := openIn(t, newSchema(t), history.Retention{})
	defer s.Close()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `RESET enable_seqscan`)
	for _, f := range []history.RequestFilter{{}, {Status: "pending"}, {Status: "expired"}, {Status: "responded"}, {Type: "x"}, {Caller: ptr("x")}} {
		cond, args := requestWhere(f, time.Now())
		rows, err := conn.Query(ctx, `EXPLAIN SELECT `+requestColumns+` FROM toolgen_human_requests q`+cond+` ORDER BY created_at DESC, seq DESC LIMIT 50`, args...)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if !strings.Contains(plan, "Index Scan using toolgen_human_requests_") || strings.Contains(plan, "Sort") || strings.Contains(plan, "Seq Scan") {
			t.Errorf("%+v:\n%s", f, plan)
		}
	}
}
