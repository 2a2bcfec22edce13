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
	// slots (memRecord says why one slice); ids finds a record's slot by
	// its id, text holds their text, approvals their approvals by slot.
	slots     []memRecord
	free      []int32
	ids       memIDs
	text      memText
	approvals map[int32]*Approval
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
	m := &Memory{
		ids:  memIDs{uuids: map[[16]byte]int32{}, other: map[string]int32{}},
		text: newMemText(), approvals: map[int32]*Approval{}, r: r, stop: make(chan struct{}),
	}
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
	c, text := packRecord(r, Status(status), scratch[:0])
	id := norm.Text(r.ID)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.ids.get(id, c.key); ok {
		return norm.Exists(id)
	}
	m.insert(c, text, r.Approval)
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
	out, text := newOutcome(r, r.Status, scratch[:0])
	id := norm.Text(r.ID)
	k := keyOf(id)
	m.mu.Lock()
	defer m.mu.Unlock()
	i, ok := m.ids.get(id, k)
	if !ok {
		c, text := packRecord(r, r.Status, scratch[:0])
		m.insert(c, text, r.Approval)
		return nil
	}
	c := &m.slots[i]
	m.text.release(c.out.text)
	out.text = m.text.keep(text)
	c.out = out
	m.setApproval(i, r.Approval)
	return nil
}

// setApproval keeps the approval of the record in slot i.
func (m *Memory) setApproval(i int32, a *Approval) {
	if a == nil {
		delete(m.approvals, i)
		return
	}
	m.approvals[i] = CleanApproval(a)
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

// insert adds a new record, c with its text, in CreatedAt order (after
// any created in the same millisecond, so that among those the last
// recorded lists first), the oldest record leaving first when the store
// is full.
func (m *Memory) insert(c memRecord, text []byte, approval *Approval) {
	live := m.order[m.head:]
	if over := len(live) + 1 - m.r.MaxRows; over > 0 {
		if m.slots[live[over-1]].created > c.created {
			// Older than every record kept: it would leave at once.
			return
		}
		// Dropped first, the oldest's slot is the one the new record
		// takes, on cache lines the drop has just read.
		m.drop(over)
		live = m.order[m.head:]
	}
	c.place(&m.text, text)
	var at int32
	if n := len(m.free); n > 0 {
		at = m.free[n-1]
		m.free = m.free[:n-1]
		m.slots[at] = c
	} else {
		at = int32(len(m.slots))
		m.slots = append(m.slots, c)
	}
	if approval != nil {
		m.setApproval(at, approval)
	}
	// Records almost always arrive in time order: look from the end.
	i := len(live)
	if i > 0 && m.slots[live[i-1]].created > c.created {
		i = sort.Search(len(live), func(k int) bool { return m.slots[live[k]].created > c.created })
	}
	m.order = append(m.order, 0)
	live = m.order[m.head:]
	copy(live[i+1:], live[i:])
	live[i] = at
	m.ids.put(text[:c.startEnd[fieldID]], c.key, at)
}

// drop removes the n oldest records.
func (m *Memory) drop(n int) {
	for _, at := range m.order[m.head : m.head+n] {
		c := &m.slots[at]
		m.ids.remove(&m.text, c)
		m.text.release(c.start)
		m.text.release(c.out.text)
		delete(m.approvals, at) // whatever the record says: the slot is reused
		m.free = append(m.free, at)
	}
	m.head += n
	if m.head > len(m.order)/2 {
		// In place: the slice's capacity is what a full store needs.
		m.order = m.order[:copy(m.order, m.order[m.head:])]
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
	id = norm.Text(id)
	i, ok := m.ids.get(id, keyOf(id))
	if !ok {
		return nil, ErrNotFound
	}
	return Effective(m.slots[i].record(&m.text, m.approvals[i], true), time.Now()), nil
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
		at := m.order[i]
		c := &m.slots[at]
		// Matched on the store's text, copied only onto the page.
		if !f.Matches(Effective(c.record(&m.text, nil, false), now)) {
			continue
		}
		if total >= f.Offset && len(page) < f.Limit {
			page = append(page, *Effective(c.record(&m.text, m.approvals[at], true), now))
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
