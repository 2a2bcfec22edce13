package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// Human requests (history.Humans), in the tables toolgen_human_requests
// and toolgen_human_responses of migration 4. A pending request past
// expires_at reads as expired: the filters work that out in SQL, at one
// reading of this process's clock per call (passed as a parameter: a
// request's expiry comes from the clock of the replica that made it, not
// from the database's), which the rows read are then given too
// (history.EffectiveRequest), so that a page and its total agree.

var _ history.Humans = (*Store)(nil)

const requestColumns = `q.id, q.request_type, q.prompt, q.options, q.context, q.timeout_seconds, q.status,
	q.created_at, q.expires_at, q.correlation_id, q.caller, q.tool`

// CreateRequest records a pending request; an id already used is an error
// wrapping history.ErrExists.
func (s *Store) CreateRequest(ctx context.Context, r *history.Request) error {
	c, err := history.CheckRequest(r)
	if err != nil {
		return err
	}
	var options *string
	if c.Options != nil {
		b, err := json.Marshal(c.Options)
		if err != nil {
			return fmt.Errorf("history/postgres: CreateRequest %q: %w", c.ID, err)
		}
		o := string(b)
		options = &o
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO toolgen_human_requests (id, request_type, prompt, options, context,
		timeout_seconds, status, created_at, expires_at, correlation_id, caller, tool)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING`,
		c.ID, c.Type, c.Prompt, options, string(c.Context), int64(c.TimeoutSeconds), string(c.Status),
		c.CreatedAt, c.ExpiresAt, c.CorrelationID, c.Caller, c.Tool)
	if err != nil {
		return fmt.Errorf("history/postgres: CreateRequest %q: %w", c.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return history.RequestExists(c.ID)
	}
	return nil
}

// now is the current time as the store compares it with expires_at.
func now() time.Time { return norm.Time(time.Now()) }

// scanRequest reads requestColumns, and then the columns in more, as the
// request reads at at.
func scanRequest(row pgx.Row, at time.Time, more ...any) (*history.Request, error) {
	var (
		r                history.Request
		options          *string
		ctxJSON, status  string
		created, expires time.Time
	)
	err := row.Scan(append([]any{&r.ID, &r.Type, &r.Prompt, &options, &ctxJSON, &r.TimeoutSeconds, &status,
		&created, &expires, &r.CorrelationID, &r.Caller, &r.Tool}, more...)...)
	if err != nil {
		return nil, err
	}
	if options != nil {
		if err := json.Unmarshal([]byte(*options), &r.Options); err != nil {
			return nil, fmt.Errorf("options of %q: %w", r.ID, err)
		}
	}
	r.Context = json.RawMessage(ctxJSON)
	r.Status = history.RequestStatus(status)
	// pgx gives timestamptz in the local zone.
	r.CreatedAt, r.ExpiresAt = created.UTC(), expires.UTC()
	return history.EffectiveRequest(&r, at), nil
}

// GetRequest returns a request and its response (nil while it has none),
// or history.ErrRequestNotFound.
func (s *Store) GetRequest(ctx context.Context, id string) (*history.Request, *history.Response, error) {
	var (
		respID, resp, by, metadata *string
		respAt                     *time.Time
	)
	row := s.pool.QueryRow(ctx, `SELECT `+requestColumns+`,
		p.id, p.response, p.responded_by, p.response_metadata, p.created_at
		FROM toolgen_human_requests q LEFT JOIN toolgen_human_responses p ON p.request_id = q.id WHERE q.id = $1`, norm.Text(id))
	r, err := scanRequest(row, now(), &respID, &resp, &by, &metadata, &respAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, history.ErrRequestNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("history/postgres: GetRequest %q: %w", id, err)
	}
	if respID == nil || resp == nil || metadata == nil || respAt == nil {
		return r, nil, nil
	}
	return r, &history.Response{
		ID: *respID, RequestID: r.ID, Response: *resp, RespondedBy: by,
		Metadata: json.RawMessage(*metadata), CreatedAt: respAt.UTC(),
	}, nil
}

// requestWhere is the condition of f's filters, read at at.
func requestWhere(f history.RequestFilter, at time.Time) (string, []any) {
	return norm.RequestWhere(f.Status, f.Type, f.Caller, at, func(n int) string { return "$" + strconv.Itoa(n) })
}

// ListRequests returns a page of the requests that match f, newest first,
// and how many match in all, both read from one snapshot so that they
// agree.
func (s *Store) ListRequests(ctx context.Context, f history.RequestFilter) ([]history.Request, int, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, 0, err
	}
	at := now()
	cond, args := requestWhere(f, at)
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, 0, fmt.Errorf("history/postgres: ListRequests: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var total int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM toolgen_human_requests`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("history/postgres: ListRequests: %w", err)
	}
	page := []history.Request{}
	if f.Offset >= total {
		return page, total, nil
	}
	n := len(args)
	rows, err := tx.Query(ctx, `SELECT `+requestColumns+` FROM toolgen_human_requests q`+cond+
		` ORDER BY created_at DESC, seq DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2),
		append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("history/postgres: ListRequests: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanRequest(rows, at)
		if err != nil {
			return nil, 0, fmt.Errorf("history/postgres: ListRequests: %w", err)
		}
		page = append(page, *r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("history/postgres: ListRequests: %w", err)
	}
	return page, total, nil
}

// Respond records the answer to a pending request in one transaction: the
// request becomes responded only while it is pending and unexpired, and
// the response is written only when it did. Of answers at once, the first
// update takes the row's lock; the others wait for it, then find the
// request no longer pending.
func (s *Store) Respond(ctx context.Context, r *history.Response) error {
	c, err := history.CheckResponse(r)
	if err != nil {
		return err
	}
	at := now()
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE toolgen_human_requests SET status = 'responded'
			WHERE id = $1 AND status = 'pending' AND expires_at > $2`, c.RequestID, at)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return unanswerable(ctx, tx, c.RequestID, at)
		}
		_, err = tx.Exec(ctx, `INSERT INTO toolgen_human_responses (id, request_id, response, responded_by, response_metadata, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`,
			c.ID, c.RequestID, c.Response, c.RespondedBy, string(c.Metadata), c.CreatedAt)
		return err
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, history.ErrRequestNotFound), errors.Is(err, history.ErrResponded),
		errors.Is(err, history.ErrExpired), errors.Is(err, history.ErrCancelled):
		return err
	}
	return fmt.Errorf("history/postgres: Respond to %q: %w", c.RequestID, err)
}

