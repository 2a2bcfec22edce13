package history

import (
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// memRecord is a record as the memory store keeps it. The store holds up
// to DefaultMemoryRows of them for as long as the server runs, and the
// garbage collector traces every pointer they hold on each of its cycles,
// which a busy server runs often. A Record is a dozen allocations
// (strings, optional strings and times, JSON); a memRecord is a value in
// one slice (Memory.slots) whose two strings point into the store's
// shared text (memText), its times numbers, so that the collector finds
// a few large objects where it would mark a dozen small ones a record.
// BENCHMARKS.md ("Recording into each history store") has what that buys.
type memRecord struct {
	// start is the text Start gave, in one string: the id, tool,
	// surface, correlation id, caller and input, each ending where
	// startEnd says.
	start    string
	startEnd [6]int
	has      memHas // which of the optional fields of start are there
	created  int64  // Unix milliseconds: every store keeps milliseconds
	deadline int64
	out      memOutcome
}

// memOutcome is what Finish changes.
type memOutcome struct {
	// text is the result, then the error, each ending where end says.
	text      string
	end       [2]int
	has       memHas // which of the optional fields are there
	status    Status
	completed int64 // Unix milliseconds
	duration  float64
	approval  *Approval
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

// The fields of memRecord.start and memRecord.outcome, in order.
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

// packRecord is the normalised copy of r the store keeps, r and its
// buffers staying the caller's: its text, what Start gave and then what
// Finish gave, is appended to b, and the record's strings are left empty
// for the store to point into its own copy of b (place).
func packRecord(r *Record, b []byte) (memRecord, []byte) {
	c := memRecord{created: norm.Time(r.CreatedAt).UnixMilli()}
	for i, s := range [...]string{norm.Text(r.ID), norm.Text(r.Tool), norm.Text(r.Surface)} {
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
	c.out, b = newOutcome(r, b)
	return c, b
}

// place points c's strings into all, the store's copy of the text
// packRecord appended.
func (c *memRecord) place(all string) {
	n := c.startEnd[fieldInput]
	c.start = all[:n]
	c.out.text = all[n:]
}

// appendJSON appends norm.JSON(j) to b.
func appendJSON(b, j []byte) []byte {
	if norm.Plain(j) {
		return append(b, j...)
	}
	return append(b, norm.JSON(j)...)
}

// newOutcome is the normalised copy of what Finish changes: the status,
// result, error, duration, completion time and approval. Its text, the
// result then the error, is appended to b and o.text left empty, as in
// packRecord.
func newOutcome(r *Record, b []byte) (o memOutcome, _ []byte) {
	o = memOutcome{status: r.Status, approval: CleanApproval(r.Approval)}
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

func (c *memRecord) field(i int) string {
	var start int
	if i > 0 {
		start = c.startEnd[i-1]
	}
	return c.start[start:c.startEnd[i]]
}

func (o *memOutcome) field(i int) string {
	var start int
	if i > 0 {
		start = o.end[i-1]
	}
	return o.text[start:o.end[i]]
}

func (c *memRecord) id() string { return c.field(fieldID) }

func (c *memRecord) createdAt() time.Time { return time.UnixMilli(c.created).UTC() }

// record is c as a Record of its own, sharing nothing the caller could
// change with the store; withJSON false leaves the input and the result
// out (for matching a filter).
func (c *memRecord) record(withJSON bool) *Record {
	r := &Record{ID: c.id(), Tool: c.field(fieldTool), Surface: c.field(fieldSurface), Status: c.out.status, CreatedAt: c.createdAt()}
	optional := func(has, flag memHas, s string) *string {
		if has&flag == 0 {
			return nil
		}
		return &s
	}
	r.CorrelationID = optional(c.has, hasCorrelation, c.field(fieldCorrelation))
	r.Caller = optional(c.has, hasCaller, c.field(fieldCaller))
	r.Error = optional(c.out.has, hasError, c.out.field(fieldError))
	if withJSON {
		if in := c.field(fieldInput); in != "" {
			r.Input = []byte(in)
		}
		if res := c.out.field(fieldResult); res != "" {
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
	r.Approval = CleanApproval(c.out.approval)
	return r
}

// memText is where the memory store keeps its records' text: appended
// to a shared chunk of memChunk bytes rather than allocated a string a
// piece, so that the collector marks a chunk where it marked two small
// objects a record. A string handed out stays valid: strings.Builder
// only appends, within the capacity reserved, so the bytes a string
// covers are never written again. Nothing frees a chunk by hand: it is
// collected once no string points into it, and as records leave oldest
// first, chunks leave with them. (A Record that Get or List returned
// shares its strings with the store, so a caller that keeps one keeps
// its chunk too.)
type memText struct{ b strings.Builder }

// memChunk is the size of memText's chunks; a text longer than an
// eighth of it gets its own string, so that a large input does not
// waste the rest of a chunk.
const memChunk = 64 << 10

// keep returns the store's copy of p.
func (t *memText) keep(p []byte) string {
	if len(p) == 0 {
		return ""
	}
	if len(p) > memChunk/8 {
		return string(p)
	}
	if t.b.Cap()-t.b.Len() < len(p) {
		t.b = strings.Builder{}
		t.b.Grow(memChunk)
	}
	n := t.b.Len()
	t.b.Write(p)
	return t.b.String()[n:]
}
