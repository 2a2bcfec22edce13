// Package postgres is a [history.Store] in PostgreSQL, on
// github.com/jackc/pgx/v5: the store that several replicas of a server
// share. Importing it registers the "postgres" DSN scheme, so that
// history.Open (and serve's -history flag) opens "postgres://..." and
// "postgresql://..." URLs; only a program that imports this package links
// the driver.
//
// Each Start and Finish is one statement in its own transaction, and
// returns once PostgreSQL has committed it, so a record whose response
// was sent survives a crash of the server process (and, with the server's
// default synchronous_commit=on, of the database's machine too).
//
// The tables live in the first schema of the connection's search_path,
// which a DSN may set ("postgres://host/db?search_path=toolgen"); Open
// creates that schema when it is missing. The schema is migrated on open,
// under an advisory lock, so replicas starting together migrate it once.
//
// The store also keeps human requests and their answers
// ([history.Humans]), in two tables beside the invocations, which every
// replica sharing the database sees.
//
// The guide to running replicas on it behind a load balancer is
// https://github.com/toolgen-go/toolgen/blob/main/docs/deploy.md.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

func init() {
	history.Register("postgres", func(ctx context.Context, dsn string, r history.Retention) (history.Store, error) {
		s, err := Open(ctx, dsn, r)
		if err != nil {
			return nil, err // not a nil *Store in a non-nil interface
		}
		return s, nil
	})
}

// retentionBatch is how many rows one retention DELETE removes: short
// transactions, so that retention never holds many row locks or bloats one
// transaction on a large table.
const retentionBatch = 1000

// Store is a [history.Store] in PostgreSQL. Open makes one.
type Store struct {
	pool   *pgxpool.Pool
	ret    history.Retention
	stop   chan struct{}
	cancel context.CancelFunc // cancels a retention pass under way at Close
	wg     sync.WaitGroup
	once   sync.Once
	bus    bus // LISTEN/NOTIFY (bus.go)
}

var _ history.Store = (*Store)(nil)

// Open connects to the database a PostgreSQL URL or keyword/value DSN
// names (pgx's syntax: pool_max_conns and the other pool settings are
// read from it too) and migrates the schema. r bounds what is kept; a
// goroutine applies it every r.Interval until Close, skipping a pass when
// another replica is running one.
func Open(ctx context.Context, dsn string, r history.Retention) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's error shows the DSN with its password masked.
		return nil, fmt.Errorf("history/postgres: %w", err)
	}
	return OpenConfig(ctx, cfg, r)
}

// OpenConfig is Open for a pool configuration the caller built or changed
// (TLS, hooks, a search_path in ConnConfig.RuntimeParams). The store owns
// the pool it makes; cfg is not changed.
func OpenConfig(ctx context.Context, cfg *pgxpool.Config, r history.Retention) (*Store, error) {
	pool, err := pgxpool.NewWithConfig(ctx, cfg.Copy())
	if err != nil {
		return nil, fmt.Errorf("history/postgres: %w", err)
	}
	// The pool connects lazily: connect now, so that a wrong address or
	// password is reported as such, and at Open.
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("history/postgres: %w", err)
	}
	if err := migrate(ctx, pool, firstSchema(cfg.ConnConfig.RuntimeParams["search_path"]), migrations); err != nil {
		pool.Close()
		return nil, fmt.Errorf("history/postgres: schema: %w", err)
	}
	rctx, cancel := context.WithCancel(context.Background())
	s := &Store{pool: pool, ret: r, stop: make(chan struct{}), cancel: cancel}
	s.wg.Go(func() { r.Every(s.stop, func() { s.retain(rctx) }) })
	// The rate-limit buckets are swept whatever the records' retention.
	s.wg.Go(func() {
		history.Retention{MaxAge: time.Hour, Interval: time.Hour}.Every(s.stop, func() {
			if err := s.retainRates(rctx); err != nil && rctx.Err() == nil {
				slog.Default().Warn("history/postgres: sweeping the rate limits failed", "err", err)
			}
		})
	})
	return s, nil
}

const columns = `id, tool, surface, input, result, error, status, duration_ms, created_at, completed_at, correlation_id, caller, deadline, approval`

