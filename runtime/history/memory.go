package history

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// DefaultMemoryRows bounds the memory store when Retention sets no
// MaxRows.
const DefaultMemoryRows = 10000

// Memory is a bounded in-memory [Store]: the default, and the reference
// the other stores are tested against.
type Memory struct {
	mu      sync.RWMutex
	records map[string]*Record
	// order holds the live records from head on, oldest first: by
	// CreatedAt, then by when they were first recorded. Records leave from
	// the front, so head moves instead of copying the slice on every
	// eviction; the slice is compacted once half of it is dead.
	order []*Record
	head  int
	r     Retention
	stop  chan struct{}
	once  sync.Once

	humans memoryHumans // human requests, under mu too
}

// NewMemory returns an empty memory store keeping at most r.MaxRows
// records (default DefaultMemoryRows), none older than r.MaxAge.
func NewMemory(r Retention) *Memory {
	if r.MaxRows <= 0 {
		r.MaxRows = DefaultMemoryRows
	}
	m := &Memory{records: map[string]*Record{}, r: r, stop: make(chan struct{})}
	m.humans.requests = map[string]*humanEntry{}
	// MaxRows is enforced on every insert (it costs nothing here); only
	// age needs the background loop.
	if r.MaxAge > 0 {
		go Retention{MaxAge: r.MaxAge, Interval: r.Interval}.Every(m.stop, m.expire)
	}
	return m
}

// Start records a pending invocation (see [Store]).
func (m *Memory) Start(_ context.Context, r *Record) error {
	status, err := norm.StartStatus(r.ID, string(r.Status))
	if err != nil {
		return err
	}
	c := clean(r)
	c.Status = Status(status)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.records[c.ID]; ok {
		return norm.Exists(c.ID)
	}
	m.insert(c)
	return nil
}

// Finish completes a record (see [Store]).
func (m *Memory) Finish(_ context.Context, r *Record) error {
	if err := norm.FinishStatus(r.ID, string(r.Status)); err != nil {
		return err
	}
	// Only the outcome changes: what Start recorded (the input, the
	// times and identities) stays as it was, as in the SQL stores. So only
	// the outcome is copied, unless the record was never started.
	out := outcome(r)
	id := norm.Text(r.ID)
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.records[id]
	if !ok {
		c := clean(r)
		m.insert(c)
		return nil
	}
	old.Status, old.Result, old.Error, old.DurationMS, old.CompletedAt, old.Approval = out.Status, out.Result, out.Error, out.DurationMS, out.CompletedAt, out.Approval
	return nil
}

// outcome is the private, normalised copy of what Finish changes.
func outcome(r *Record) Record {
	c := Record{Status: r.Status, Result: norm.JSON(r.Result), Error: norm.TextPtr(r.Error), CompletedAt: norm.TimePtr(r.CompletedAt), Approval: CleanApproval(r.Approval)}
	if r.DurationMS != nil {
		d := *r.DurationMS
		c.DurationMS = &d
	}
	return c
}

// clean is the private, normalised copy of r that the store keeps, so that
// the caller may reuse r and its buffers.
func clean(r *Record) *Record {
	c := *r
	c.ID, c.Tool, c.Surface = norm.Text(r.ID), norm.Text(r.Tool), norm.Text(r.Surface)
	c.Input, c.Result = norm.JSON(r.Input), norm.JSON(r.Result)
	c.Error, c.CorrelationID, c.Caller = norm.TextPtr(r.Error), norm.TextPtr(r.CorrelationID), norm.TextPtr(r.Caller)
	c.CreatedAt, c.CompletedAt, c.Deadline = norm.Time(r.CreatedAt), norm.TimePtr(r.CompletedAt), norm.TimePtr(r.Deadline)
	c.Approval = CleanApproval(r.Approval)
	if r.DurationMS != nil {
		d := *r.DurationMS
		c.DurationMS = &d
	}
	return &c
}

// clone is a copy of a stored record that shares nothing with it, so that a
// caller changing what it got cannot change the store.
func clone(r *Record) Record {
	c := *r
	c.Input, c.Result = cloneBytes(r.Input), cloneBytes(r.Result)
	c.Error, c.CorrelationID, c.Caller = clonePtr(r.Error), clonePtr(r.CorrelationID), clonePtr(r.Caller)
	c.DurationMS, c.CompletedAt, c.Deadline = clonePtr(r.DurationMS), clonePtr(r.CompletedAt), clonePtr(r.Deadline)
	c.Approval = CleanApproval(r.Approval)
	return c
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// insert adds a new record in CreatedAt order (after any created in the
// same millisecond, so that among those the last recorded lists first),
// then drops the oldest records past MaxRows.
func (m *Memory) insert(c *Record) {
	live := m.order[m.head:]
	// Records almost always arrive in time order: look from the end.
	i := len(live)
	if i > 0 && live[i-1].CreatedAt.After(c.CreatedAt) {
		i = sort.Search(len(live), func(k int) bool { return live[k].CreatedAt.After(c.CreatedAt) })
	}
	m.order = append(m.order, nil)
	live = m.order[m.head:]
	copy(live[i+1:], live[i:])
	live[i] = c
	m.records[c.ID] = c
	if over := len(live) - m.r.MaxRows; over > 0 {
		m.drop(over)
	}
}

// drop removes the n oldest records.
func (m *Memory) drop(n int) {
	for i := m.head; i < m.head+n; i++ {
		delete(m.records, m.order[i].ID)
		m.order[i] = nil // let the record be collected
	}
	m.head += n
	if m.head > len(m.order)/2 {
		m.order = append([]*Record(nil), m.order[m.head:]...)
		m.head = 0
	}
}

func (m *Memory) expire() {
	cut := time.Now().Add(-m.r.MaxAge)
	m.mu.Lock()
	defer m.mu.Unlock()
	live := m.order[m.head:]
	n := sort.Search(len(live), func(k int) bool { return !live[k].CreatedAt.Before(cut) })
	if n > 0 {
		m.drop(n)
	}
	m.humans.expire(cut)
}

// Get returns one record, or [ErrNotFound].
func (m *Memory) Get(_ context.Context, id string) (*Record, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	r, ok := m.records[norm.Text(id)]
	if !ok {
		return nil, ErrNotFound
	}
	c := clone(Effective(r, time.Now()))
	return &c, nil
}

// List returns a page of the records that match f, newest first, and
// how many match in all (see [Store]).
func (m *Memory) List(_ context.Context, f Filter) ([]Record, int, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, 0, err
	}
	f.Tool, f.Status, f.CorrelationID, f.Surface = norm.Text(f.Tool), norm.Text(f.Status), norm.Text(f.CorrelationID), norm.Text(f.Surface)
	m.mu.RLock()
	defer m.mu.RUnlock()
	page := []Record{}
	total := 0
	now := time.Now()
	// order is oldest first, so newest first is backwards.
	for i := len(m.order) - 1; i >= m.head; i-- {
		r := Effective(m.order[i], now)
		if !f.Matches(r) {
			continue
		}
		if total >= f.Offset && len(page) < f.Limit {
			page = append(page, clone(r))
		}
		total++
	}
	return page, total, nil
}

// Ping reports nil: memory is always there.
func (m *Memory) Ping(context.Context) error { return nil }

// String names the store, for /health.
func (m *Memory) String() string { return "memory" }

// Close stops the pruning of old records; the records stay readable.
func (m *Memory) Close() error {
	m.once.Do(func() { close(m.stop) })
	return nil
}
