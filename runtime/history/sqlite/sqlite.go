// Package sqlite is a [history.Store] in a SQLite file, on the pure-Go
// driver modernc.org/sqlite (no cgo): the embedded, persistent store of a
// single server. Importing it registers the "sqlite" DSN scheme, so that
// history.Open (and serve's -history flag) opens "sqlite:PATH" and bare
// paths; only a program that imports this package links the driver.
//
// The file is the store's own. It is in WAL mode with synchronous=NORMAL:
// a Start or Finish that returned is in the WAL file, which survives a
// crash (kill -9) of the process; a power loss may lose the last few
// records. Writes go through one connection, so that concurrent calls queue
// in Go instead of failing with SQLITE_BUSY, and reads through a separate
// pool, which WAL lets run while a write is under way. A busy timeout
// covers another process using the same file.
//
// The store also keeps human requests and their answers
// ([history.Humans]), in two tables of the same file.
//
// https://github.com/toolgen-go/toolgen/blob/main/docs/deploy.md says when to use which store.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	msqlite "modernc.org/sqlite" // and the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

func init() {
	history.Register("sqlite", func(ctx context.Context, dsn string, r history.Retention) (history.Store, error) {
		s, err := Open(ctx, strings.TrimPrefix(dsn, "sqlite:"), r)
		if err != nil {
			return nil, err // not a nil *Store in a non-nil interface
		}
		return s, nil
	})
}

// busyTimeout is how long a statement waits for a lock that another
// process holds (within this one, the single writer connection queues).
const busyTimeout = 10 * time.Second

// retentionBatch is how many rows one retention DELETE removes, so that
// the writer connection is never held for long and Start and Finish do not
// wait behind a large cleanup.
const retentionBatch = 500

// Store is a [history.Store] in a SQLite file. Open makes one.
type Store struct {
	w, r *sql.DB // w: the one writer connection; r: the readers
	// start and finish are prepared once on the writer, rather than
	// parsed and planned again on every call.
	start, finish *sql.Stmt
	path          string
	ret           history.Retention
	stop          chan struct{}
	cancel        context.CancelFunc // cancels a retention pass under way at Close
	wg            sync.WaitGroup
	once          sync.Once
	err           error // Close's
}

var _ history.Store = (*Store)(nil)

