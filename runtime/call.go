package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"
)

// callStatus classifies how a call ended; each surface maps it to its own
// status codes.
type callStatus int

const (
	callOK      callStatus = iota // the handler returned a result that is not an error
	callFailed                    // isError result, handler error or panic
	callInvalid                   // the arguments failed the schema or could not be decoded
	callTimeout                   // the per-call timeout passed first
)

// call is one invocation as it moves through the pipeline.
type call struct {
	tool     *Tool
	args     json.RawMessage
	status   callStatus
	result   *Result // never nil once run returns
	issues   []ValidationIssue
	err      error // the handler's error or panic, for logs and history
	duration time.Duration
}

// call runs the pipeline for arguments given as JSON text, on every
// surface: absent arguments are {}; anything parseArgs refuses is invalid
// arguments; then [Server.invoke].
func (s *Server) call(ctx context.Context, t *Tool, args []byte) *call {
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	v, problem, issues := parseArgs(args)
	return s.callParsed(ctx, t, args, v, problem, issues)
}

// callParsed is call for arguments parseArgs has read.
func (s *Server) callParsed(ctx context.Context, t *Tool, args []byte, v any, problem *argsProblem, issues []ValidationIssue) *call {
	if problem != nil {
		msg := problem.msg
		if problem.notJSON {
			msg = "not JSON: " + msg
		}
		issues = []ValidationIssue{{Path: "", Message: msg, Keyword: "format"}}
	}
	if issues != nil {
		c := &call{tool: t, args: args}
		c.invalid(issues)
		return c
	}
	return s.invoke(ctx, t, args, v)
}

// invoke runs the pipeline for a tool whose arguments parseArgs accepted
// (args as text, v decoded): validate against the compiled input schema,
// then run the handler in ctx with the configured timeout and panic
// recovery.
func (s *Server) invoke(ctx context.Context, t *Tool, args json.RawMessage, v any) *call {
	c := &call{tool: t, args: args}
	start := time.Now()
	defer func() { c.duration = time.Since(start) }()

	if issues := s.schemas.get(t).validate(v); issues != nil {
		c.invalid(issues)
		return c
	}

	res, err := s.run(ctx, t, args)
	var argErr *ArgumentError
	switch {
	case errors.Is(err, errTimedOut):
		c.status, c.err = callTimeout, err
		c.result = ErrorResult(fmt.Sprintf("Tool %s timed out after %s.", t.Name, s.opts.CallTimeout))
		s.log.WarnContext(ctx, "tool call timed out", "tool", t.Name, "timeout", s.opts.CallTimeout)
	case errors.As(err, &argErr):
		c.invalid([]ValidationIssue{argErr.issue()})
	case err != nil:
		c.status, c.err = callFailed, err
		c.result = ErrorResult(err.Error())
		var pe *panicError
		if errors.As(err, &pe) {
			s.log.ErrorContext(ctx, "tool panicked", "tool", t.Name, "panic", pe.value, "stack", string(pe.stack))
		} else {
			s.log.ErrorContext(ctx, "tool failed", "tool", t.Name, "err", err)
		}
	default:
		if res == nil {
			res = &Result{}
		}
		if res.Content == nil {
			// A copy: the handler may return a value it shares.
			r := *res
			r.Content = []Content{}
			res = &r
		}
		c.result = res
		if res.IsError {
			c.status = callFailed
		}
	}
	return c
}

func (c *call) invalid(issues []ValidationIssue) {
	c.status, c.issues = callInvalid, issues
	c.err = &ValidationError{Issues: issues}
	c.result = ErrorResult(c.err.Error())
}

// errTimedOut is returned by run when the per-call timeout passes.
var errTimedOut = errors.New("tool call timed out")

// run calls the handler. Without a timeout it runs inline; with one it runs
// in its own goroutine so that a handler that ignores ctx cannot hold the
// caller past the deadline (the goroutine finishes on its own, and its
// result is dropped).
func (s *Server) run(ctx context.Context, t *Tool, args json.RawMessage) (*Result, error) {
	if s.opts.CallTimeout <= 0 {
		return safeCall(ctx, t.Handler, args)
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.CallTimeout)
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
		if r.err != nil && errors.Is(r.err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
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

func safeCall(ctx context.Context, h Handler, args json.RawMessage) (res *Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, &panicError{value: v, stack: debug.Stack()}
		}
	}()
	return h(ctx, args)
}
