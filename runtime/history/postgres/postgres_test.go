package postgres

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/historytest"
)

// envDSN names the database the tests use. Each test works in a schema of
// its own, made for it and dropped after it, so runs never collide.
const envDSN = "TOOLGEN_TEST_POSTGRES"

// testDSN is the DSN of the test database. Without one the tests skip,
// except in CI, where a missing database is a broken setup, not a reason
// to pass.
func testDSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv(envDSN)
	if dsn != "" {
		return dsn
	}
	if ci := os.Getenv("CI"); ci != "" && ci != "0" && ci != "false" {
		tb.Fatalf("%s is not set, and CI is: run the tests under .ci/postgres, which starts a database and sets it", envDSN)
	}
	tb.Skipf("%s is not set: set it to the DSN of a database in which the tests may create schemas, or run under .ci/postgres", envDSN)
	return ""
}

// newSchema names a fresh schema, dropped with everything in it when the
// test ends (after the stores it opened are closed).
func newSchema(tb testing.TB) string {
	tb.Helper()
	dsn := testDSN(tb)
	schema := "toolgen_test_" + strings.ToLower(rand.Text()[:12])
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			tb.Errorf("dropping %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`); err != nil {
			tb.Errorf("dropping %s: %v", schema, err)
		}
	})
	return schema
}

