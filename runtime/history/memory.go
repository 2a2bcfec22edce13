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
	mu sync.RWMutex
	// slots holds the records by value, free the indices of its empty
	// slots (memRecord says why one slice); records finds a record's slot
	// by its id, which points into text.
	slots   []memRecord
	free    []int32
	records map[string]int32
	text    memText
	// order holds the slots of the live records from head on, oldest
	// first: by CreatedAt, then by when they were first recorded. Records
	// leave from the front, so head moves instead of copying the slice on
	// every eviction; the slice is compacted once half of it is dead.
	order []int32
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
	m := &Memory{records: map[string]int32{}, r: r, stop: make(chan struct{})}
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
	var scratch [512]byte
	c, text := packRecord(r, scratch[:0])
	c.out.status = Status(status)
	m.mu.Lock()
	defer m.mu.Unlock()
	id := text[:c.startEnd[fieldID]]
	if _, ok := m.records[string(id)]; ok {
		return norm.Exists(string(id))
	}
	c.place(m.text.keep(text))
	m.insert(c)
	return nil
}

// Finish completes a record (see [Store]).
func (m *Memory) Finish(_ context.Context, r *Record) error {
	if err := norm.FinishStatus(r.ID, string(r.Status)); err != nil {
		return err
	}
	// Only the outcome changes: what Start recorded (the input, the
	// times and identities) stays as it was, as in the SQL stores.
	var scratch [512]byte
	out, text := newOutcome(r, scratch[:0])
	id := norm.Text(r.ID)
	m.mu.Lock()
	defer m.mu.Unlock()
	i, ok := m.records[id]
	if !ok {
		c, text := packRecord(r, scratch[:0])
		c.place(m.text.keep(text))
		m.insert(c)
		return nil
	}
	out.text = m.text.keep(text)
	m.slots[i].out = out
	return nil
}

// cloneBytes and clonePtr copy what a stored human request holds, for
// a caller that may change what it got.
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
func (m *Memory) insert(c memRecord) {
	var at int32
	if n := len(m.free); n > 0 {
		at = m.free[n-1]
		m.free = m.free[:n-1]
		m.slots[at] = c
	} else {
		at = int32(len(m.slots))
		m.slots = append(m.slots, c)
	}
	live := m.order[m.head:]
	// Records almost always arrive in time order: look from the end.
	i := len(live)
	if i > 0 && m.slots[live[i-1]].created > c.created {
		i = sort.Search(len(live), func(k int) bool { return m.slots[live[k]].created > c.created })
	}
	m.order = append(m.order, 0)
	live = m.order[m.head:]
	copy(live[i+1:], live[i:])
	live[i] = at
	m.records[c.id()] = at
	if over := len(live) - m.r.MaxRows; over > 0 {
		m.drop(over)
	}
}

// drop removes the n oldest records.
func (m *Memory) drop(n int) {
	for _, at := range m.order[m.head : m.head+n] {
		delete(m.records, m.slots[at].id())
		m.slots[at] = memRecord{} // let its text be collected
		m.free = append(m.free, at)
	}
	m.head += n
	if m.head > len(m.order)/2 {
		m.order = append([]int32(nil), m.order[m.head:]...)
		m.head = 0
	}
}

func (m *Memory) expire() {
	cut := time.Now().Add(-m.r.MaxAge)
	m.mu.Lock()
	defer m.mu.Unlock()
	live := m.order[m.head:]
	n := sort.Search(len(live), func(k int) bool { return !m.slots[live[k]].createdAt().Before(cut) })
	if n > 0 {
		m.drop(n)
	}
	m.humans.expire(cut)
}

// Get returns one record, or [ErrNotFound].
func (m *Memory) Get(_ context.Context, id string) (*Record, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	i, ok := m.records[norm.Text(id)]
	if !ok {
		return nil, ErrNotFound
	}
	return Effective(m.slots[i].record(true), time.Now()), nil
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
		c := &m.slots[m.order[i]]
		if !f.Matches(Effective(c.record(false), now)) {
			continue
		}
		if total >= f.Offset && len(page) < f.Limit {
			page = append(page, *Effective(c.record(true), now))
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
