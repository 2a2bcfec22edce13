package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// A call and its outcome: what a surface hands [Server.Invoke] and what it
// gets back (invoke.go runs it).

// Surfaces, as [Call.Surface] names them.
const (
	SurfaceExplorer = "explorer" // POST /tools/{name}/call and /validate
	SurfaceMCP      = "mcp"      // tools/call over Streamable HTTP or stdio
	SurfaceOXP      = "oxp"      // POST /oxp/tools/call
	SurfaceV1       = "v1"       // POST /v1/tools/{name}
)

// Call asks [Server.Invoke] to run a tool.
type Call struct {
	// Tool is the tool's name.
	Tool string
	// Arguments is the JSON object of arguments; empty means {}.
	Arguments json.RawMessage
	// Surface names the protocol the call came in on (SurfaceExplorer,
	// SurfaceMCP, ...), for middleware; empty for a direct call.
	Surface string
	// ValidateOnly stops the pipeline before the handler: the outcome says
	// whether the arguments would be accepted, and the tool does not run.
	ValidateOnly bool
	// ID is the caller's id for this call (OXP's call_id), when it gave
	// one; TraceID its trace id (OXP's trace_id, a W3C traceparent's).
	ID, TraceID string
	// CorrelationID ties the call to a larger workflow (/v1's
	// correlation_id, an X-Correlation-ID header); history records it.
	CorrelationID string
	// IdempotencyKey, when the caller gives one (OXP's call_id, an
	// Idempotency-Key header on /v1 and the explorer), makes the call
	// happen once per caller: a repeat answers the first call's recorded
	// outcome without running the tool, waits for it while it runs, and
	// is refused (StatusConflict) for another tool or other arguments.
	// It holds across replicas that share a history store.
	IdempotencyKey string
	// InvocationID is the id under which history records the call, set
	// by the recording middleware (the outermost) for the middleware and
	// the tool within it: a tool reads it with [CallFromContext].
	InvocationID string
	// TraceContext is the W3C trace context the caller sent
	// ("traceparent", "tracestate", "baggage": HTTP headers, or MCP's
	// params._meta), for Options.Tracer to continue; nil for none.
	TraceContext map[string]string
	// RPC describes the JSON-RPC request the call came in (MCP's
	// tools/call), for Options.Tracer; nil on surfaces that are not
	// JSON-RPC.
	RPC *RPCInfo

	// BeforeRun are called, in order, just before the handler runs
	// (after validation, approval and the pending record): what a surface
	// (MCP's tasks) or the runtime's own middleware (recording) needs to
	// do at that point, handed down explicitly rather than through ctx.
	// An error stops the call: the handler does not run.
	BeforeRun []func(ctx context.Context, t *Tool) error
	// span is the call's span, when Options.Tracer traces it.
	span CallSpan
}

type callKey struct{}

// CallFromContext returns the call a tool is running for: its surface, id
// and trace id.
func CallFromContext(ctx context.Context) (*Call, bool) {
	c, ok := ctx.Value(callKey{}).(*Call)
	return c, ok
}

// Status says how an invocation ended. Each surface maps it to its own
// status codes.
type Status int

const (
	// StatusOK: the handler returned a result that is not an error (for
	// a ValidateOnly call: the arguments are valid).
	StatusOK Status = iota
	// StatusFailed: the tool failed: an isError result, an error, or a
	// panic.
	StatusFailed
	// StatusInvalid: the arguments were refused before or while they were
	// decoded (not JSON, out of bounds, failing the input schema, not
	// fitting the input type). Err is a [*ValidationError].
	StatusInvalid
	// StatusTimeout: Options.CallTimeout passed before the handler
	// returned.
	StatusTimeout
	// StatusNotFound: there is no tool of that name. Err wraps
	// [ErrToolNotFound].
	StatusNotFound
	// StatusUnavailable: the [ToolsProvider] failed. Err is its error.
	StatusUnavailable
	// StatusForbidden: behind an auth hook, the caller lacks a scope the
	// tool declares (Tool.Scopes). Err is a [*ScopeError]. Checked before
	// the arguments.
	StatusForbidden
	// StatusRateLimited: the caller is past the tool's rate limit
	// (Tool.RateLimit). Err is a [*ToolError] whose RetryAfter says when
	// a call will be accepted again.
	StatusRateLimited
	// StatusConflict: the call repeats an idempotency key whose first
	// call was another (another tool, other arguments), or is still
	// running. Err is a [*ToolError] that says which.
	StatusConflict
	// StatusUnrecorded: the history store could not record the call, so
	// it was not run (history fails closed; see
	// Options.HistoryBestEffort). Err is a [*ToolError] that says to
	// retry.
	StatusUnrecorded
)

