package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
	"github.com/toolgen-go/toolgen/runtime/internal/uuid"
)

// Invocation history: the recording middleware, the outermost around
// [Server.Invoke], writes one record per call of a tool that exists, on
// every surface: pending just before the handler runs, complete once the
// outcome is known, before the surface answers (so an answered call is in
// the store).
//
// It fails closed: a call whose pending record cannot be written (the
// store down, its disk full or read-only) is refused, retryably, before
// its handler runs, so that no call is acknowledged unrecorded. A
// completion that cannot be written is retried with backoff within
// Options.HistoryTimeout; the call is then answered all the same (its
// handler ran), and its record reads "interrupted" once its deadline has
// passed. Options.HistoryBestEffort serves calls unrecorded instead. Every
// failure is logged and counted.

// DefaultHistoryTimeout bounds each history write when Options leaves
// HistoryTimeout zero.
const DefaultHistoryTimeout = 2 * time.Second

// DefaultPendingDeadline is how long the record of a call without a
// timeout (Options.CallTimeout, Tool.Timeout) waits for its outcome before
// it reads "interrupted", when its process crashed or lost its store: long
// enough for any call a client still waits for.
const DefaultPendingDeadline = time.Hour

// historyTimeout is Options.HistoryTimeout or its default.
func (s *Server) historyTimeout() time.Duration {
	if s.opts.HistoryTimeout > 0 {
		return s.opts.HistoryTimeout
	}
	return DefaultHistoryTimeout
}

// recording is one call's record in the making.
type recording struct {
	s          *Server
	rec        history.Record
	args       json.RawMessage // the call's arguments, as given
	refused    bool            // not run: the pending record could not be written
	repeat     bool            // not run: its idempotency key was used before
	started    bool            // it got past the refusals to its pending record
	idempotent bool            // its id comes from an idempotency key
	deadline   time.Time
	call       *Call // the call as the pipeline gets it, for its span

	// The call the pipeline gets (call points at it), and its first
	// BeforeRun hook, start: parts of this allocation too.
	callCopy Call
	hooks    [1]func(context.Context, *Tool) error

	// What the record's pointers point at, and the contexts of its two
	// writes: parts of this one allocation rather than four more.
	durationMS      float64
	completedAt     time.Time
	startW, finishW writeContext
}

// record is the recording middleware.
func (s *Server) record(next InvokeFunc) InvokeFunc {
	return func(ctx context.Context, c *Call) *Outcome {
		if c.ValidateOnly {
			return next(ctx, c)
		}
		rc := &recording{s: s, args: c.Arguments, rec: history.Record{
			ID:        uuid.New(),
			Tool:      c.Tool,
			Surface:   c.Surface,
			Status:    history.Pending,
			CreatedAt: milli(time.Now()),
		}}
		if c.CorrelationID != "" {
			rc.rec.CorrelationID = &c.CorrelationID
		}
		if c.IdempotencyKey != "" {
			rc.rec.ID = idempotentID(s.CallerID(ctx), c.IdempotencyKey)
			rc.idempotent = true
		}
		// The pending record is written by the pipeline, just before the
		// handler runs: a copy of the call carries the step down.
		rc.callCopy = *c
		rc.call = &rc.callCopy
		// It comes first: the steps after it find the call recorded.
		rc.hooks[0] = rc.start
		rc.call.BeforeRun = append(rc.hooks[:1:1], c.BeforeRun...)
		rc.call.InvocationID = rc.rec.ID
		out := next(ctx, rc.call)
		if out.Tool == nil {
			return out // nothing was called: no such tool, or no provider
		}
		if rc.refused {
			return out // not run, and not recorded: the store is failing
		}
		if rc.repeat {
			return out // the first call's outcome (see replay)
		}
		if rc.idempotent && !rc.started {
			// Refused before its handler could run (a rate limit, scopes,
			// validation, a missing secret): recorded, but not as the
			// key's outcome, which is what a run of the tool produced.
			// A retry with the key, once the refusal no longer holds,
			// runs the tool.
			rc.rec.ID = uuid.New()
			rc.idempotent = false
		}
		rc.finish(ctx, out)
		out.InvocationID = rc.rec.ID
		return out
	}
}

// milli is t as history keeps times: in UTC, to the millisecond, as
// t.UTC().Truncate(time.Millisecond) is but without Truncate's general
// division (twice a call), and with no monotonic reading.
func milli(t time.Time) time.Time {
	return time.Unix(t.Unix(), int64(t.Nanosecond()/1e6*1e6)).UTC()
}

// msgUnrecorded is what a caller is told of a call history could not
// record, and so did not run.
const msgUnrecorded = "The call could not be recorded, so it was not run; retry shortly."

