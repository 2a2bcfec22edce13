// Package history is invocation history: every tool call on every surface
// of a server, recorded for audit and queried through /v1/invocations.
// A [Store] keeps the records: [NewMemory] (bounded, the default),
// runtime/history/sqlite (an embedded file) and runtime/history/postgres
// (shared by several replicas). Each store package registers its DSN
// scheme with [Register], so that [Open] (and serve's -history flag) can
// open it, and only a server that imports a store's package links its
// driver.
//
// The guide to the /v1 API, the stores, retention and replicas is
// https://github.com/toolgen-go/toolgen/blob/main/docs/v1-and-history.md.
package history

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// Status is where an invocation is.
type Status string

const (
	Pending Status = "pending" // recorded before the handler runs
	Success Status = "success" // the tool ran and answered without an error
	Failed  Status = "failed"  // the call did not succeed: the record's Error says why
)

// Record is one invocation. Times are UTC, to the millisecond.
type Record struct {
	ID            string          `json:"id"` // a UUID
	Tool          string          `json:"tool_name"`
	Surface       string          `json:"surface"` // "explorer", "mcp", "oxp", "v1", or "" for a direct call
	Input         json.RawMessage `json:"input_params"`
	Result        json.RawMessage `json:"result"` // null when none
	Error         *string         `json:"error"`
	Status        Status          `json:"status"`
	DurationMS    *float64        `json:"duration_ms"` // nil while pending
	CreatedAt     time.Time       `json:"created_at"`
	CompletedAt   *time.Time      `json:"completed_at"`
	CorrelationID *string         `json:"correlation_id"`
	Caller        *string         `json:"caller"` // the auth hook's principal
	// Deadline is when a pending record stops waiting for its outcome:
	// past it, a record still pending (its process crashed, or lost its
	// store) reads as Failed with the error "interrupted", from every
	// store and replica. Nil: it waits for ever. Not part of the JSON.
	Deadline *time.Time `json:"-"`
	// Approval is how the call was approved or refused, for a tool that
	// needs approval (set by Finish); nil for any other.
	Approval *Approval `json:"approval,omitempty"`
}

// Interrupted is the error of a record whose outcome never came: still
// pending past its deadline.
const Interrupted = "interrupted"

// Effective is r as it reads at now: a pending record past its deadline
// is Failed, "interrupted" (a copy; r itself otherwise).
func Effective(r *Record, now time.Time) *Record {
	if r.Status != Pending || r.Deadline == nil || !now.After(*r.Deadline) {
		return r
	}
	c := *r
	c.Status = Failed
	msg := Interrupted
	c.Error = &msg
	return &c
}

// TimeLayout is how a record's times are written in JSON: RFC 3339 in UTC
// with exactly three fractional digits, so that they sort as strings.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// MarshalJSON writes the record with its times in [TimeLayout], its
// fields in the order above.
func (r Record) MarshalJSON() ([]byte, error) {
	out := struct {
		ID            string          `json:"id"`
		Tool          string          `json:"tool_name"`
		Surface       string          `json:"surface"`
		Input         json.RawMessage `json:"input_params"`
		Result        json.RawMessage `json:"result"`
		Error         *string         `json:"error"`
		Status        Status          `json:"status"`
		DurationMS    *float64        `json:"duration_ms"`
		CreatedAt     stamp           `json:"created_at"`
		CompletedAt   *stamp          `json:"completed_at"`
		CorrelationID *string         `json:"correlation_id"`
		Caller        *string         `json:"caller"`
		Approval      *Approval       `json:"approval,omitempty"`
	}{r.ID, r.Tool, r.Surface, r.Input, r.Result, r.Error, r.Status, r.DurationMS, stamp(r.CreatedAt), nil, r.CorrelationID, r.Caller, r.Approval}
	if r.CompletedAt != nil {
		c := stamp(*r.CompletedAt)
		out.CompletedAt = &c
	}
	return marshalNoEscape(out)
}

// marshalNoEscape is json.Marshal without HTML escaping: an input or a
// result comes back as it was written, < and > included (an encoder that
// escapes still does).
func marshalNoEscape(out any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// stamp is a time written in TimeLayout.
type stamp time.Time

func (t stamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format(TimeLayout) + `"`), nil
}

// Filter selects records for [Store.List]; empty fields match all. Records
// come newest first by CreatedAt; among records created in the same
// millisecond, the one started last comes first.
type Filter struct {
	Tool, Status, CorrelationID, Surface string
	// Caller, when set, keeps the records of that caller alone (the
	// principal's subject): how a server scopes each caller's reads to its
	// own invocations. A record without a caller never matches one.
	Caller *string
	// Limit is at most MaxLimit; zero means DefaultLimit.
	Limit, Offset int
}

// Limits of a page of records.
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// ErrNotFound is returned by [Store.Get] for an unknown id.
var ErrNotFound = errors.New("history: no such invocation")

// ErrExists is wrapped by the error of [Store.Start] for an id already
// recorded: in a store shared by replicas it is how a second call with the
// same idempotency key learns that the first one was made.
var ErrExists = norm.ErrExists

