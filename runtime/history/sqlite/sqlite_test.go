package sqlite

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/historytest"
)

func TestStore(t *testing.T) {
	historytest.Run(t, func(t *testing.T, r history.Retention) history.Store {
		s, err := Open(t.Context(), filepath.Join(t.TempDir(), "history.db"), r)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func BenchmarkStore(b *testing.B) {
	historytest.Bench(b, func(b *testing.B) history.Store {
		s, err := Open(b.Context(), filepath.Join(b.TempDir(), "history.db"), history.Retention{})
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(t.Context(), path, history.Retention{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pending(id string, at time.Time) *history.Record {
	return &history.Record{ID: id, Tool: "t", Surface: "mcp", Input: []byte(`{"id":"` + id + `"}`), Status: history.Pending, CreatedAt: at}
}

// TestReopen: records outlive the store, the WAL settings hold on every
// connection, and the file is its owner's only.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "history.db")
	ctx := t.Context()
	s := open(t, path)
	at := time.Now()
	a, b := pending("a", at), pending("b", at.Add(time.Millisecond))
	for _, r := range []*history.Record{a, b} {
		if err := s.Start(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	fa := *a
	fa.Status, fa.Result, fa.DurationMS, fa.CompletedAt = history.Success, []byte(`{"ok":true}`), new(float64), &at
	if err := s.Finish(ctx, &fa); err != nil {
		t.Fatal(err)
	}
	for _, db := range []*sql.DB{s.w, s.r} {
		var mode string
		var sync int
		if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q, %v; want wal", mode, err)
		}
		if err := db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || db == s.w && sync != 1 {
			t.Errorf("writer's synchronous = %d, %v; want 1 (NORMAL)", sync, err)
		}
	}
	if _, err := s.r.ExecContext(ctx, "DELETE FROM invocations"); err == nil {
		t.Error("the read pool can write")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		for _, p := range []string{path} {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: %v, %v; want mode 0600", p, fi.Mode(), err)
			}
		}
	}

	s = open(t, path)
	defer s.Close()
	recs, total, err := s.List(ctx, history.Filter{})
	if err != nil || total != 2 {
		t.Fatalf("after reopening: total %d, %v", total, err)
	}
	for i, w := range []*history.Record{b, &fa} {
		w := *w
		w.CreatedAt = w.CreatedAt.UTC().Truncate(time.Millisecond)
		if w.CompletedAt != nil {
			c := w.CompletedAt.UTC().Truncate(time.Millisecond)
			w.CompletedAt = &c
		}
		if d := historytest.Diff(&recs[i], &w); d != "" {
			t.Errorf("after reopening, %s:\n%s", w.ID, d)
		}
	}
	if err := s.Start(ctx, pending("a", at)); err == nil {
		t.Error("Start of an id recorded before reopening: no error")
	}
}

// TestMigrate: a file of an older schema version is migrated on open, its
// records kept; an empty or foreign SQLite file gets the schema; a file of
// a newer version, or not SQLite at all, is refused.
func TestMigrate(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	s := open(t, path)
	if err := s.Start(ctx, pending("old", time.Now())); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// The next version of the program adds a column and an index.
	saved := migrations
	t.Cleanup(func() { migrations = saved })
	migrations = append(slices.Clip(saved), `ALTER TABLE invocations ADD COLUMN note TEXT; CREATE INDEX invocations_note ON invocations (note)`)
	s = open(t, path)
	var v int
	if err := s.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != len(migrations) {
		t.Errorf("user_version = %d, %v; want %d", v, err, len(migrations))
	}
	var notes int
	if err := s.r.QueryRowContext(ctx, "SELECT count(note) FROM invocations").Scan(&notes); err != nil {
		t.Errorf("the new column: %v", err)
	}
	if _, err := s.Get(ctx, "old"); err != nil {
		t.Errorf("a record from before the migration: %v", err)
	}
	if err := s.Start(ctx, pending("new", time.Now())); err != nil {
		t.Errorf("Start after the migration: %v", err)
	}
	s.Close()
	// Opening again applies nothing twice.
	s = open(t, path)
	s.Close()

	// This program's version cannot read the newer file.
	migrations = saved
	if s, err := Open(ctx, path, history.Retention{}); err == nil {
		s.Close()
		t.Error("a file of a newer schema version opened")
	} else if !strings.Contains(err.Error(), "newer") {
		t.Errorf("newer version: %v", err)
	}

	// Version 0: an empty file, and a SQLite file of someone else's.
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	open(t, empty).Close()
	foreign := filepath.Join(dir, "foreign.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = open(t, foreign)
	var body string
	if err := s.r.QueryRowContext(ctx, "SELECT body FROM notes").Scan(&body); err != nil || body != "keep me" {
		t.Errorf("the file's own table: %q, %v", body, err)
	}
	if err := s.Start(ctx, pending("x", time.Now())); err != nil {
		t.Error(err)
	}
	s.Close()

	notDB := filepath.Join(dir, "text.db")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(ctx, notDB, history.Retention{}); err == nil {
		s.Close()
		t.Error("a text file opened as a store")
	} else if !strings.Contains(err.Error(), notDB) {
		t.Errorf("the error does not name the file: %v", err)
	}
}

// TestTwoStoresOneFile: two stores on one file (as two processes would
// be) open at once and write at once; the busy timeout keeps SQLITE_BUSY
// from reaching a caller.
func TestTwoStoresOneFile(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "history.db")
	stores := make([]*Store, 2)
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for i := range stores {
		wg.Go(func() {
			s, err := Open(ctx, path, history.Retention{MaxRows: 1000, Interval: 5 * time.Millisecond})
			if err != nil {
				errs <- err
				return
			}
			stores[i] = s
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatal(<-errs)
	}
	defer func() {
		for _, s := range stores {
			s.Close()
		}
	}()
	const each = 40
	for i, s := range stores {
		for g := range 4 {
			wg.Go(func() {
				for k := range each {
					r := pending(fmt.Sprintf("%d-%d-%d", i, g, k), time.Now())
					if err := s.Start(ctx, r); err != nil {
						errs <- err
						return
					}
					r.Status, r.Result = history.Success, []byte(`1`)
					if err := s.Finish(ctx, r); err != nil {
						errs <- err
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, s := range stores {
		if _, total, err := s.List(ctx, history.Filter{Status: "success"}); err != nil || total != 2*4*each {
			t.Errorf("total %d, %v; want %d", total, err, 2*4*each)
		}
	}
}

// TestDSN: history.Open reaches this store by "sqlite:PATH" and by a bare
// path, and a path with URI characters in it names the file it says.
func TestDSN(t *testing.T) {
	ctx := t.Context()
	dir := filepath.Join(t.TempDir(), "a b%20c?d#e")
	for _, dsn := range []string{"sqlite:" + filepath.Join(dir, "one.db"), filepath.Join(dir, "two%3f.db")} {
		s, err := history.Open(ctx, dsn, history.Retention{})
		if err != nil {
			t.Fatalf("Open(%q): %v", dsn, err)
		}
		if _, ok := s.(*Store); !ok {
			t.Errorf("Open(%q) is a %T", dsn, s)
		}
		if err := s.Start(ctx, pending("x", time.Now())); err != nil {
			t.Error(err)
		}
		s.Close()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"one.db", "two%3f.db"}) {
		t.Errorf("files %q, want one.db and two%%3f.db", names)
	}
	for _, dsn := range []string{"sqlite:", "sqlite::memory:"} {
		if s, err := history.Open(ctx, dsn, history.Retention{}); err == nil {
			s.Close()
			t.Errorf("Open(%q): no error", dsn)
		} else if s != nil {
			t.Errorf("Open(%q) failed but returned a non-nil Store", dsn)
		}
	}
}

// TestQueryPlans: every filter, alone and with the default order, is read
// from an index, without a sort.
func TestQueryPlans(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "history.db"))
	defer s.Close()
	for _, where := range []string{"", "WHERE tool = ?", "WHERE status = ?", "WHERE correlation_id = ?", "WHERE surface = ?"} {
		var args []any
		if where != "" {
			args = []any{"x"}
		}
		q := "EXPLAIN QUERY PLAN SELECT " + columns + " FROM invocations " + where + " ORDER BY created_at DESC, seq DESC LIMIT 50"
		rows, err := s.r.QueryContext(t.Context(), q, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if !strings.Contains(p, "USING INDEX invocations_") || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%q: plan %q", where, p)
		}
	}
}