// config is the test database's pool configuration, in schema.
func config(tb testing.TB, schema string) *pgxpool.Config {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(testDSN(tb))
	if err != nil {
		tb.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	return cfg
}

func openIn(tb testing.TB, schema string, r history.Retention) *Store {
	tb.Helper()
	s, err := OpenConfig(tb.Context(), config(tb, schema), r)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestStore(t *testing.T) {
	testDSN(t)
	historytest.Run(t, func(t *testing.T, r history.Retention) history.Store {
		return openIn(t, newSchema(t), r)
	})
}

func BenchmarkStore(b *testing.B) {
	historytest.Bench(b, func(b *testing.B) history.Store {
		return openIn(b, newSchema(b), history.Retention{})
	})
}

func pending(id string) *history.Record {
	return &history.Record{ID: id, Tool: "t", Surface: "mcp", Input: []byte(`{}`), Status: history.Pending, CreatedAt: time.Now()}
}

// TestOpenTogether: replicas starting at once on a new schema all open it,
// and it is migrated once.
func TestOpenTogether(t *testing.T) {
	schema := newSchema(t)
	var wg sync.WaitGroup
	stores := make([]*Store, 6)
	errs := make([]error, len(stores))
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = OpenConfig(t.Context(), config(t, schema), history.Retention{}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("store %d: %v", i, err)
		} else {
			defer stores[i].Close()
		}
	}
	if t.Failed() {
		return
	}
	var versions []int
	rows, err := stores[0].pool.Query(t.Context(), `SELECT version FROM toolgen_history_schema`)
	if err != nil {
		t.Fatal(err)
	}
	versions, err = pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil || !slices.Equal(versions, []int{len(migrations)}) {
		t.Errorf("versions %v, %v; want [%d]", versions, err, len(migrations))
	}
	// A record one replica writes, another reads.
	if err := stores[1].Start(t.Context(), pending("shared")); err != nil {
		t.Fatal(err)
	}
	if _, err := stores[2].Get(t.Context(), "shared"); err != nil {
		t.Error(err)
	}
	if err := stores[3].Start(t.Context(), pending("shared")); err == nil {
		t.Error("a second replica started the same id")
	}
}

// TestMigrate: a schema of an older version is migrated on open, its
// records kept; one of a newer version is refused.
func TestMigrate(t *testing.T) {
	ctx := t.Context()
	schema := newSchema(t)
	s := openIn(t, schema, history.Retention{})
	if err := s.Start(ctx, pending("old")); err != nil {
		t.Fatal(err)
	}
	s.Close()

	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = append(slices.Clip(saved), `ALTER TABLE toolgen_invocations ADD COLUMN note text; CREATE INDEX toolgen_invocations_note ON toolgen_invocations (note)`)
	s = openIn(t, schema, history.Retention{})
	var notes int
	if err := s.pool.QueryRow(ctx, `SELECT count(note) FROM toolgen_invocations`).Scan(&notes); err != nil {
		t.Errorf("the new column: %v", err)
	}
	if _, err := s.Get(ctx, "old"); err != nil {
		t.Errorf("a record from before the migration: %v", err)
	}
	if err := s.Start(ctx, pending("new")); err != nil {
		t.Errorf("Start after the migration: %v", err)
	}
	s.Close()
	openIn(t, schema, history.Retention{}).Close() // nothing applied twice

	migrations = saved
	if s, err := OpenConfig(ctx, config(t, schema), history.Retention{}); err == nil {
		s.Close()
		t.Error("a schema of a newer version opened")
	} else if !strings.Contains(err.Error(), "newer") {
		t.Errorf("newer version: %v", err)
	}
}

// TestDSN: history.Open reaches this store by postgres:// and
// postgresql:// URLs (and a keyword/value DSN through Open), with the
// schema in search_path.
func TestDSN(t *testing.T) {
	ctx := t.Context()
	base := testDSN(t)
	schema := newSchema(t)
	var dsns []string
	if u, err := url.Parse(base); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("search_path", `"`+schema+`", public`)
		u.RawQuery = q.Encode()
		for _, scheme := range []string{"postgres", "postgresql"} {
			u.Scheme = scheme
			dsns = append(dsns, u.String())
		}
	} else {
		t.Logf("%s is not a URL: testing history.Open's schemes needs one", envDSN)
	}
	for i, dsn := range dsns {
		s, err := history.Open(ctx, dsn, history.Retention{})
		if err != nil {
			t.Fatalf("Open(%s): %v", dsn, err)
		}
		if err := s.Start(ctx, pending(fmt.Sprint(i))); err != nil {
			t.Error(err)
		}
		s.Close()
	}
	// Keyword/value form: the tables land in the same schema.
	cfg := config(t, schema)
	kv := fmt.Sprintf("host=%s port=%d dbname=%s user=%s search_path=%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database, cfg.ConnConfig.User, schema)
	if cfg.ConnConfig.Password != "" {
		kv += " password='" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(cfg.ConnConfig.Password) + "'"
	}
	s, err := Open(ctx, kv, history.Retention{})
	if err != nil {
		t.Fatalf("Open with a keyword/value DSN: %v", err)
	}
	defer s.Close()
	_, total, err := s.List(ctx, history.Filter{})
	if err != nil || total != len(dsns) {
		t.Errorf("the keyword/value DSN sees %d records, %v; want %d", total, err, len(dsns))
	}
	if _, err := Open(ctx, "postgres://%zz", history.Retention{}); err == nil {
		t.Error("a malformed DSN opened")
	}
}

// TestQueryPlans: every filter is read from an index in page order, with
// no sort, once sequential scans are priced out (the test table is small
// enough that the planner would rather scan it).
func TestQueryPlans(t *testing.T) {
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
	for _, where := range []string{"", "WHERE tool = 'x'", "WHERE status = 'pending'", "WHERE correlation_id = 'x'", "WHERE surface = 'x'", "WHERE caller = 'x'"} {
		rows, err := conn.Query(ctx, `EXPLAIN SELECT `+columns+` FROM toolgen_invocations `+where+` ORDER BY created_at DESC, seq DESC LIMIT 50`)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if !strings.Contains(plan, "Index Scan using toolgen_invocations_") || strings.Contains(plan, "Sort") || strings.Contains(plan, "Seq Scan") {
			t.Errorf("%q:\n%s", where, plan)
		}
	}
}

func TestFirstSchema(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "",
		"toolgen":            "toolgen",
		"  ToolGen , public": "toolgen",
		`"ToolGen", public`:  "ToolGen",
		`"a""b"`:             `a"b`,
		"$user, public":      "",
	} {
		if got := firstSchema(in); got != want {
			t.Errorf("firstSchema(%q) = %q, want %q", in, got, want)
		}
	}
}
