package history

import (
	"strings"
	"time"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// memRecord is a record as the memory store keeps it. The store holds up
// to DefaultMemoryRows of them for as long as the server runs, and the
// garbage collector traces every pointer they hold on each of its cycles,
// which a busy server runs often. A Record is a dozen allocations
// (strings, optional strings and times, JSON); a memRecord holds no
// pointer at all: it is a value in one slice (Memory.slots), its text
// is in the store's chunks (memText), named by a memSpan, and its times
// and status are numbers. The collector does not look into the slice,
// nor into the id map, which is keyed by the id's 16 bytes when it is a
// UUID (memKey). BENCHMARKS.md ("What the memory store's records cost the
// collector") has what that buys.
type memRecord struct {
	// start is the text Start gave: the id, tool, surface, correlation
	// id, caller and input, each ending where startEnd says.
	start    memSpan
	startEnd [6]int
	key      memKey // the id as the id map keys it
	has      memHas // which of the optional fields of start are there
	created  int64  // Unix milliseconds: every store keeps milliseconds
	deadline int64
	out      memOutcome
}

// memOutcome is what Finish changes.
type memOutcome struct {
	// text is the result, then the error, each ending where end says.
	text      memSpan
	end       [2]int
	has       memHas // which of the optional fields are there
	status    memStatus
	completed int64 // Unix milliseconds
	duration  float64
	// An approval is a pointer: it is kept beside the records, in
	// Memory.approvals (few calls wait for a person).
}

// memHas says which of a record's optional fields a memRecord or a
// memOutcome holds.
type memHas uint8

const (
	hasCorrelation memHas = 1 << iota
	hasCaller
	hasDeadline
	hasError
	hasCompleted
	hasDuration
)

// The fields of memRecord.start and memOutcome.text, in order.
const (
	fieldID = iota
	fieldTool
	fieldSurface
	fieldCorrelation
	fieldCaller
	fieldInput
)

const (
	fieldResult = iota
	fieldError
)

// memStatus is a Status as a number: a string would be a pointer.
type memStatus uint8

var memStatuses = [...]Status{Pending, Success, Failed}

// toMemStatus is s's number; Start and Finish check s first.
func toMemStatus(s Status) memStatus {
	for i, v := range memStatuses {
		if v == s {
			return memStatus(i)
		}
	}
	return 0
}

// packRecord is the normalised copy of r the store keeps, with status
// st, r and its buffers staying the caller's. Its text, what Start gave
// and then what Finish gave, is appended to b; the store keeps it
// (place).
func packRecord(r *Record, st Status, b []byte) (memRecord, []byte) {
	c := memRecord{created: norm.Time(r.CreatedAt).UnixMilli()}
	names := [...]string{norm.Text(r.ID), norm.Text(r.Tool), norm.Text(r.Surface)}
	c.key = keyOf(names[fieldID])
	for i, s := range names {
		b = append(b, s...)
		c.startEnd[i] = len(b)
	}
	optional := func(i int, flag memHas, p *string) {
		if p != nil {
			c.has |= flag
			b = append(b, norm.Text(*p)...)
		}
		c.startEnd[i] = len(b)
	}
	optional(fieldCorrelation, hasCorrelation, r.CorrelationID)
	optional(fieldCaller, hasCaller, r.Caller)
	b = appendJSON(b, r.Input)
	c.startEnd[fieldInput] = len(b)
	if r.Deadline != nil {
		c.has |= hasDeadline
		c.deadline = norm.Time(*r.Deadline).UnixMilli()
	}
	c.out, b = newOutcome(r, st, b)
	return c, b
}

// place keeps all, the text packRecord appended, in t, for c.
func (c *memRecord) place(t *memText, all []byte) {
	n := c.startEnd[fieldInput]
	c.start = t.keep(all[:n])
	c.out.text = t.keep(all[n:])
}

// appendJSON appends norm.JSON(j) to b.
func appendJSON(b, j []byte) []byte {
	if norm.Plain(j) {
		return append(b, j...)
	}
	return append(b, norm.JSON(j)...)
}

// newOutcome is the normalised copy of what Finish changes: the status
// (st), result, error, duration and completion time (the store keeps
// CleanApproval(r.Approval) apart). Its text, the result then the
// error, is appended to b, as in packRecord.
func newOutcome(r *Record, st Status, b []byte) (o memOutcome, _ []byte) {
	o = memOutcome{status: toMemStatus(st)}
	base := len(b)
	b = appendJSON(b, r.Result)
	o.end[fieldResult] = len(b) - base
	if r.Error != nil {
		o.has |= hasError
		b = append(b, norm.Text(*r.Error)...)
	}
	o.end[fieldError] = len(b) - base
	if r.CompletedAt != nil {
		o.has |= hasCompleted
		o.completed = norm.Time(*r.CompletedAt).UnixMilli()
	}
	if r.DurationMS != nil {
		o.has |= hasDuration
		o.duration = *r.DurationMS
	}
	return o, b
}

func field(text string, end []int, i int) string {
	var start int
	if i > 0 {
		start = end[i-1]
	}
	return text[start:end[i]]
}

func (c *memRecord) createdAt() time.Time { return time.UnixMilli(c.created).UTC() }

// record is c as a Record, with approval. A record that leaves the store
// (owned) has copies of its text, sharing nothing with the store, which
// reuses its chunks. One that does not (List's match against its
// filter) has the store's text and no input or result, and must not
// outlive the lock.
func (c *memRecord) record(t *memText, approval *Approval, owned bool) *Record {
	start := t.view(c.start, c.startEnd[fieldInput])
	out := t.view(c.out.text, c.out.end[fieldError])
	// The id, tool, surface, correlation id and caller, in one string.
	names := start[:c.startEnd[fieldCaller]]
	errText := field(out, c.out.end[:], fieldError)
	if owned {
		names, errText = strings.Clone(names), strings.Clone(errText)
		approval = CleanApproval(approval)
	}
	r := &Record{
		ID: field(names, c.startEnd[:], fieldID), Tool: field(names, c.startEnd[:], fieldTool),
		Surface: field(names, c.startEnd[:], fieldSurface), Status: memStatuses[c.out.status],
		CreatedAt: c.createdAt(), Approval: approval,
	}
	optional := func(has, flag memHas, s string) *string {
		if has&flag == 0 {
			return nil
		}
		return &s
	}
	r.CorrelationID = optional(c.has, hasCorrelation, field(names, c.startEnd[:], fieldCorrelation))
	r.Caller = optional(c.has, hasCaller, field(names, c.startEnd[:], fieldCaller))
	r.Error = optional(c.out.has, hasError, errText)
	if owned {
		if in := field(start, c.startEnd[:], fieldInput); in != "" {
			r.Input = []byte(in)
		}
		if res := field(out, c.out.end[:], fieldResult); res != "" {
			r.Result = []byte(res)
		}
	}
	at := func(has, flag memHas, ms int64) *time.Time {
		if has&flag == 0 {
			return nil
		}
		t := time.UnixMilli(ms).UTC()
		return &t
	}
	r.CompletedAt = at(c.out.has, hasCompleted, c.out.completed)
	r.Deadline = at(c.has, hasDeadline, c.deadline)
	if c.out.has&hasDuration != 0 {
		d := c.out.duration
		r.DurationMS = &d
	}
	return r
}

// memKey is a record's id as the id map keys it: the 16 bytes of a UUID
// written the canonical way (lowercase, with hyphens; what the runtime
// gives its invocations), which the collector need not trace and which
// hash and compare without reading the id's text. Any other id is keyed
// by its text, in a map of its own.
type memKey struct {
	b    [16]byte
	uuid bool
}

// keyOf is id's key; only a canonical UUID gets one with uuid set, so
// that no two ids share a key.
func keyOf(id string) memKey {
	if len(id) != 36 {
		return memKey{}
	}
	var k memKey
	j := 0
	for i := 0; i < 36; i += 2 {
		switch i {
		case 8, 13, 18, 23:
			if id[i] != '-' {
				return memKey{}
			}
			i++
		}
		hi, lo := unhex[id[i]], unhex[id[i+1]]
		if hi|lo > 0xf {
			return memKey{}
		}
		k.b[j] = hi<<4 | lo
		j++
	}
	k.uuid = true
	return k
}

// unhex is the value of each lowercase hex digit, 0xff for any other
// byte: uppercase digits too, so that an id keeps its case.
var unhex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	return t
}()

