package runtime

import (
	"context"
)

// Tracing: the seam through which a tracing system (runtime/otel, for
// OpenTelemetry) sees the server's work without the runtime linking one.
// Options.Tracer is told of every tool call on every surface before
// anything else happens to it (so its span holds the history writes as
// well as the handler), of the steps inside a call, and of MCP's other
// requests.

// Tracer observes the server's work for a tracing system; see
// Options.Tracer. Its methods are called concurrently.
type Tracer interface {
	// StartCall is called as a tool call begins, before it is recorded.
	// It returns the context the call runs in (carrying its span) and
	// the span, which the server ends with the call's outcome.
	StartCall(ctx context.Context, c *Call) (context.Context, CallSpan)
	// StartRequest is called for a JSON-RPC request that is not a tool
	// call (MCP's tools/list, resources/read, prompts/get, ...). It returns the
	// context the request is served in and a function the server calls
	// with the request's error (nil on success) when it has been served.
	StartRequest(ctx context.Context, r *RPCInfo) (context.Context, func(err error))
}

// CallSpan is the span of one tool call.
type CallSpan interface {
	// Step starts a step of the call: StepValidate, StepApproval,
	// StepHistoryStart, StepHandler, StepHistoryFinish. The server calls
	// the returned function with the step's error (nil on success).
	Step(ctx context.Context, name string) (context.Context, func(err error))
	// TraceID is the span's trace id (32 lower-case hex digits), or "".
	TraceID() string
	// End ends the span with the call's outcome, its InvocationID set.
	End(o *Outcome)
}

// Steps of a call, as CallSpan.Step names them.
const (
	StepValidate      = "validate"
	StepApproval      = "approval"
	StepHistoryStart  = "history.start"
	StepHandler       = "handler"
	StepHistoryFinish = "history.finish"
)

// RPCInfo tells which JSON-RPC request a call (Call.RPC), or a request
// that is not a call (Tracer.StartRequest), came in: what a tracer names a
// span after. A surface that speaks JSON-RPC sets it (MCP's does, with
// Protocol SurfaceMCP); the core only hands it on.
type RPCInfo struct {
	// Protocol is the protocol the request speaks, as a surface's name
	// (SurfaceMCP).
	Protocol string
	// Method is the JSON-RPC method: "tools/call", "tools/list", ...
	Method string
	// Name is what the request names: a tool or prompt name, a
	// resource URI; "" for none.
	Name string
	// ProtocolVersion is the revision the request speaks.
	ProtocolVersion string
	// SessionID is the protocol's session id (MCP's); "" for a request
	// without one (MCP 2026-07-28, stdio).
	SessionID string
	// RequestID is the JSON-RPC id, as the client wrote it ("7",
	// "\"abc\""); "" when unknown (a batch, stdio).
	RequestID string
	// TraceContext is the W3C trace context the client sent in the
	// request's params._meta ("traceparent", "tracestate", "baggage").
	TraceContext map[string]string
}

// traced wraps the pipeline, middleware and recording included, in the
// tracer's call span.
func (s *Server) traced(next InvokeFunc) InvokeFunc {
	return func(ctx context.Context, c *Call) *Outcome {
		ctx, span := s.opts.Tracer.StartCall(ctx, c)
		if span == nil {
			return next(ctx, c)
		}
		tc := *c
		tc.span = span
		out := next(ctx, &tc)
		out.TraceID = span.TraceID()
		span.End(out)
		return out
	}
}

// step starts a step of c's span; without a tracer it does nothing.
func (c *Call) step(ctx context.Context, name string) (context.Context, func(error)) {
	if c.span == nil {
		return ctx, func(error) {}
	}
	return c.span.Step(ctx, name)
}
