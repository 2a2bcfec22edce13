package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// The one pipeline. Every surface (the explorer's REST protocol, MCP, and
// a user's own tests) runs a tool through [Server.Invoke] and only
// translates its [Outcome] into its own wire format, so that lookup,
// argument checks, timeouts, panic recovery and result shaping behave the
// same everywhere, and middleware sees every call.

// InvokeFunc is the shape of [Server.Invoke], and of what [Middleware]
// wraps.
type InvokeFunc func(ctx context.Context, c *Call) *Outcome

// Middleware wraps the pipeline: it receives the next step and returns a
// step that may act before and after it, or answer without calling it
// (recording, metrics, logging, rate limits). See Options.Middleware.
type Middleware func(next InvokeFunc) InvokeFunc

// Invoke runs one tool call through the pipeline, wrapped in
// Options.Middleware: look the tool up (in the static index, or by asking
// the provider), check the arguments (UTF-8, nesting, number size), validate
// them against the tool's compiled input schema, then (unless
// c.ValidateOnly) run the handler in ctx with the configured timeout and
// panic recovery, and shape its result. Every surface calls it; so can a
// test.
//
// ctx is what the tool's handler receives: whatever the caller's
// identity and request values are, they must be in it already (the HTTP
// surfaces run the auth hook first).
func (s *Server) Invoke(ctx context.Context, c *Call) *Outcome {
	return (*s.invoke.Load())(ctx, c)
}

// chain wraps the pipeline in the middleware, the first outermost.
func chain(h InvokeFunc, mw []Middleware) InvokeFunc {
	for i := len(mw) - 1; i >= 0; i-- {
		if mw[i] != nil {
			h = mw[i](h)
		}
	}
	return h
}

// pipeline is Invoke without the middleware.
func (s *Server) pipeline(ctx context.Context, c *Call) *Outcome {
	start := time.Now()
	o := s.execute(ctx, c)
	o.Duration = time.Since(start)
	return o
}

// execute is the pipeline's one path. What happens on every call is here;
// each way a call can stop short is a function of its own, not inlined:
// the handler, and the JSON decoding it does, run on the stack below
// execute's frame, and the locals of every refusal and log line would
// make that frame (2.4 KB when they were inline) large enough to make the
// goroutine grow its stack on calls that never need them (the go-sdk runs
// each MCP request on a goroutine of its own, which starts small).
func (s *Server) execute(ctx context.Context, c *Call) *Outcome {
	t, err := s.Lookup(ctx, c.Tool)
	if err != nil || t == nil {
		return lookupOutcome(c, err)
	}
	o := &Outcome{Tool: t}
	if err := s.checkScopes(ctx, t); err != nil {
		return o.forbidden(err)
	}
	if t.RateLimit.N > 0 && !c.ValidateOnly {
		if out := s.takeRate(ctx, o, t); out != nil {
			return out
		}
	}
	args := c.Arguments
	if len(bytes.TrimSpace(args)) == 0 {
		args = emptyObject
	}
	ct := s.compiled.get(t)
	o.compiled = compiledRef{t, ct}
	_, endValidate := c.step(ctx, StepValidate)
	if verr := checkArgs(ct, args); verr != nil {
		endValidate(verr)
		return o.invalid(verr)
	}
	endValidate(nil)
	if c.ValidateOnly {
		return o
	}
	ctx, missing := s.withSecrets(ctx, t)
	if missing != "" {
		return s.missingSecret(ctx, o, t, missing)
	}
	ctx = context.WithValue(ctx, callKey{}, c)
	if len(c.BeforeRun) > 0 {
		if out := s.beforeRun(ctx, o, c, t); out != nil {
			return out
		}
	}
	if appr, err := s.approveStep(ctx, c, t, args); appr != nil || err != nil {
		o.Approval = appr
		if err != nil {
			return o.unapproved(err)
		}
	}
	hctx, endHandler := c.step(ctx, StepHandler)
	res, err := s.run(hctx, t, args)
	endHandler(err)
	if err != nil {
		return s.failed(ctx, o, t, err)
	}
	o.Result = shape(ct, res)
	if o.Result.IsError {
		o.Status = StatusFailed
	}
	return o
}

// lookupOutcome is the outcome of a call whose tool the lookup did not
// give: the provider failed (err), or there is none of that name.
//
//go:noinline
func lookupOutcome(c *Call, err error) *Outcome {
	if err != nil {
		return &Outcome{Status: StatusUnavailable, Err: err, Result: ErrorResult(httpkit.MsgProviderFailed)}
	}
	return &Outcome{Status: StatusNotFound, Err: fmt.Errorf("%w: %s", ErrToolNotFound, c.Tool), Result: ErrorResult("Tool not found: " + c.Tool)}
}

//go:noinline
func (o *Outcome) forbidden(err error) *Outcome {
	o.Status, o.Err, o.Result = StatusForbidden, err, ErrorResult(err.Error())
	return o
}

