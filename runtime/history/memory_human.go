package history

import (
	"context"
	"slices"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// The memory store's human requests: bounded like its records (at most
// Retention.MaxRows, none older than MaxAge), the oldest dropped first.

type humanEntry struct {
	req  *Request
	resp *Response
}

type memoryHumans struct {
	requests map[string]*humanEntry
	order    []*humanEntry // oldest first, as created
}

var _ Humans = (*Memory)(nil)

// CreateRequest files a human request (see [Humans]).
func (m *Memory) CreateRequest(_ context.Context, r *Request) error {
	c, err := CheckRequest(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h := &m.humans
	if _, ok := h.requests[c.ID]; ok {
		return RequestExists(c.ID)
	}
	e := &humanEntry{req: c}
	// In CreatedAt order; requests almost always arrive in time order.
	i := len(h.order)
	for i > 0 && h.order[i-1].req.CreatedAt.After(c.CreatedAt) {
		i--
	}
	h.order = slices.Insert(h.order, i, e)
	h.requests[c.ID] = e
	if over := len(h.order) - m.r.MaxRows; over > 0 {
		h.drop(over)
	}
	return nil
}

func (h *memoryHumans) drop(n int) {
	for _, e := range h.order[:n] {
		delete(h.requests, e.req.ID)
	}
	h.order = slices.Delete(h.order, 0, n)
}

func (h *memoryHumans) expire(cut time.Time) {
	n := 0
	for n < len(h.order) && h.order[n].req.CreatedAt.Before(cut) {
		n++
	}
	h.drop(n)
}

// GetRequest returns a request and its response, if any (see [Humans]).
func (m *Memory) GetRequest(_ context.Context, id string) (*Request, *Response, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	e, ok := m.humans.requests[norm.Text(id)]
	if !ok {
		return nil, nil, ErrRequestNotFound
	}
	req := cloneRequest(EffectiveRequest(e.req, time.Now()))
	var resp *Response
	if e.resp != nil {
		c := cloneResponse(e.resp)
		resp = &c
	}
	return &req, resp, nil
}

// ListRequests returns a page of the requests that match f (see [Humans]).
func (m *Memory) ListRequests(_ context.Context, f RequestFilter) ([]Request, int, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, 0, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	page := []Request{}
	total := 0
	now := time.Now()
	for i := len(m.humans.order) - 1; i >= 0; i-- {
		r := EffectiveRequest(m.humans.order[i].req, now)
		if !f.Matches(r) {
			continue
		}
		if total >= f.Offset && len(page) < f.Limit {
			page = append(page, cloneRequest(r))
		}
		total++
	}
	return page, total, nil
}

// Respond records the answer to a pending request (see [Humans]).
func (m *Memory) Respond(_ context.Context, r *Response) error {
	c, err := CheckResponse(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.humans.requests[c.RequestID]
	if !ok {
		return ErrRequestNotFound
	}
	if err := Answerable(EffectiveRequest(e.req, time.Now()).Status); err != nil {
		return err
	}
	e.req.Status = RequestResponded
	e.resp = c
	return nil
}

// Answerable is the error of Respond to a request that reads as st: nil
// for a pending one. The stores share it.
func Answerable(st RequestStatus) error {
	switch st {
	case RequestPending:
		return nil
	case RequestResponded:
		return ErrResponded
	case RequestExpired:
		return ErrExpired
	}
	return ErrCancelled
}

// CancelRequest marks a pending request cancelled (see [Humans]).
func (m *Memory) CancelRequest(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.humans.requests[norm.Text(id)]
	if !ok {
		return ErrRequestNotFound
	}
	if EffectiveRequest(e.req, time.Now()).Status == RequestPending {
		e.req.Status = RequestCancelled
	}
	return nil
}

func cloneRequest(r *Request) Request {
	c := *r
	c.Options = slices.Clone(r.Options)
	c.Context = cloneBytes(r.Context)
	c.CorrelationID, c.Caller = clonePtr(r.CorrelationID), clonePtr(r.Caller)
	return c
}

func cloneResponse(r *Response) Response {
	c := *r
	c.RespondedBy = clonePtr(r.RespondedBy)
	c.Metadata = cloneBytes(r.Metadata)
	return c
}