// unanswerable is why Respond's update changed nothing: the request is
// unknown, or it reads at at as no longer pending. Read committed, the
// read sees the answer that won, once its transaction committed.
func unanswerable(ctx context.Context, tx pgx.Tx, id string, at time.Time) error {
	var status string
	var expires time.Time
	err := tx.QueryRow(ctx, `SELECT status, expires_at FROM toolgen_human_requests WHERE id = $1`, id).Scan(&status, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return history.ErrRequestNotFound
	}
	if err != nil {
		return err
	}
	r := history.Request{Status: history.RequestStatus(status), ExpiresAt: expires.UTC()}
	if err := history.Answerable(history.EffectiveRequest(&r, at).Status); err != nil {
		return err
	}
	// Pending here, yet not updated: created by another transaction
	// between the update and this read.
	return fmt.Errorf("the request %q is pending, yet was not updated", id)
}

// CancelRequest withdraws a pending, unexpired request; one no longer
// pending is left as it is.
func (s *Store) CancelRequest(ctx context.Context, id string) error {
	id = norm.Text(id)
	tag, err := s.pool.Exec(ctx, `UPDATE toolgen_human_requests SET status = 'cancelled'
		WHERE id = $1 AND status = 'pending' AND expires_at > $2`, id, now())
	if err != nil {
		return fmt.Errorf("history/postgres: CancelRequest %q: %w", id, err)
	}
	if tag.RowsAffected() > 0 {
		return nil
	}
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM toolgen_human_requests WHERE id = $1)`, id).Scan(&exists); err != nil {
		return fmt.Errorf("history/postgres: CancelRequest %q: %w", id, err)
	}
	if !exists {
		return history.ErrRequestNotFound
	}
	return nil
}