//go:noinline
func (o *Outcome) rateLimited(t *Tool, wait time.Duration) *Outcome {
	te := rateLimitedError(t, wait)
	o.Status, o.Err, o.Result = StatusRateLimited, te, ErrorResult(te.Message)
	return o
}

// takeRate takes a call from t's rate limit for the caller: from the
// store's buckets when it holds them for a fleet (history.RateLimiter),
// else from this process's. It returns the outcome of a call that may not
// go ahead, nil for one that may. A store that cannot be asked refuses
// the call as a history that cannot record it does (503, retry), unless
// Options.HistoryBestEffort, which falls back to this process's buckets.
//
//go:noinline
func (s *Server) takeRate(ctx context.Context, o *Outcome, t *Tool) *Outcome {
	caller := s.CallerKey(ctx)
	if rl, ok := s.history.(history.RateLimiter); ok {
		ok, wait, err := rl.Take(ctx, t.Name+"/"+caller, t.RateLimit.N, t.RateLimit.Per, s.limiter.clock())
		switch {
		case err == nil && ok:
			return nil
		case err == nil:
			return o.rateLimited(t, wait)
		}
		s.storeError("rate limit")
		s.log.ErrorContext(ctx, "rate limit not checked: the history store failed", "tool", t.Name, "err", err)
		if !s.opts.HistoryBestEffort {
			te := &ToolError{Message: fmt.Sprintf("The rate limit of tool %s could not be checked; retry.", t.Name), CanRetry: true, RetryAfter: time.Second}
			o.Status, o.Err, o.Result = StatusUnrecorded, te, ErrorResult(te.Message)
			return o
		}
	}
	if ok, wait := s.limiter.allow(t.Name, caller, t.RateLimit); !ok {
		return o.rateLimited(t, wait)
	}
	return nil
}

//go:noinline
func (s *Server) missingSecret(ctx context.Context, o *Outcome, t *Tool, missing string) *Outcome {
	o.Status, o.Err = StatusFailed, &ToolError{Message: fmt.Sprintf("Tool %s needs the secret %s, which this call does not have.", t.Name, missing)}
	o.Result = ErrorResult(o.Err.Error())
	s.log.WarnContext(ctx, "tool call refused: a declared secret is missing", "tool", t.Name, "secret", missing)
	return o
}

// beforeRun runs the call's hooks before the handler (idempotency); a
// non-nil outcome ends the call with it.
//
//go:noinline
func (s *Server) beforeRun(ctx context.Context, o *Outcome, c *Call, t *Tool) *Outcome {
	for _, f := range c.BeforeRun {
		err := f(ctx, t)
		if err == nil {
			// (Asked first: errors.As's target is allocated where it is
			// declared, and so only on a call that stops here.)
			continue
		}
		var repeat *errRepeat
		if errors.As(err, &repeat) {
			return repeat.out // the first call's outcome, recorded
		}
		te := &ToolError{Message: err.Error(), CanRetry: true, RetryAfter: time.Second}
		o.Status, o.Err, o.Result = StatusUnrecorded, te, ErrorResult(te.Message)
		return o
	}
	return nil
}

// failed is the outcome of a handler that returned an error, logged by
// its kind.
//
//go:noinline
func (s *Server) failed(ctx context.Context, o *Outcome, t *Tool, err error) *Outcome {
	if ctx.Err() != nil && context.Cause(ctx) != ctx.Err() {
		err = context.Cause(ctx) // why the call was stopped (a task cancelled)
	}
	var (
		argErr  *ArgumentError
		toolErr *ToolError
	)
	switch {
	case errors.Is(err, errTimedOut):
		o.Status, o.Err = StatusTimeout, err
		o.Result = ErrorResult(fmt.Sprintf("Tool %s timed out after %s.", t.Name, s.timeout(t)))
		s.log.WarnContext(ctx, "tool call timed out", "tool", t.Name, "timeout", s.timeout(t))
	case errors.As(err, &argErr):
		return o.invalid(&ValidationError{Issues: []ValidationIssue{argErr.issue()}})
	case errors.As(err, &toolErr):
		o.Status, o.Err = StatusFailed, err
		o.Result = ErrorResult(toolErr.Message)
		s.log.InfoContext(ctx, "tool reported an error", "tool", t.Name, "err", toolErr.Message, "developer_message", toolErr.DeveloperMessage, "can_retry", toolErr.CanRetry)
	default:
		o.Status, o.Err = StatusFailed, err
		o.Result = ErrorResult(err.Error())
		var (
			pe  *panicError
			enc *resultEncodingError
		)
		switch {
		case errors.As(err, &pe):
			s.log.ErrorContext(ctx, "tool panicked", "tool", t.Name, "panic", pe.value, "stack", string(pe.stack))
		case errors.As(err, &enc):
			s.log.ErrorContext(ctx, "tool result could not be encoded", "tool", t.Name, "err", enc.err)
		default:
			s.log.ErrorContext(ctx, "tool failed", "tool", t.Name, "err", err)
		}
	}
	return o
}

var emptyObject = json.RawMessage("{}")

