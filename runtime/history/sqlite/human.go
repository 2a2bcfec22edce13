package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// Human requests (history.Humans), in the tables human_requests and
// human_responses of migration 4. Writes go through the writer connection
// like the invocations' (Respond in one transaction), reads through the
// readers. A pending request past expires_at reads as expired: the
// filters work that out in SQL, at one reading of the clock per call
// (Unix milliseconds, as the times are kept), which the rows read are then
// given too (history.EffectiveRequest), so that a page and its total agree.

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
	var options any
	if c.Options != nil {
		b, err := json.Marshal(c.Options)
		if err != nil {
			return fmt.Errorf("history/sqlite: CreateRequest %q: %w", c.ID, err)
		}
		options = string(b)
	}
	res, err := s.w.ExecContext(ctx, `INSERT INTO human_requests (id, request_type, prompt, options, context,
		timeout_seconds, status, created_at, expires_at, correlation_id, caller, tool)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		c.ID, c.Type, c.Prompt, options, string(c.Context), c.TimeoutSeconds, string(c.Status),
		c.CreatedAt.UnixMilli(), c.ExpiresAt.UnixMilli(), textPtr(c.CorrelationID), textPtr(c.Caller), c.Tool)
	if err != nil {
		return fmt.Errorf("history/sqlite: CreateRequest %q: %w", c.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("history/sqlite: CreateRequest %q: %w", c.ID, err)
	} else if n == 0 {
		return history.RequestExists(c.ID)
	}
	return nil
}

// now is the current time as the store compares it with expires_at.
func now() time.Time { return norm.Time(time.Now()) }

// scanRequest reads requestColumns, and then the columns in more, as the
// request reads at now.
func scanRequest(row interface{ Scan(...any) error }, at time.Time, more ...any) (*history.Request, error) {
	var (
		r                history.Request
		options          sql.NullString
		ctxJSON          []byte
		status           string
		created, expires int64
	)
	err := row.Scan(append([]any{&r.ID, &r.Type, &r.Prompt, &options, &ctxJSON, &r.TimeoutSeconds, &status,
		&created, &expires, &r.CorrelationID, &r.Caller, &r.Tool}, more...)...)
	if err != nil {
		return nil, err
	}
	if options.Valid {
		if err := json.Unmarshal([]byte(options.String), &r.Options); err != nil {
			return nil, fmt.Errorf("options of %q: %w", r.ID, err)
		}
	}
	r.Context = ctxJSON
	r.Status = history.RequestStatus(status)
	r.CreatedAt, r.ExpiresAt = time.UnixMilli(created).UTC(), time.UnixMilli(expires).UTC()
	return history.EffectiveRequest(&r, at), nil
}

// GetRequest returns a request and its response (nil while it has none),
// or history.ErrRequestNotFound.
func (s *Store) GetRequest(ctx context.Context, id string) (*history.Request, *history.Response, error) {
	var (
		respID, resp, metadata sql.NullString
		by                     *string
		respAt                 sql.NullInt64
	)
	row := s.r.QueryRowContext(ctx, `SELECT `+requestColumns+`,
		p.id, p.response, p.responded_by, p.response_metadata, p.created_at
		FROM human_requests q LEFT JOIN human_responses p ON p.request_id = q.id WHERE q.id = ?`, norm.Text(id))
	r, err := scanRequest(row, now(), &respID, &resp, &by, &metadata, &respAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, history.ErrRequestNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("history/sqlite: GetRequest %q: %w", id, err)
	}
	if !respID.Valid {
		return r, nil, nil
	}
	return r, &history.Response{
		ID: respID.String, RequestID: r.ID, Response: resp.String, RespondedBy: by,
		Metadata: json.RawMessage(metadata.String), CreatedAt: time.UnixMilli(respAt.Int64).UTC(),
	}, nil
}

// ListRequests returns a page of the requests that match f, newest first,
// and how many match in all, both read in one transaction so that they
// agree.
func (s *Store) ListRequests(ctx context.Context, f history.RequestFilter) ([]history.Request, int, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, 0, err
	}
	at := now()
	cond, args := requestWhere(f, at)
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: ListRequests: %w", err)
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM human_requests`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: ListRequests: %w", err)
	}
	page := []history.Request{}
	if f.Offset >= total {
		return page, total, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+requestColumns+` FROM human_requests q`+cond+
		` ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: ListRequests: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanRequest(rows, at)
		if err != nil {
			return nil, 0, fmt.Errorf("history/sqlite: ListRequests: %w", err)
		}
		page = append(page, *r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("history/sqlite: ListRequests: %w", err)
	}
	return page, total, nil
}

// requestWhere is the condition of f's filters, read at at.
func requestWhere(f history.RequestFilter, at time.Time) (string, []any) {
	return norm.RequestWhere(f.Status, f.Type, f.Caller, at.UnixMilli(), func(int) string { return "?" })
}

// Respond records the answer to a pending request in one transaction: the
// request becomes responded only while it is pending and unexpired, and the
// response is written only when it did. Of answers at once, the first to
// take the write lock wins; the others find the request responded.
func (s *Store) Respond(ctx context.Context, r *history.Response) error {
	c, err := history.CheckResponse(r)
	if err != nil {
		return err
	}
	at := now()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("history/sqlite: Respond to %q: %w", c.RequestID, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE human_requests SET status = 'responded'
		WHERE id = ? AND status = 'pending' AND expires_at > ?`, c.RequestID, at.UnixMilli())
	if err != nil {
		return fmt.Errorf("history/sqlite: Respond to %q: %w", c.RequestID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("history/sqlite: Respond to %q: %w", c.RequestID, err)
	}
	if n == 0 {
		return unanswerable(ctx, tx, c.RequestID, at)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO human_responses (id, request_id, response, responded_by, response_metadata, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`,
		c.ID, c.RequestID, c.Response, textPtr(c.RespondedBy), string(c.Metadata), c.CreatedAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("history/sqlite: Respond to %q: %w", c.RequestID, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("history/sqlite: Respond to %q: %w", c.RequestID, err)
	}
	return nil
}

// unanswerable is why Respond's update changed nothing: the request is
// unknown, or it reads at at as no longer pending.
func unanswerable(ctx context.Context, tx *sql.Tx, id string, at time.Time) error {
	var status string
	var expires int64
	err := tx.QueryRowContext(ctx, `SELECT status, expires_at FROM human_requests WHERE id = ?`, id).Scan(&status, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return history.ErrRequestNotFound
	}
	if err != nil {
		return fmt.Errorf("history/sqlite: Respond to %q: %w", id, err)
	}
	r := history.Request{Status: history.RequestStatus(status), ExpiresAt: time.UnixMilli(expires).UTC()}
	if err := history.Answerable(history.EffectiveRequest(&r, at).Status); err != nil {
		return err
	}
	// The transaction holds the write lock: nothing changed the request
	// between the update and this read.
	return fmt.Errorf("history/sqlite: Respond to %q: the request is pending, yet was not updated", id)
}

// CancelRequest withdraws a pending, unexpired request; one no longer
// pending is left as it is.
func (s *Store) CancelRequest(ctx context.Context, id string) error {
	id = norm.Text(id)
	res, err := s.w.ExecContext(ctx, `UPDATE human_requests SET status = 'cancelled'
		WHERE id = ? AND status = 'pending' AND expires_at > ?`, id, now().UnixMilli())
	if err != nil {
		return fmt.Errorf("history/sqlite: CancelRequest %q: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("history/sqlite: CancelRequest %q: %w", id, err)
	}
	if n > 0 {
		return nil
	}
	var exists bool
	if err := s.w.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM human_requests WHERE id = ?)`, id).Scan(&exists); err != nil {
		return fmt.Errorf("history/sqlite: CancelRequest %q: %w", id, err)
	}
	if !exists {
		return history.ErrRequestNotFound
	}
	return nil
}