// memIDs finds a record's slot by its id.
type memIDs struct {
	uuids map[[16]byte]int32
	other map[string]int32 // its keys are copies: a chunk is reused
}

func (x *memIDs) get(id string, k memKey) (int32, bool) {
	if k.uuid {
		at, ok := x.uuids[k.b]
		return at, ok
	}
	at, ok := x.other[id]
	return at, ok
}

func (x *memIDs) put(id []byte, k memKey, at int32) {
	if k.uuid {
		x.uuids[k.b] = at
		return
	}
	x.other[string(id)] = at
}

// remove deletes c's id, read from t only when it is not a UUID.
func (x *memIDs) remove(t *memText, c *memRecord) {
	if c.key.uuid {
		delete(x.uuids, c.key.b)
		return
	}
	delete(x.other, t.view(c.start, c.startEnd[fieldID]))
}

// memText is where the memory store keeps its records' text: in chunks
// of memChunkSize bytes, each counting the texts it holds, rather than a
// string a piece, so that the collector marks a chunk (or nothing, once
// it is reused) where it marked two small objects a record. Records
// leave oldest first, so the oldest chunks empty first; an empty chunk
// is kept for the next texts, and a busy store allocates no new text.
// Because a chunk's bytes are written again once it is reused, a string
// from view is valid only until its text is released, under the store's
// lock: whatever leaves the store is copied. A store whose records have
// all left still holds its current chunk and up to memSpares more
// (320 KiB), for the next records.
type memText struct {
	chunks []memChunk
	// spare are the chunks no text is in whose buffer can be reused,
	// unused those that have none.
	spare, unused []int32
	cur           int32 // the chunk texts are appended to; -1 for none
}

