package history

import (
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history/internal/norm"
)

// memRecord is a record as the memory store keeps it. The store holds up
// to DefaultMemoryRows of them for as long as the server runs, and the
// garbage collector traces every pointer they hold on each of its cycles,
// which a busy server runs often: a Record is a dozen allocations
// (strings, optional strings and times, JSON), a memRecord three (itself,
// the text Start gave, the text Finish gave), its times numbers.
// BENCHMARKS.md ("The aims of issue #27") has what that buys a call.
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

// packRecord is the normalised copy of r the store keeps: r and its
// buffers stay the caller's.
func packRecord(r *Record) *memRecord {
	c := &memRecord{created: norm.Time(r.CreatedAt).UnixMilli(), out: newOutcome(r)}
	var b strings.Builder
	b.Grow(len(r.ID) + len(r.Tool) + len(r.Surface) + len(r.Input) + 64)
	for i, s := range [...]string{norm.Text(r.ID), norm.Text(r.Tool), norm.Text(r.Surface)} {
		b.WriteString(s)
		c.startEnd[i] = b.Len()
	}
	optional := func(i int, flag memHas, p *string) {
		if p != nil {
			c.has |= flag
			b.WriteString(norm.Text(*p))
		}
		c.startEnd[i] = b.Len()
	}
	optional(fieldCorrelation, hasCorrelation, r.CorrelationID)
	optional(fieldCaller, hasCaller, r.Caller)
	writeJSON(&b, r.Input)
	c.startEnd[fieldInput] = b.Len()
	c.start = b.String()
	if r.Deadline != nil {
		c.has |= hasDeadline
		c.deadline = norm.Time(*r.Deadline).UnixMilli()
	}
	return c
}

// writeJSON writes norm.JSON(j) to b.
func writeJSON(b *strings.Builder, j []byte) {
	if norm.Plain(j) {
		b.Write(j) // b's copy is the store's own
		return
	}
	b.Write(norm.JSON(j))
}

// newOutcome is the normalised copy of what Finish changes: the status,
// result, error, duration, completion time and approval.
func newOutcome(r *Record) memOutcome {
	o := memOutcome{status: r.Status, approval: CleanApproval(r.Approval)}
	var b strings.Builder
	writeJSON(&b, r.Result)
	o.end[fieldResult] = b.Len()
	if r.Error != nil {
		o.has |= hasError
		b.WriteString(norm.Text(*r.Error))
	}
	o.end[fieldError] = b.Len()
	o.text = b.String()
	if r.CompletedAt != nil {
		o.has |= hasCompleted
		o.completed = norm.Time(*r.CompletedAt).UnixMilli()
	}
	if r.DurationMS != nil {
		o.has |= hasDuration
		o.duration = *r.DurationMS
	}
	return o
}

func (c *memRecord) field(i int) string {
	start := 0
	if i > 0 {
		start = c.startEnd[i-1]
	}
	return c.start[start:c.startEnd[i]]
}

func (o *memOutcome) field(i int) string {
	start := 0
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