// errUnrecorded stops a call whose pending record could not be written;
// its message is for the caller.
type errUnrecorded struct{}

func (errUnrecorded) Error() string { return msgUnrecorded }

// start writes the pending record; the pipeline calls it just before the
// handler runs, which it stops with an error when the record could not be
// written (unless Options.HistoryBestEffort).
func (rc *recording) start(ctx context.Context, t *Tool) error {
	rc.started = true
	rc.rec.Tool = t.Name
	// The pipeline has parsed the arguments by now: they are JSON.
	rc.rec.Input = rc.args
	if len(rc.rec.Input) == 0 {
		rc.rec.Input = emptyObject
	}
	rc.rec.Caller = rc.s.callerRef(ctx)
	// Past its deadline a record still pending reads "interrupted": the
	// call's timeout, and the time its completion may take to write.
	wait := rc.s.timeout(t)
	if wait <= 0 {
		wait = DefaultPendingDeadline
	}
	if rc.s.approvalOf(t) == ApprovalOperator {
		wait += rc.s.approvalTimeout() // it may wait that long first
	}
	wctx := &rc.startW
	for {
		rc.deadline = rc.rec.CreatedAt.Add(wait + 2*rc.s.historyTimeout())
		rc.rec.Deadline = &rc.deadline
		r := rc.s.redacted(&rc.rec)
		ctx, end := rc.call.step(ctx, StepHistoryStart)
		started := rc.s.write(ctx, wctx, time.Now(), "start", func(ctx context.Context) error {
			err := rc.s.history.Start(ctx, r)
			if err != nil && rc.idempotent && errors.Is(err, history.ErrExists) {
				rc.repeat = true // not a failure: a repeat, answered from the record
				return nil
			}
			return err
		})
		if started {
			end(nil)
		} else {
			end(errHistoryWrite)
		}
		if !rc.repeat {
			if !started && !rc.s.opts.HistoryBestEffort {
				rc.refused = true
				return errUnrecorded{}
			}
			return nil
		}
		if out := rc.s.replay(ctx, rc, t); out != nil {
			return &errRepeat{out: out}
		}
		// The key's call was refused before its handler ran (at its
		// approval): not the key's outcome, so this call runs, under
		// the next id of the key's chain, which every replica derives
		// alike (retryID).
		rc.repeat = false
		rc.rec.ID = retryID(rc.rec.ID)
		rc.call.InvocationID = rc.rec.ID
		// Its time is now, not when it arrived: it may have waited for
		// the call it repeats, and it may now wait for its own approval.
		rc.rec.CreatedAt = milli(time.Now())
		wctx = new(writeContext) // each write has an unused one
	}
}

func (rc *recording) finish(ctx context.Context, out *Outcome) {
	s := rc.s
	r := &rc.rec
	if r.Input == nil { // refused before the handler: maybe not JSON at all
		r.Input = inputJSON(rc.args)
	}
	if r.Caller == nil {
		r.Caller = s.callerRef(ctx)
	}
	r.Status = history.Failed
	if out.Status == StatusOK {
		r.Status = history.Success
		var check *jsonCheck
		if s.opts.RedactHistory == nil {
			// Only then is what history checks what the caller is sent:
			// a hook gets the record's bytes, and may write into them.
			check = &out.structured
		}
		r.Result = resultJSON(s.ResultValue(out), check)
	} else {
		msg := out.Result.ErrorText()
		r.Error = &msg
	}
	r.Approval = out.Approval
	rc.durationMS = float64(out.Duration.Microseconds()) / 1000
	r.DurationMS = &rc.durationMS
	now := time.Now()
	rc.completedAt = milli(now)
	r.CompletedAt = &rc.completedAt
	red := s.redacted(r)
	ctx, end := rc.call.step(ctx, StepHistoryFinish)
	if !s.write(ctx, &rc.finishW, now, "finish", func(ctx context.Context) error {
		// Retried with backoff within the history timeout (ctx's
		// deadline): a store that comes back in time completes the
		// record, and until then its pending record stands.
		wait := 20 * time.Millisecond
		for {
			err := s.history.Finish(ctx, red)
			if err == nil || ctx.Err() != nil {
				return err
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return err
			}
			wait = min(2*wait, 500*time.Millisecond)
		}
	}) {
		end(errHistoryWrite)
		return
	}
	end(nil)
}

// errHistoryWrite is the error of a history write's step in a trace: the
// store's own error is logged, not traced.
var errHistoryWrite = errors.New("the history store failed")

// redacted applies Options.RedactHistory to a copy of r. Without a hook
// it is r itself: a store keeps its own copy of what it is given.
func (s *Server) redacted(r *history.Record) *history.Record {
	if s.opts.RedactHistory == nil {
		return r
	}
	c := *r
	s.opts.RedactHistory(&c)
	return &c
}

