package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// Human requests: a question a workflow, or a tool's approval policy, asks
// a person, and the person's answer (qmcp's human-in-the-loop API, served
// at /v1/human). They live in the history store beside the invocations, so
// that they survive a restart and every replica sharing the store sees the
// same ones. A store keeps them when it implements [Humans], as the
// memory, SQLite and PostgreSQL stores do.

// RequestStatus is where a human request is.
type RequestStatus string

const (
	RequestPending   RequestStatus = "pending"   // waiting for an answer
	RequestResponded RequestStatus = "responded" // answered
	RequestExpired   RequestStatus = "expired"   // nobody answered before ExpiresAt
	RequestCancelled RequestStatus = "cancelled" // withdrawn by whoever asked
)

// Request is a question for a person. Times are UTC, to the millisecond.
type Request struct {
	ID     string `json:"id"`           // the asker's id; for a tool's approval, the invocation id
	Type   string `json:"request_type"` // "approval", "input", "review", ...
	Prompt string `json:"prompt"`
	// Options are the answers allowed; nil allows any.
	Options []string `json:"options"`
	// Context is a JSON object the person sees with the prompt.
	Context        json.RawMessage `json:"context"`
	TimeoutSeconds int             `json:"timeout_seconds"`
	Status         RequestStatus   `json:"status"`
	CreatedAt      time.Time       `json:"created_at"`
	ExpiresAt      time.Time       `json:"expires_at"`
	CorrelationID  *string         `json:"correlation_id"`
	// Caller is the principal that asked (nil without an auth hook), and
	// Tool the tool whose call waits for the answer ("" for a request
	// made through the API). Neither is part of qmcp's JSON; a server
	// uses them to decide who may read and answer the request.
	Caller *string `json:"-"`
	Tool   string  `json:"-"`
}

// Response is a person's answer to a request.
type Response struct {
	ID          string  `json:"id"`
	RequestID   string  `json:"request_id"`
	Response    string  `json:"response"`
	RespondedBy *string `json:"responded_by"`
	// Metadata is a JSON object of whatever else the answer carries.
	Metadata  json.RawMessage `json:"response_metadata"`
	CreatedAt time.Time       `json:"created_at"`
}

// RequestFilter selects requests for [Humans.ListRequests]; empty fields
// match all. Requests come newest first by CreatedAt.
type RequestFilter struct {
	Status, Type string
	// Caller, when set, keeps the requests that caller made.
	Caller *string
	// Limit is at most MaxLimit; zero means DefaultLimit.
	Limit, Offset int
}

// Errors of [Humans].
var (
	ErrRequestNotFound = errors.New("history: no such human request")
	ErrResponded       = errors.New("history: the request has already been responded to")
	ErrExpired         = errors.New("history: the request has expired")
	ErrCancelled       = errors.New("history: the request was cancelled")
)

// Humans keeps human requests and their responses. Its methods are safe
// for concurrent use, and return once what they wrote is durable. The
// rules of [Store] hold here too: times in UTC to the millisecond, JSON
// kept byte for byte (an empty Context or Metadata reads as {}), invalid
// text replaced, copies both ways. A pending request past its ExpiresAt
// reads (GetRequest, ListRequests and its Status filter) as
// RequestExpired. runtime/history/historytest.RunHumans holds a store to
// these rules.
type Humans interface {
	// CreateRequest records a pending request. It needs an ID and a
	// positive TimeoutSeconds; ExpiresAt is CreatedAt plus the timeout.
	// An ID already used is an error wrapping [ErrExists].
	CreateRequest(ctx context.Context, r *Request) error
	// GetRequest returns a request and its response (nil while it has
	// none), or [ErrRequestNotFound].
	GetRequest(ctx context.Context, id string) (*Request, *Response, error)
	// ListRequests returns a page of the requests that match f, newest
	// first, and how many match in all.
	ListRequests(ctx context.Context, f RequestFilter) (requests []Request, total int, err error)
	// Respond records the answer to a pending request, which becomes
	// RequestResponded, in one step: of two answers at once, one wins and
	// the other gets [ErrResponded]. A request not pending is an error:
	// [ErrRequestNotFound], [ErrResponded], [ErrExpired] (past its
	// ExpiresAt at the store's clock) or [ErrCancelled].
	Respond(ctx context.Context, r *Response) error
	// CancelRequest withdraws a pending request (the call that asked
	// went away); one no longer pending is left as it is.
	CancelRequest(ctx context.Context, id string) error
}

// EffectiveRequest is r as it reads at now: a pending request past its
// ExpiresAt is RequestExpired (a copy; r itself otherwise).
func EffectiveRequest(r *Request, now time.Time) *Request {
	if r.Status != RequestPending || now.Before(r.ExpiresAt) {
		return r
	}
	c := *r
	c.Status = RequestExpired
	return &c
}

// Normalize checks a request filter and fills in its defaults, as
// [Filter.Normalize] does.
func (f RequestFilter) Normalize() (RequestFilter, error) {
	if err := page(&f.Limit, f.Offset); err != nil {
		return f, err
	}
	switch RequestStatus(f.Status) {
	case "", RequestPending, RequestResponded, RequestExpired, RequestCancelled:
	default:
		return f, fmt.Errorf("history: unknown request status %q", f.Status)
	}
	f.Status, f.Type, f.Caller = norm.Text(f.Status), norm.Text(f.Type), norm.TextPtr(f.Caller)
	return f, nil
}

// Matches reports whether r, as it reads now (see [EffectiveRequest]),
// passes f.
func (f RequestFilter) Matches(r *Request) bool {
	return (f.Status == "" || string(r.Status) == f.Status) &&
		(f.Type == "" || r.Type == f.Type) &&
		(f.Caller == nil || r.Caller != nil && *r.Caller == *f.Caller)
}