// memChunk is one buffer of text and how many texts are in it. A text
// longer than an eighth of memChunkSize gets a chunk of its own, its
// size (large), so that a large input does not waste the rest of a chunk.
type memChunk struct {
	b     []byte
	live  int
	large bool
}

// memSpan is where a text is: its chunk (counted from 1, so that the
// zero memSpan, a text never kept, is empty rather than in chunk 0) and
// its offset there; its length is the record's.
type memSpan struct {
	chunk1 int32
	off    int
}

func (s memSpan) empty() bool         { return s.chunk1 == 0 }
func (s memSpan) chunk() int32        { return s.chunk1 - 1 }
func spanIn(i int32, off int) memSpan { return memSpan{chunk1: i + 1, off: off} }

const (
	memChunkSize = 64 << 10
	// memSpares bounds the empty chunks kept for reuse: records leave in
	// the order they came, so a chunk empties about when a new one is
	// needed, and more are spares only after a burst of larger records.
	memSpares = 4
)

func newMemText() memText { return memText{cur: -1} }

// keep copies p into t.
func (t *memText) keep(p []byte) memSpan {
	if len(p) == 0 {
		return memSpan{}
	}
	if len(p) > memChunkSize/8 {
		i := t.chunk()
		t.chunks[i] = memChunk{b: append([]byte(nil), p...), live: 1, large: true}
		return spanIn(i, 0)
	}
	if t.cur < 0 || cap(t.chunks[t.cur].b)-len(t.chunks[t.cur].b) < len(p) {
		old := t.cur
		if n := len(t.spare); n > 0 {
			t.cur, t.spare = t.spare[n-1], t.spare[:n-1]
		} else {
			t.cur = t.chunk()
			t.chunks[t.cur].b = make([]byte, 0, memChunkSize)
		}
		if old >= 0 && t.chunks[old].live == 0 {
			t.empty(old)
		}
	}
	c := &t.chunks[t.cur]
	off := len(c.b)
	c.b = append(c.b, p...)
	c.live++
	return spanIn(t.cur, off)
}

// chunk returns the index of a chunk with no buffer.
func (t *memText) chunk() int32 {
	if n := len(t.unused); n > 0 {
		i := t.unused[n-1]
		t.unused = t.unused[:n-1]
		return i
	}
	t.chunks = append(t.chunks, memChunk{})
	return int32(len(t.chunks) - 1)
}

// release says s's text is no longer needed.
func (t *memText) release(s memSpan) {
	if s.empty() {
		return
	}
	i := s.chunk()
	c := &t.chunks[i]
	if c.live--; c.live == 0 && i != t.cur {
		t.empty(i)
	}
}

// empty files chunk i, which holds no text, as a spare or unused.
func (t *memText) empty(i int32) {
	c := &t.chunks[i]
	if c.large || len(t.spare) >= memSpares {
		*c = memChunk{}
		t.unused = append(t.unused, i)
		return
	}
	c.b = c.b[:0]
	t.spare = append(t.spare, i)
}

// view is s's text of n bytes, in the store's memory: see memText.
func (t *memText) view(s memSpan, n int) string {
	if n == 0 {
		return ""
	}
	return unsafe.String(&t.chunks[s.chunk()].b[s.off], n)
}