// write runs one store operation within the history timeout from now
// (the time it begins, which a caller that has just read the clock
// passes rather than reading it again), detached from the caller's
// cancellation (a client that hangs up does not lose the record), in
// wctx, an unused writeContext. A failure is logged and counted; it never
// fails the call.
func (s *Server) write(ctx context.Context, wctx *writeContext, now time.Time, op string, f func(context.Context) error) bool {
	wctx.init(ctx, now.Add(s.historyTimeout()))
	defer wctx.cancel()
	if err := f(wctx); err != nil {
		s.log.ErrorContext(ctx, "history store failed", "op", op, "err", err)
		s.storeError(op)
		s.writes.failed.Store(time.Now().UnixNano())
		return false
	}
	s.writes.succeeded()
	return true
}

// writeHealth is when a history write last failed and when one first
// succeeded after it (Unix nanoseconds), for /health: a store may answer a
// ping and still refuse the calls' records (a disk with room for a byte,
// not a record).
type writeHealth struct{ failed, ok atomic.Int64 }

// failingWrites is how long a failed write, with none succeeding since,
// keeps /health at 503 before it asks the store again.
const failingWrites = 30 * time.Second

// succeeded notes a write that succeeded. Only whether one came after
// the last failure matters (failing), so the time is written only then:
// not a clock read and a store to one cache line every core shares, twice
// every call. (A success racing a failure, nanoseconds apart, may leave
// failing true until the next success; before, the later of the two
// clock reads won the same race.)
func (h *writeHealth) succeeded() {
	if h.failed.Load() >= h.ok.Load() {
		h.ok.Store(time.Now().UnixNano())
	}
}

// failing reports whether the last write failed, recently.
func (h *writeHealth) failing(now time.Time) bool {
	f := h.failed.Load()
	return f > h.ok.Load() && now.Sub(time.Unix(0, f)) < failingWrites
}

// inputJSON is the arguments as history stores them: JSON as given, {}
// for none, and text that is not JSON as a JSON string.
//
// JSON the pipeline refuses to parse (nested past its limit, a name
// repeated, not UTF-8) is kept as a string too: the records are served
// back (/v1/invocations), and a client that the server would not take
// such JSON from should not get it from the server.
func inputJSON(args json.RawMessage) json.RawMessage {
	switch {
	case len(args) == 0:
		return emptyObject
	case jsoncheck.Problem(args) == "":
		if _, _, dup := jsoncheck.DuplicateKey(args); !dup {
			return args
		}
	}
	return marshalValue(string(args))
}

// resultJSON is a result value as history stores it. Structured content
// usually is JSON already (StructuredResult encodes it once): that is
// kept as it is rather than encoded again. What checking it found is
// remembered in c.
func resultJSON(v any, c *jsonCheck) json.RawMessage {
	if raw, ok := v.(json.RawMessage); ok && c.validJSON(raw) {
		return raw
	}
	return marshalValue(v)
}

func marshalValue(v any) json.RawMessage {
	b, err := httpkit.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

// writeContext is the context of one history write: the call's values,
// none of its cancellation, and a deadline d from now. It is
// context.WithTimeout(context.WithoutCancel(ctx), d) but for when its
// timer starts: only once a store asks for Done. A store that answers from
// memory never asks, so the default store's two writes a call start no
// timer at all; a database driver asks, and gets the same context it
// would have had.
type writeContext struct {
	parent   context.Context // for its values only
	deadline time.Time

	mu    sync.Mutex
	done  chan struct{} // made by the first Done
	timer *time.Timer   // closes done at the deadline
	err   error         // set when done is (or would be) closed
}

// init sets up a zero writeContext.
func (c *writeContext) init(parent context.Context, deadline time.Time) {
	c.parent, c.deadline = parent, deadline
}

func (c *writeContext) Value(key any) any { return c.parent.Value(key) }

func (c *writeContext) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *writeContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		switch d := time.Until(c.deadline); {
		case c.err != nil:
			close(c.done)
		case d <= 0:
			c.err = context.DeadlineExceeded
			close(c.done)
		default:
			c.timer = time.AfterFunc(d, func() { c.end(context.DeadlineExceeded) })
		}
	}
	return c.done
}

func (c *writeContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil && c.done == nil && !time.Now().Before(c.deadline) {
		// Nobody waits on Done, so nothing closes it at the deadline:
		// the clock says whether it has passed.
		c.err = context.DeadlineExceeded
	}
	return c.err
}

// cancel ends the context once the write is over, as WithTimeout's cancel
// does: anything a store left waiting on Done is released.
func (c *writeContext) cancel() { c.end(context.Canceled) }

func (c *writeContext) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.err != nil {
		return // ended already; a done made since was made closed
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	}
}