// Store keeps invocation records. Its methods are safe for concurrent use.
// Start and Finish return once the record is durable, so that a record
// whose response was sent survives a crash of the process.
//
// Every store keeps records the same way, so that a record reads back
// identically from each (runtime/history/historytest holds them to it):
//   - Times come back in UTC, truncated to the millisecond, whatever
//     location and precision they were given in.
//   - Input and Result are kept byte for byte, not re-encoded; an empty one
//     is absent (nil). Optional fields keep nil apart from a pointer to "".
//   - Invalid UTF-8 and NUL bytes in strings and JSON are replaced by
//     U+FFFD (PostgreSQL's text can hold neither); filters and ids given to
//     List and Get are read the same way.
//   - A store keeps its own copy: the caller may reuse a Record it passed,
//     and change one it got, without changing the store. It does not
//     write into what it is given: Input and Result are the call's own
//     bytes, which the caller is answered with.
//   - A record still pending past its Deadline reads (Get, List and its
//     filters) as Failed with the error [Interrupted]; a Finish that comes
//     after all the same completes it.
//
// A database store abandons a write whose ctx is cancelled: to record a
// call whose client went away, pass a context that outlives the request
// (context.WithoutCancel, with a timeout of its own).
type Store interface {
	// Start records a pending invocation. The record needs an ID; its
	// Status must be empty or Pending. An ID already recorded is an error:
	// history is an audit trail, and a repeated id must not overwrite it.
	Start(ctx context.Context, r *Record) error
	// Finish completes a record: status (Success or Failed), result,
	// error, duration, completion time; the other fields keep what Start
	// recorded. A record never started is inserted whole.
	Finish(ctx context.Context, r *Record) error
	// Get returns one record, or ErrNotFound.
	Get(ctx context.Context, id string) (*Record, error)
	// List returns a page of the records that match f, newest first, and
	// how many match in all. A page past the end is empty, not nil. The
	// errors of f.Normalize are returned as they are.
	List(ctx context.Context, f Filter) (records []Record, total int, err error)
	// Ping reports whether the store can be reached.
	Ping(ctx context.Context) error
	// Close stops the store's background work and releases it. Closing
	// again does nothing.
	Close() error
}

// Retention bounds what a store keeps: records past MaxRows (the oldest
// first) or older than MaxAge are deleted in the background every
// Interval. Zero fields mean no bound; Interval defaults to a minute.
type Retention struct {
	MaxRows  int
	MaxAge   time.Duration
	Interval time.Duration
}

// Every runs f every r.Interval until stop is closed, when r bounds
// anything: the stores' retention loop.
func (r Retention) Every(stop <-chan struct{}, f func()) {
	if r.MaxRows <= 0 && r.MaxAge <= 0 {
		return
	}
	d := r.Interval
	if d <= 0 {
		d = time.Minute
	}
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			f()
		case <-stop:
			return
		}
	}
}

// Opener opens a store from a DSN.
type Opener func(ctx context.Context, dsn string, r Retention) (Store, error)

var (
	regMu   sync.Mutex
	openers = map[string]Opener{}
)

// Register makes a DSN scheme ("sqlite", "postgres") openable with Open.
// Store packages call it from init.
func Register(scheme string, open Opener) {
	regMu.Lock()
	defer regMu.Unlock()
	openers[scheme] = open
}

// Open opens the store a DSN names: "memory", "sqlite:PATH" (or a bare
// file path), "postgres://..." (or "postgresql://..."). A scheme whose
// package the program did not import is an error that says which to
// import.
func Open(ctx context.Context, dsn string, r Retention) (Store, error) {
	scheme, _, hasScheme := strings.Cut(dsn, ":")
	switch {
	case dsn == "memory":
		return NewMemory(r), nil
	case scheme == "postgresql":
		scheme = "postgres"
	case !hasScheme || len(scheme) == 1: // a path (C:\ on Windows)
		scheme = "sqlite"
	}
	regMu.Lock()
	open := openers[scheme]
	regMu.Unlock()
	if open == nil {
		return nil, fmt.Errorf("history: no store for %q: import github.com/toolgen-go/toolgen/runtime/history/%s", scheme+":", scheme)
	}
	return open(ctx, dsn, r)
}

// Normalize checks a filter and fills in its defaults: a Limit of 0 is
// DefaultLimit; one outside 1..MaxLimit, a negative Offset or an unknown
// Status is an error.
func (f Filter) Normalize() (Filter, error) {
	if err := page(&f.Limit, f.Offset); err != nil {
		return f, err
	}
	if f.Status != "" && f.Status != string(Pending) && f.Status != string(Success) && f.Status != string(Failed) {
		return f, fmt.Errorf("history: unknown status %q", f.Status)
	}
	return f, nil
}

// page checks a page's bounds, a limit of 0 becoming DefaultLimit.
func page(limit *int, offset int) error {
	if *limit == 0 {
		*limit = DefaultLimit
	}
	switch {
	case *limit < 1 || *limit > MaxLimit:
		return fmt.Errorf("history: limit %d is not between 1 and %d", *limit, MaxLimit)
	case offset < 0:
		return fmt.Errorf("history: offset %d is negative", offset)
	}
	return nil
}

// Matches reports whether r passes f's field filters.
func (f Filter) Matches(r *Record) bool {
	return (f.Tool == "" || r.Tool == f.Tool) &&
		(f.Status == "" || string(r.Status) == f.Status) &&
		(f.CorrelationID == "" || r.CorrelationID != nil && *r.CorrelationID == f.CorrelationID) &&
		(f.Surface == "" || r.Surface == f.Surface) &&
		(f.Caller == nil || r.Caller != nil && *r.Caller == *f.Caller)
}