// unapproved is the outcome of a call its approval step stopped.
//
//go:noinline
func (o *Outcome) unapproved(err error) *Outcome {
	o.Status, o.Err = StatusFailed, err
	var unfiled errUnfiled
	if errors.As(err, &unfiled) {
		o.Status, o.Err = StatusUnrecorded, &ToolError{Message: unfiled.msg, CanRetry: true, RetryAfter: time.Second}
	}
	o.Result = ErrorResult(o.Err.Error())
	return o
}

//go:noinline
func (o *Outcome) invalid(err *ValidationError) *Outcome {
	o.Status, o.Err = StatusInvalid, err
	o.Result = ErrorResult(err.Error())
	return o
}

// checkArgs is everything between the body and the handler: the bounds
// parseArgs enforces, then the tool's compiled input schema. Arguments that
// the tool's fast checker knows to be valid skip both (it says so only of
// bodies they accept); any other body takes the full path, which gives
// the errors.
func checkArgs(ct *compiledTool, args []byte) *ValidationError {
	if ct.fast != nil && ct.fast.Valid(args) {
		return nil
	}
	v, problem, issues := parseArgs(args)
	if problem != nil {
		return &ValidationError{Malformed: true, Issues: []ValidationIssue{{Path: "", Message: problem.msg, Keyword: "format"}}}
	}
	if issues == nil {
		issues = ct.validate(v)
	}
	if issues != nil {
		return &ValidationError{Issues: issues}
	}
	return nil
}

// shape makes a handler's result what every surface sends: never nil,
// content never nil, and structured content an object (MCP requires one),
// so that a tool whose output is a string or a number answers
// {"result": value} on every surface alike. The handler may share the
// result it returns, so a changed one is a copy.
func shape(ct *compiledTool, res *Result) *Result {
	if res == nil {
		return &Result{Content: []Content{}}
	}
	wrap := res.StructuredContent != nil && ct.output.wrap
	if res.Content != nil && !wrap {
		return res
	}
	r := *res
	if r.Content == nil {
		r.Content = []Content{}
	}
	if wrap {
		r.StructuredContent = map[string]any{"result": r.StructuredContent}
	}
	return &r
}

// CompactStructured reports whether raw, the result's structured content
// when it is JSON already (StructuredResult's), is valid and compact JSON
// within the nesting bound: written as it is, it is what json.Compact
// would write. The pipeline scanned it once (for history); asking again
// costs nothing.
func (o *Outcome) CompactStructured(raw json.RawMessage) bool {
	return o.structured.compactJSON(raw)
}

// ResultValue is a result as one JSON value, for the protocols that carry
// one (OXP's value, /v1's result, history): the structured content
// (unwrapped where the pipeline wrapped a scalar as {"result": ...}), else
// the text of a text result, else the content blocks.
func (s *Server) ResultValue(o *Outcome) any {
	r := o.Result
	if r.StructuredContent != nil {
		if ct := s.compiledOf(o); ct != nil && ct.output.wrap {
			if m, ok := r.StructuredContent.(map[string]any); ok {
				return m["result"]
			}
		}
		return r.StructuredContent
	}
	if len(r.Content) == 1 && r.Content[0].Type == ContentText {
		return r.Content[0].Text
	}
	return r.Content
}

// timeout is how long a call of t may run: its own Timeout, else
// Options.CallTimeout; zero for no limit.
func (s *Server) timeout(t *Tool) time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return s.opts.CallTimeout
}

// errTimedOut is returned by run when the per-call timeout passes.
var errTimedOut = errors.New("tool call timed out")

// run calls the handler, recovering a panic. Without a timeout it runs
// inline; with one it runs in its own goroutine so that a handler that
// ignores ctx cannot hold the caller past the deadline (the goroutine
// finishes on its own, and its result is dropped).
func (s *Server) run(ctx context.Context, t *Tool, args json.RawMessage) (*Result, error) {
	d := s.timeout(t)
	if d <= 0 {
		return safeCall(ctx, t.Handler, args)
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	type ret struct {
		res *Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := safeCall(ctx, t.Handler, args)
		done <- ret{res, err}
	}()
	select {
	case r := <-done:
		// Past the deadline, the call timed out whatever the handler
		// returned: when both are ready, select picks either, and a
		// loaded machine can wake this goroutine after both.
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, errTimedOut
		}
		return r.res, r.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && context.Cause(ctx) == context.DeadlineExceeded {
			return nil, errTimedOut
		}
		return nil, ctx.Err()
	}
}

// panicError is a recovered handler panic.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("tool panicked: %v", e.value) }

// Unwrap makes a panic's error ErrPanic.
func (e *panicError) Unwrap() error { return ErrPanic }

// ErrPanic is wrapped by the error of an outcome whose handler panicked
// (Outcome.Err): errors.Is(out.Err, ErrPanic). The panic is logged with
// its stack; the caller is told only that the tool failed.
var ErrPanic = errors.New("tool panicked")

func safeCall(ctx context.Context, h Handler, args json.RawMessage) (res *Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, &panicError{value: v, stack: debug.Stack()}
		}
	}()
	return h(ctx, args)
}
