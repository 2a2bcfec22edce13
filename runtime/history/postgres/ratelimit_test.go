package postgres

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
)

// GCRA in the database: n calls at once, then one every per/n; each
// bucket apart; the time passed in, not the database's.
func TestTakeRate(t *testing.T) {
	ctx := t.Context()
	s := openIn(t, newSchema(t), history.Retention{})
	defer s.Close()
	t0 := time.Now().Truncate(time.Second)
	take := func(key string, at time.Time) (bool, time.Duration) {
		t.Helper()
		ok, wait, err := s.Take(ctx, key, 5, 10*time.Second, at)
		if err != nil {
			t.Fatal(err)
		}
		return ok, wait
	}
	for i := range 5 {
		if ok, _ := take("a", t0); !ok {
			t.Fatalf("call %d of 5 refused", i+1)
		}
	}
	if ok, wait := take("a", t0); ok || wait != 2*time.Second {
		t.Errorf("the sixth call: %v, wait %v; want refused, 2s", ok, wait)
	}
	if ok, _ := take("b", t0); !ok {
		t.Error("another bucket refused")
	}
	if ok, wait := take("a", t0.Add(1500*time.Millisecond)); ok || wait != 500*time.Millisecond {
		t.Errorf("1.5 s on: %v, wait %v; want refused, 500ms", ok, wait)
	}
	if ok, _ := take("a", t0.Add(2*time.Second)); !ok {
		t.Error("2 s on, a call is back but was refused")
	}
	if ok, _ := take("a", t0.Add(2*time.Second)); ok {
		t.Error("2 s on, a second call went through")
	}
	if ok, _ := take("a", t0.Add(time.Hour)); !ok {
		t.Error("an hour on, the bucket is not full again")
	}
}

// Calls that race for the last of a bucket: exactly n go through, from
// any number of connections.
func TestTakeRateRaces(t *testing.T) {
	ctx := t.Context()
	s := openIn(t, newSchema(t), history.Retention{})
	defer s.Close()
	now := time.Now()
	var passed atomic.Int64
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			ok, _, err := s.Take(ctx, "race", 7, time.Hour, now)
			if err != nil {
				t.Error(err)
			}
			if ok {
				passed.Add(1)
			}
		})
	}
	wg.Wait()
	if n := passed.Load(); n != 7 {
		t.Errorf("%d of 40 racing calls went through, want 7", n)
	}
}

// Two replicas on one database hold a tool's rate limit together: calls
// sent to each in turn let exactly the limit through, where each
// process's own limiter would let it through twice. A replica whose store
// cannot be reached refuses the call (fail closed: 503 and retry).
func TestRateLimitAcrossReplicas(t *testing.T) {
	schema := newSchema(t)
	var runs atomic.Int64
	tool := runtime.Tool{Name: "limited", RateLimit: runtime.Rate{N: 5, Per: time.Hour},
		Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
			runs.Add(1)
			return runtime.TextResult("ok"), nil
		}}
	var replicas [2]*runtime.Server
	var stores [2]*Store
	for i := range replicas {
		stores[i] = openIn(t, schema, history.Retention{})
		defer stores[i].Close()
		replicas[i] = runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{History: stores[i], Logger: slog.New(slog.DiscardHandler)})
	}
	passed := 0
	for i := range 10 {
		out := replicas[i%2].Invoke(t.Context(), &runtime.Call{Tool: "limited"})
		switch out.Status {
		case runtime.StatusOK:
			passed++
		case runtime.StatusRateLimited:
		default:
			t.Fatalf("call %d: %v %v", i, out.Status, out.Err)
		}
	}
	if passed != 5 || runs.Load() != 5 {
		t.Errorf("%d calls went through (the tool ran %d times), want 5 across both replicas", passed, runs.Load())
	}

	stores[1].pool.Close() // the database is gone, for this replica
	out := replicas[1].Invoke(context.Background(), &runtime.Call{Tool: "limited"})
	if out.Status != runtime.StatusUnrecorded || runs.Load() != 5 {
		t.Errorf("with its store unreachable: %v %v (ran %d), want a refusal to retry", out.Status, out.Err, runs.Load())
	}
}

// BenchmarkTake is what a rate-limited call pays for its limit on
// PostgreSQL: one statement, one round trip.
func BenchmarkTake(b *testing.B) {
	s := openIn(b, newSchema(b), history.Retention{})
	defer s.Close()
	now := time.Now()
	for b.Loop() {
		if _, _, err := s.Take(b.Context(), "bench", 1_000_000_000, time.Hour, now); err != nil {
			b.Fatal(err)
		}
	}
}

// A call refused because another replica took the bucket while this one
// waited for the row's lock is told the wait the bucket really has, not
// one read from before (which would be none, and a retry at once).
func TestTakeRateWaitAfterARace(t *testing.T) {
	ctx := t.Context()
	s := openIn(t, newSchema(t), history.Retention{})
	defer s.Close()
	now := time.Now().Truncate(time.Second)
	if ok, _, err := s.Take(ctx, "race", 1, 10*time.Second, now.Add(-time.Hour)); err != nil || !ok {
		t.Fatalf("the bucket's first call: %v %v", ok, err)
	}
	// Another replica takes the bucket (its tat 10 s on), holding the row
	// until this replica's call waits for it.
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `UPDATE toolgen_rate_limits SET tat = $1 WHERE key = 'race'`, now.Add(10*time.Second).UnixMicro()); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		ok   bool
		wait time.Duration
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		ok, wait, err := s.Take(ctx, "race", 1, 10*time.Second, now)
		got <- answer{ok, wait, err}
	}()
	// Commit once the call waits for the row's lock.
	deadline := time.Now().Add(time.Minute)
	for {
		var waiting int
		if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%toolgen_rate_limits%'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the call never waited for the row")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	a := <-got
	if a.err != nil || a.ok || a.wait != 10*time.Second {
		t.Errorf("refused after the race: ok %v, wait %v, %v; want refused, 10s", a.ok, a.wait, a.err)
	}
}