// maxRequestTimeout bounds TimeoutSeconds (ten years) well below what a
// time.Duration holds.
const maxRequestTimeout = 10 * 366 * 24 * 3600

// CheckRequest checks a request given to CreateRequest and returns the
// private, normalised copy a store keeps: its expiry worked out, its
// status pending, {} for no context.
func CheckRequest(r *Request) (*Request, error) {
	switch {
	case r.ID == "":
		return nil, errors.New("history: request has no id")
	case r.TimeoutSeconds <= 0:
		return nil, fmt.Errorf("history: request %q has no timeout", r.ID)
	case r.TimeoutSeconds > maxRequestTimeout:
		return nil, fmt.Errorf("history: request %q has a timeout over %d seconds", r.ID, maxRequestTimeout)
	}
	c := *r
	c.ID, c.Type, c.Prompt, c.Tool = norm.Text(r.ID), norm.Text(r.Type), norm.Text(r.Prompt), norm.Text(r.Tool)
	if r.Options != nil {
		c.Options = make([]string, len(r.Options))
		for i, o := range r.Options {
			c.Options[i] = norm.Text(o)
		}
	}
	c.Context = norm.JSON(r.Context)
	if c.Context == nil {
		c.Context = json.RawMessage("{}")
	}
	c.Status = RequestPending
	c.CreatedAt = norm.Time(r.CreatedAt)
	c.ExpiresAt = c.CreatedAt.Add(time.Duration(r.TimeoutSeconds) * time.Second)
	c.CorrelationID, c.Caller = norm.TextPtr(r.CorrelationID), norm.TextPtr(r.Caller)
	return &c, nil
}

// CheckResponse checks a response given to Respond and returns the
// private, normalised copy a store keeps.
func CheckResponse(r *Response) (*Response, error) {
	if r.ID == "" || r.RequestID == "" {
		return nil, errors.New("history: response needs an id and a request id")
	}
	c := *r
	c.ID, c.RequestID, c.Response = norm.Text(r.ID), norm.Text(r.RequestID), norm.Text(r.Response)
	c.RespondedBy = norm.TextPtr(r.RespondedBy)
	c.Metadata = norm.JSON(r.Metadata)
	if c.Metadata == nil {
		c.Metadata = json.RawMessage("{}")
	}
	c.CreatedAt = norm.Time(r.CreatedAt)
	return &c, nil
}

// RequestExists is the error of a second CreateRequest of the same id.
func RequestExists(id string) error {
	return fmt.Errorf("%w: human request %q", ErrExists, id)
}

// MarshalJSON writes the request as qmcp does, its times in [TimeLayout].
func (r Request) MarshalJSON() ([]byte, error) {
	return marshalNoEscape(struct {
		ID             string          `json:"id"`
		Type           string          `json:"request_type"`
		Prompt         string          `json:"prompt"`
		Options        []string        `json:"options"`
		Context        json.RawMessage `json:"context"`
		TimeoutSeconds int             `json:"timeout_seconds"`
		Status         RequestStatus   `json:"status"`
		CreatedAt      stamp           `json:"created_at"`
		ExpiresAt      stamp           `json:"expires_at"`
		CorrelationID  *string         `json:"correlation_id"`
	}{r.ID, r.Type, r.Prompt, r.Options, orEmptyObject(r.Context), r.TimeoutSeconds, r.Status, stamp(r.CreatedAt), stamp(r.ExpiresAt), r.CorrelationID})
}

// MarshalJSON writes the response as qmcp does, its time in [TimeLayout].
func (r Response) MarshalJSON() ([]byte, error) {
	return marshalNoEscape(struct {
		ID          string          `json:"id"`
		RequestID   string          `json:"request_id"`
		Response    string          `json:"response"`
		RespondedBy *string         `json:"responded_by"`
		Metadata    json.RawMessage `json:"response_metadata"`
		CreatedAt   stamp           `json:"created_at"`
	}{r.ID, r.RequestID, r.Response, r.RespondedBy, orEmptyObject(r.Metadata), stamp(r.CreatedAt)})
}

func orEmptyObject(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return b
}

// Approval is how a call that needed approval was decided, as its record
// keeps it (Record.Approval).
type Approval struct {
	// Decision is "approve", "reject", "expired" or "cancelled".
	Decision string `json:"decision"`
	// By is who decided: the principal that answered (nil without one,
	// and for an expiry).
	By *string `json:"by"`
	// At is when.
	At time.Time `json:"at"`
}

// MarshalJSON writes the approval with its time in [TimeLayout].
func (a Approval) MarshalJSON() ([]byte, error) {
	return marshalNoEscape(struct {
		Decision string  `json:"decision"`
		By       *string `json:"by"`
		At       stamp   `json:"at"`
	}{a.Decision, a.By, stamp(a.At)})
}

// UnmarshalJSON reads what MarshalJSON wrote (the SQL stores keep an
// approval as JSON text).
func (a *Approval) UnmarshalJSON(b []byte) error {
	var v struct {
		Decision string    `json:"decision"`
		By       *string   `json:"by"`
		At       time.Time `json:"at"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*a = Approval{Decision: v.Decision, By: v.By, At: v.At.UTC()}
	return nil
}

// CleanApproval is the private, normalised copy of a record's approval
// that a store keeps; nil stays nil.
func CleanApproval(a *Approval) *Approval {
	if a == nil {
		return nil
	}
	return &Approval{Decision: norm.Text(a.Decision), By: norm.TextPtr(a.By), At: norm.Time(a.At)}
}