const insert = `INSERT INTO toolgen_invocations (` + columns + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) `

// interrupt marks interrupted the pending records past their deadline, so
// that every replica reads them alike. It runs before each read; a store
// that refuses writes is read as it is.
func (s *Store) interrupt(ctx context.Context) {
	_, _ = s.pool.Exec(ctx, `UPDATE toolgen_invocations SET status = 'failed', error = $1 WHERE status = 'pending' AND deadline < now()`,
		history.Interrupted)
}

// Start records a pending invocation; an id already recorded is an error.
func (s *Store) Start(ctx context.Context, r *history.Record) error {
	status, err := norm.StartStatus(r.ID, string(r.Status))
	if err != nil {
		return err
	}
	a, err := args(r, status)
	if err != nil {
		return fmt.Errorf("history/postgres: Start %q: %w", r.ID, err)
	}
	tag, err := s.pool.Exec(ctx, insert+`DO NOTHING`, a...)
	if err != nil {
		return fmt.Errorf("history/postgres: Start %q: %w", r.ID, err)
	}
	if tag.RowsAffected() == 0 {
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
		return fmt.Errorf("history/postgres: Finish %q: %w", r.ID, err)
	}
	_, err = s.pool.Exec(ctx, insert+`DO UPDATE SET
		status = excluded.status, result = excluded.result, error = excluded.error,
		duration_ms = excluded.duration_ms, completed_at = excluded.completed_at,
		approval = excluded.approval`, a...)
	if err != nil {
		return fmt.Errorf("history/postgres: Finish %q: %w", r.ID, err)
	}
	return nil
}

// args are r's columns, normalised, in the order of columns.
func args(r *history.Record, status string) ([]any, error) {
	approval, err := approvalText(r.Approval)
	if err != nil {
		return nil, err
	}
	return []any{
		norm.Text(r.ID), norm.Text(r.Tool), norm.Text(r.Surface),
		jsonText(r.Input), jsonText(r.Result), norm.TextPtr(r.Error), status,
		r.DurationMS, norm.Time(r.CreatedAt), norm.TimePtr(r.CompletedAt),
		norm.TextPtr(r.CorrelationID), norm.TextPtr(r.Caller), norm.TimePtr(r.Deadline), approval,
	}, nil
}

// approvalText is an approval as the JSON text the approval column keeps,
// or nil for none.
func approvalText(a *history.Approval) (*string, error) {
	if a == nil {
		return nil, nil
	}
	b, err := history.CleanApproval(a).MarshalJSON()
	if err != nil {
		return nil, err
	}
	t := string(b)
	return &t, nil
}

// scanApproval reads what approvalText wrote.
func scanApproval(t *string) (*history.Approval, error) {
	if t == nil {
		return nil, nil
	}
	var a history.Approval
	if err := a.UnmarshalJSON([]byte(*t)); err != nil {
		return nil, fmt.Errorf("approval: %w", err)
	}
	return &a, nil
}

// jsonText is JSON as a *string, so that pgx sends text (a []byte would
// be bytea) and nil as NULL.
func jsonText(b []byte) *string {
	if b = norm.JSON(b); b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// scan reads one row of columns.
func scan(row pgx.Row) (*history.Record, error) {
	var (
		r                 history.Record
		in, res           *string
		status            string
		created           time.Time
		completed         *time.Time
		deadline          *time.Time
		errMsg, corr, who *string
		approval          *string
	)
	err := row.Scan(&r.ID, &r.Tool, &r.Surface, &in, &res, &errMsg, &status,
		&r.DurationMS, &created, &completed, &corr, &who, &deadline, &approval)
	if err != nil {
		return nil, err
	}
	if r.Approval, err = scanApproval(approval); err != nil {
		return nil, err
	}
	if in != nil {
		r.Input = []byte(*in)
	}
	if res != nil {
		r.Result = []byte(*res)
	}
	r.Error, r.CorrelationID, r.Caller = errMsg, corr, who
	r.Status = history.Status(status)
	// pgx gives timestamptz in the local zone.
	r.CreatedAt = created.UTC()
	if completed != nil {
		c := completed.UTC()
		r.CompletedAt = &c
	}
	if deadline != nil {
		d := deadline.UTC()
		r.Deadline = &d
	}
	return history.Effective(&r, time.Now()), nil
}

// Get returns the record with that id, or history.ErrNotFound.
func (s *Store) Get(ctx context.Context, id string) (*history.Record, error) {
	s.interrupt(ctx)
	r, err := scan(s.pool.QueryRow(ctx, `SELECT `+columns+` FROM toolgen_invocations WHERE id = $1`, norm.Text(id)))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, history.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("history/postgres: Get %q: %w", id, err)
	}
	return r, nil
}

// List returns a page of the records that match f, newest first, and how
// many match in all, both read from one snapshot so that they agree.
func (s *Store) List(ctx context.Context, f history.Filter) ([]history.Record, int, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, 0, err
	}
	s.interrupt(ctx)
	cond, args := norm.Where(f.Tool, f.Status, f.CorrelationID, f.Surface, f.Caller, func(n int) string { return "$" + strconv.Itoa(n) })
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, 0, fmt.Errorf("history/postgres: List: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var total int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM toolgen_invocations`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("history/postgres: List: %w", err)
	}
	page := []history.Record{}
	if f.Offset >= total {
		return page, total, nil
	}
	n := len(args)
	rows, err := tx.Query(ctx, `SELECT `+columns+` FROM toolgen_invocations`+cond+
		` ORDER BY created_at DESC, seq DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2),
		append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("history/postgres: List: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scan(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("history/postgres: List: %w", err)
		}
		page = append(page, *r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("history/postgres: List: %w", err)
	}
	return page, total, nil
}

// retain applies the retention bounds.
func (s *Store) retain(ctx context.Context) {
	if err := s.retainErr(ctx); err != nil && ctx.Err() == nil {
		// Nobody waits on the background loop to return an error to;
		// the next pass tries again.
		slog.WarnContext(ctx, "history/postgres: retention", "err", err)
	}
}

// retainErr bounds the invocations, then the human requests (each table
// on its own: MaxRows of each), whose responses go with them. key is the
// column a batch's rows are deleted by.
func (s *Store) retainErr(ctx context.Context) error {
	for _, t := range []struct{ table, key string }{
		{"toolgen_invocations", "seq"},
		{"toolgen_human_requests", "id"},
	} {
		if err := s.retainTable(ctx, t.table, t.key); err != nil {
			return fmt.Errorf("%s: %w", t.table, err)
		}
	}
	return nil
}

func (s *Store) retainTable(ctx context.Context, table, key string) error {
	if s.ret.MaxAge > 0 {
		cut := time.Now().Add(-s.ret.MaxAge)
		if err := s.deleteBatches(ctx, table, key, `created_at < $1`, cut); err != nil {
			return fmt.Errorf("by age: %w", err)
		}
	}
	if s.ret.MaxRows > 0 {
		// The newest row past MaxRows, and all older, go.
		var at time.Time
		var seq int64
		err := s.pool.QueryRow(ctx, `SELECT created_at, seq FROM `+table+`
			ORDER BY created_at DESC, seq DESC OFFSET $1 LIMIT 1`, s.ret.MaxRows).Scan(&at, &seq)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("by count: %w", err)
		}
		if err := s.deleteBatches(ctx, table, key, `(created_at, seq) <= ($1, $2)`, at, seq); err != nil {
			return fmt.Errorf("by count: %w", err)
		}
	}
	return nil
}

// deleteBatches deletes the rows of table that match cond, oldest first,
// a batch per transaction, until none is left. Each transaction first
// takes a per-schema advisory lock, without waiting: when another replica
// holds it, that replica is doing the same work, and this pass stops.
func (s *Store) deleteBatches(ctx context.Context, table, key, cond string, args ...any) error {
	q := `DELETE FROM ` + table + ` WHERE ` + key + ` IN (SELECT ` + key + ` FROM ` + table + ` WHERE ` + cond +
		` ORDER BY created_at, seq LIMIT ` + strconv.Itoa(retentionBatch) + `)`
	for {
		var n int64
		var locked bool
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtext('toolgen_history_retention:' || current_schema()))`).Scan(&locked)
			if err != nil || !locked {
				return err
			}
			tag, err := tx.Exec(ctx, q, args...)
			n = tag.RowsAffected()
			return err
		})
		if err != nil || !locked || n < retentionBatch {
			return err
		}
	}
}

// Ping checks that the database answers.
// String names the store, for /health.
func (s *Store) String() string { return "postgres" }

// Ping reports whether PostgreSQL answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("history/postgres: %w", err)
	}
	return nil
}

// Close stops retention (cancelling a pass under way) and closes the pool,
// waiting for connections in use to be returned.
func (s *Store) Close() error {
	s.once.Do(func() {
		close(s.stop)
		s.cancel()
		s.wg.Wait()
		s.pool.Close()
	})
	return nil
}