// Open opens (creating it, and its directory, when missing) the SQLite
// file at path and migrates its schema to the current version. A new file
// is readable by its owner only: invocation inputs may be private. r bounds
// what is kept; a goroutine applies it every r.Interval until Close.
func Open(ctx context.Context, path string, r history.Retention) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file::memory:") {
		return nil, fmt.Errorf("history/sqlite: %q is not a file (use the \"memory\" store for one in memory)", path)
	}
	if err := prepareFile(path); err != nil {
		return nil, fmt.Errorf("history/sqlite: %w", err)
	}
	// busy_timeout first: the driver applies it before journal_mode,
	// which needs a lock when another process has the file open.
	w, err := sql.Open("sqlite", uri(path,
		"_pragma=busy_timeout("+fmt.Sprint(busyTimeout.Milliseconds())+")",
		"_pragma=journal_mode(WAL)",
		"_pragma=synchronous(NORMAL)",
		// For the cascade from a human request to its response.
		"_pragma=foreign_keys(1)",
		// A transaction on the writer takes the write lock at BEGIN, so
		// that it never has to upgrade a read lock, which fails with
		// SQLITE_BUSY at once, whatever the busy timeout, when another
		// process writes.
		"_txlock=immediate"))
	if err != nil {
		return nil, fmt.Errorf("history/sqlite: %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := retryBusy(ctx, func() error { return migrate(ctx, w, migrations) }); err != nil {
		w.Close()
		return nil, fmt.Errorf("history/sqlite: %s: schema: %w", path, err)
	}
	rd, err := sql.Open("sqlite", uri(path,
		"_pragma=busy_timeout("+fmt.Sprint(busyTimeout.Milliseconds())+")",
		"_pragma=query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("history/sqlite: %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	rd.SetMaxOpenConns(n)
	rd.SetMaxIdleConns(n)
	if err := rd.PingContext(ctx); err != nil {
		rd.Close()
		w.Close()
		return nil, fmt.Errorf("history/sqlite: %s: readers: %w", path, err)
	}
	start, err := w.PrepareContext(ctx, insert+`DO NOTHING`)
	if err != nil {
		rd.Close()
		w.Close()
		return nil, fmt.Errorf("history/sqlite: %s: %w", path, err)
	}
	finish, err := w.PrepareContext(ctx, insert+`DO UPDATE SET
		status = excluded.status, result = excluded.result, error = excluded.error,
		duration_ms = excluded.duration_ms, completed_at = excluded.completed_at,
		approval = excluded.approval`)
	if err != nil {
		rd.Close()
		w.Close()
		return nil, fmt.Errorf("history/sqlite: %s: %w", path, err)
	}
	rctx, cancel := context.WithCancel(context.Background())
	s := &Store{w: w, r: rd, start: start, finish: finish, path: path, ret: r, stop: make(chan struct{}), cancel: cancel}
	s.wg.Go(func() { r.Every(s.stop, func() { s.retain(rctx) }) })
	return s, nil
}

// prepareFile creates path's directory and, when the file is new, creates
// it empty with mode 0600, since SQLite would create it (and its -wal and
// -shm files, which copy the file's mode) readable by all.
func prepareFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// uri is the driver's DSN for path: a file: URI, so that no character of
// the path is taken for a parameter. SQLite decodes %XX in it; '?' and '#'
// would end the path and '%' would start an escape, so those three are
// escaped, and a Windows drive path gets its leading slash.
func uri(path string, params ...string) string {
	p := filepath.ToSlash(path)
	if filepath.VolumeName(path) != "" {
		p = "/" + p
	}
	p = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
	return "file:" + p + "?" + strings.Join(params, "&")
}

// retryBusy runs f until it does not fail with SQLITE_BUSY, for up to
// busyTimeout. Only opening needs it: when two processes open a new file
// at once, the one that finds the other switching the file to WAL gets
// SQLITE_BUSY at once, without the busy handler waiting.
func retryBusy(ctx context.Context, f func() error) error {
	deadline := time.Now().Add(busyTimeout)
	for {
		err := f()
		var e *msqlite.Error
		if !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(time.Duration(10+rand.IntN(40)) * time.Millisecond):
		}
	}
}

const columns = `id, tool, surface, input, result, error, status, duration_ms, created_at, completed_at, correlation_id, caller, deadline, approval`

const insert = `INSERT INTO invocations (` + columns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) `

// interrupt marks interrupted the pending records past their deadline, so
// that every reader, in this process or another, reads them alike. It runs
// before each read; a file that cannot be written is read as it is.
func (s *Store) interrupt(ctx context.Context) {
	_, _ = s.w.ExecContext(ctx, `UPDATE invocations SET status = 'failed', error = ? WHERE status = 'pending' AND deadline < ?`,
		history.Interrupted, time.Now().UnixMilli())
}

// Start records a pending invocation; an id already recorded is an error.
func (s *Store) Start(ctx context.Context, r *history.Record) error {
	status, err := norm.StartStatus(r.ID, string(r.Status))
	if err != nil {
		return err
	}
	a, err := args(r, status)
	if err != nil {
		return fmt.Errorf("history/sqlite: Start %q: %w", r.ID, err)
	}
	res, err := s.start.ExecContext(ctx, a...)
	if err != nil {
		return fmt.Errorf("history/sqlite: Start %q: %w", r.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("history/sqlite: Start %q: %w", r.ID, err)
	} else if n == 0 {
		return norm.Exists(norm.Text(r.ID))
	}
	return nil
}

// Finish records the outcome of an invocation, inserting it whole when it
// was never started.
func (s *Store) Finish(ctx context.Context, r *history.Record) error {
	if err := norm.FinishStatus(r.ID, string(r.Status)); err != nil {
		return err
	}
	a, err := args(r, string(r.Status))
	if err != nil {
		return fmt.Errorf("history/sqlite: Finish %q: %w", r.ID, err)
	}
	if _, err := s.finish.ExecContext(ctx, a...); err != nil {
		return fmt.Errorf("history/sqlite: Finish %q: %w", r.ID, err)
	}
	return nil
}

// args are r's columns, normalised, in the order of columns. JSON is bound
// as a string so that SQLite stores TEXT (a []byte would be a BLOB).
func args(r *history.Record, status string) ([]any, error) {
	approval, err := approvalText(r.Approval)
	if err != nil {
		return nil, err
	}
	return []any{
		norm.Text(r.ID), norm.Text(r.Tool), norm.Text(r.Surface),
		jsonText(r.Input), jsonText(r.Result), textPtr(r.Error), status,
		floatPtr(r.DurationMS), norm.Time(r.CreatedAt).UnixMilli(), millisPtr(r.CompletedAt),
		textPtr(r.CorrelationID), textPtr(r.Caller), millisPtr(r.Deadline), approval,
	}, nil
}

// approvalText is an approval as the JSON text the approval column keeps,
// or nil for none.
func approvalText(a *history.Approval) (any, error) {
	if a == nil {
		return nil, nil
	}
	b, err := history.CleanApproval(a).MarshalJSON()
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// scanApproval reads what approvalText wrote.
func scanApproval(b []byte) (*history.Approval, error) {
	if b == nil {
		return nil, nil
	}
	var a history.Approval
	if err := a.UnmarshalJSON(b); err != nil {
		return nil, fmt.Errorf("approval: %w", err)
	}
	return &a, nil
}

func jsonText(b []byte) any {
	if b = norm.JSON(b); b == nil {
		return nil
	}
	return string(b)
}

func textPtr(p *string) any {
	if p == nil {
		return nil
	}
	return norm.Text(*p)
}

func floatPtr(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func millisPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return norm.Time(*t).UnixMilli()
}

// scan reads one row of columns.
func scan(row interface{ Scan(...any) error }) (*history.Record, error) {
	var (
		r         history.Record
		status    string
		created   int64
		completed sql.NullInt64
		deadline  sql.NullInt64
		in, res   []byte // database/sql scans into []byte, not json.RawMessage
		approval  []byte
	)
	err := row.Scan(&r.ID, &r.Tool, &r.Surface, &in, &res, &r.Error, &status,
		&r.DurationMS, &created, &completed, &r.CorrelationID, &r.Caller, &deadline, &approval)
	if err != nil {
		return nil, err
	}
	if r.Approval, err = scanApproval(approval); err != nil {
		return nil, err
	}
	r.Input, r.Result = in, res
	r.Status = history.Status(status)
	r.CreatedAt = time.UnixMilli(created).UTC()
	if completed.Valid {
		t := time.UnixMilli(completed.Int64).UTC()
		r.CompletedAt = &t
	}
	if deadline.Valid {
		t := time.UnixMilli(deadline.Int64).UTC()
		r.Deadline = &t
	}
	return history.Effective(&r, time.Now()), nil
}

// Get returns the record with that id, or history.ErrNotFound.
func (s *Store) Get(ctx context.Context, id string) (*history.Record, error) {
	s.interrupt(ctx)
	r, err := scan(s.r.QueryRowContext(ctx, `SELECT `+columns+` FROM invocations WHERE id = ?`, norm.Text(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, history.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("history/sqlite: Get %q: %w", id, err)
	}
	return r, nil
}

// List returns a page of the records that match f, newest first, and how
// many match in all, both read in one transaction so that they agree.
func (s *Store) List(ctx context.Context, f history.Filter) ([]history.Record, int, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, 0, err
	}
	s.interrupt(ctx)
	cond, args := norm.Where(f.Tool, f.Status, f.CorrelationID, f.Surface, f.Caller, func(int) string { return "?" })
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: List: %w", err)
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM invocations`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: List: %w", err)
	}
	page := []history.Record{}
	if f.Offset >= total {
		return page, total, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+columns+` FROM invocations`+cond+
		` ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: List: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scan(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("history/sqlite: List: %w", err)
		}
		page = append(page, *r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: List: %w", err)
	}
	return page, total, nil
}

// retain applies the retention bounds, in batches (see retentionBatch).
func (s *Store) retain(ctx context.Context) {
	if err := s.retainErr(ctx); err != nil && ctx.Err() == nil {
		// Nobody waits on the background loop to return an error to;
		// the next pass tries again.
		slog.WarnContext(ctx, "history/sqlite: retention", "path", s.path, "err", err)
	}
}

// retainErr bounds the invocations, then the human requests (each table
// on its own: MaxRows of each), whose responses go with them.
func (s *Store) retainErr(ctx context.Context) error {
	for _, table := range []string{"invocations", "human_requests"} {
		if err := s.retainTable(ctx, table); err != nil {
			return fmt.Errorf("%s: %w", table, err)
		}
	}
	return nil
}

func (s *Store) retainTable(ctx context.Context, table string) error {
	if s.ret.MaxAge > 0 {
		cut := time.Now().Add(-s.ret.MaxAge).UnixMilli()
		if err := s.deleteBatches(ctx, table, `created_at < ?`, cut); err != nil {
			return fmt.Errorf("by age: %w", err)
		}
	}
	if s.ret.MaxRows > 0 {
		// The newest row past MaxRows, and all older, go.
		var at, seq int64
		err := s.w.QueryRowContext(ctx, `SELECT created_at, seq FROM `+table+`
			ORDER BY created_at DESC, seq DESC LIMIT 1 OFFSET ?`, s.ret.MaxRows).Scan(&at, &seq)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("by count: %w", err)
		}
		if err := s.deleteBatches(ctx, table, `(created_at, seq) <= (?, ?)`, at, seq); err != nil {
			return fmt.Errorf("by count: %w", err)
		}
	}
	return nil
}

// deleteBatches deletes the rows of table that match cond, oldest first,
// a batch per statement (each its own transaction) until none is left.
func (s *Store) deleteBatches(ctx context.Context, table, cond string, args ...any) error {
	q := `DELETE FROM ` + table + ` WHERE seq IN (SELECT seq FROM ` + table + ` WHERE ` + cond +
		` ORDER BY created_at, seq LIMIT ` + fmt.Sprint(retentionBatch) + `)`
	for {
		res, err := s.w.ExecContext(ctx, q, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n < retentionBatch {
			return nil
		}
	}
}

// Ping checks that the file can be read.
//
// Reaching a file is not enough for an audit log that must be written: it
// also writes one row (a small commit to the WAL), so that a file made
// read-only or a full disk reads as unhealthy, and healthy again once it
// can be written.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("history/sqlite: %w", err)
	}
	err := retryBusy(ctx, func() error {
		_, err := s.w.ExecContext(ctx, `INSERT INTO health (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`, time.Now().UnixMilli())
		return err
	})
	if err != nil {
		return fmt.Errorf("history/sqlite: the file cannot be written: %w", err)
	}
	return nil
}

// String names the store, for /health.
func (s *Store) String() string { return "sqlite" }

// Close stops retention (cancelling a pass under way) and closes the file.
// When the last connection to it closes, SQLite checkpoints the WAL into
// the file and removes it.
func (s *Store) Close() error {
	s.once.Do(func() {
		close(s.stop)
		s.cancel()
		s.wg.Wait()
		s.err = errors.Join(s.start.Close(), s.finish.Close(), s.r.Close(), s.w.Close())
		if s.err != nil {
			s.err = fmt.Errorf("history/sqlite: %w", s.err)
		}
	})
	return s.err
}