var statusNames = [...]string{"ok", "failed", "invalid", "timeout", "not_found", "unavailable", "forbidden", "rate_limited", "conflict", "unrecorded"}

// String returns the status as a lower-case word ("ok", "not_found"),
// suitable for logs and metric labels.
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// ErrToolNotFound is wrapped by the error of a call to a tool that does
// not exist.
var ErrToolNotFound = errors.New("tool not found")

// Outcome is what [Server.Invoke] returns: everything a surface needs to
// answer, and everything middleware needs to record.
type Outcome struct {
	Status Status
	// Tool is the tool that was called; nil for StatusNotFound and
	// StatusUnavailable.
	Tool *Tool
	// Result is what the caller is told. For a handler that returned, it
	// is its result shaped for the wire (content never nil; structured
	// content of a tool whose output schema is not an object wrapped as
	// {"result": value}); otherwise an isError result saying what went
	// wrong. It is nil only for a ValidateOnly call with valid arguments.
	// Treat it as read-only: it may be shared with the handler.
	Result *Result
	// Err is why the call did not succeed: a [*ValidationError]
	// (StatusInvalid), the handler's error (a [*ToolError] when the tool
	// or the pipeline reports a failure for the caller) or recovered
	// panic, a timeout, or the provider's error. Nil for StatusOK and for an isError result
	// the handler returned without an error.
	Err error
	// Duration is how long Invoke took, from lookup to shaped result.
	Duration time.Duration
	// InvocationID is the id under which history recorded the call; empty
	// when it was not recorded (no such tool, a ValidateOnly call).
	InvocationID string
	// Approval is how the call was approved or refused, for a tool that
	// needs approval (Tool.Approval); nil for any other, and for a call
	// stopped before it was asked.
	Approval *history.Approval
	// TraceID is the trace id of the call's span, when Options.Tracer
	// traced it; "" otherwise.
	TraceID string

	// compiled is what the pipeline derived from Tool's schemas, kept so
	// that shaping the result, recording it, counting it and answering
	// with it look the tool up once a call rather than once each. An
	// outcome the pipeline did not make (a middleware's own) may have
	// none, and is looked up; one from another server's pipeline has that
	// server's, derived from the same tool.
	compiled compiledRef
	// structured is what history found of the structured content's JSON,
	// for the explorer's encoder.
	structured jsonCheck
}

// compiledRef is a tool's derived schemas and the tool they are of.
type compiledRef struct {
	tool *Tool
	ct   *compiledTool
}

// derived is what a pipeline derived from o.Tool's schemas, when o
// carries it; nil otherwise.
func (o *Outcome) derived() *compiledTool {
	if o.compiled.tool != o.Tool {
		return nil
	}
	return o.compiled.ct
}

// compiledOf returns what the server derived from o.Tool's schemas; nil
// for an outcome without a tool (a middleware's own may have none).
func (s *Server) compiledOf(o *Outcome) *compiledTool {
	if ct := o.derived(); ct != nil {
		return ct
	}
	if o.Tool == nil {
		return nil
	}
	return s.compiled.get(o.Tool)
}

// Issues returns the reasons the arguments were refused (StatusInvalid),
// each at its JSON Pointer path.
func (o *Outcome) Issues() []ValidationIssue {
	var ve *ValidationError
	if errors.As(o.Err, &ve) {
		return ve.Issues
	}
	return nil
}
