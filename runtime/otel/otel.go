// Package otel traces a toolgen server with OpenTelemetry, by the
// semantic conventions for MCP and GenAI tools: a span for every tool call
// on every surface (`tools/call NAME` on MCP, `execute_tool NAME` on the
// explorer, OXP and /v1), a child span for waiting for an approval, on
// request ([Options.StepSpans]) child spans for the other steps too
// (validation, the history writes, the handler), a span for each of MCP's
// other requests, and the metric mcp.server.operation.duration.
//
// Importing the package is enough for a server whose main is
// runtime/serve's Main: it configures tracing from the standard OTEL_*
// environment variables (see [Setup]) and flushes on shutdown.
//
//	import _ "github.com/toolgen-go/toolgen/runtime/otel"
//
// A program that builds its server itself sets Options.Tracer to
// [NewTracer], with its own providers or the global ones. A program that
// imports neither links no OpenTelemetry package.
//
// The guide, with a console exporter to try it, is
// https://github.com/toolgen-go/toolgen/blob/main/docs/observability.md.
package otel

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	gotel "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/semconv/v1.40.0/mcpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/toolgen-go/toolgen/runtime/otel"

// toolgen's own attributes.
const (
	AttrSurface      = attribute.Key("toolgen.surface")
	AttrInvocationID = attribute.Key("toolgen.invocation_id")
	AttrStatus       = attribute.Key("toolgen.status")
)

// Options configures [NewTracer]. The zero value traces with the global
// providers and propagator, and records no arguments or results.
type Options struct {
	// TracerProvider makes the tracer; nil means otel.GetTracerProvider().
	TracerProvider trace.TracerProvider
	// MeterProvider makes mcp.server.operation.duration; nil means
	// otel.GetMeterProvider().
	MeterProvider metric.MeterProvider
	// Propagator reads the caller's trace context (traceparent,
	// tracestate, baggage); nil means otel.GetTextMapPropagator().
	Propagator propagation.TextMapPropagator
	// RecordArguments and RecordResults put a call's arguments
	// (gen_ai.tool.call.arguments) and result (gen_ai.tool.call.result)
	// on its span, after Redact. Off by default: they may hold personal
	// data. Secrets never reach either: a call carries them apart.
	RecordArguments, RecordResults bool
	// Redact, when set, edits what is recorded (the record's Input and
	// Result), as Options.RedactHistory does for history; Setup passes
	// the server's. Like it, it sets a new Input or Result rather than
	// write into the bytes it is given, which are the call's own.
	Redact func(*history.Record)
	// StepSpans makes a child span of the call's span for each of its
	// steps: validate, history.start, handler, history.finish. Off by
	// default: they are four spans more a call, for time the call's span
	// already holds, and make a traced REST call take about a fifth more
	// CPU (BenchmarkRESTCall, BENCHMARKS.md). Waiting for an approval,
	// which takes a person's time, is a child span (approval) either
	// way.
	StepSpans bool
}

// NewTracer returns a runtime.Tracer that traces with OpenTelemetry.
func NewTracer(o *Options) runtime.Tracer {
	t := &tracer{}
	if o != nil {
		t.o = *o
	}
	tp := t.o.TracerProvider
	if tp == nil {
		tp = gotel.GetTracerProvider()
	}
	mp := t.o.MeterProvider
	if mp == nil {
		mp = gotel.GetMeterProvider()
	}
	t.prop = t.o.Propagator
	if t.prop == nil {
		t.prop = gotel.GetTextMapPropagator()
	}
	t.tracer = tp.Tracer(ScopeName)
	var err error
	if t.duration, err = mcpconv.NewServerOperationDuration(mp.Meter(ScopeName)); err != nil {
		gotel.Handle(err)
	}
	return t
}

type tracer struct {
	o        Options
	tracer   trace.Tracer
	prop     propagation.TextMapPropagator
	duration mcpconv.ServerOperationDuration
	// starts caches what starts a plain call's span (see start), so that
	// a call does not build the same name and attributes each time.
	starts sync.Map // callKind -> *callStart
	nStart atomic.Int32
}

// The span kinds' options, made once: each trace.WithSpanKind allocates.
var (
	serverKind   = trace.WithSpanKind(trace.SpanKindServer)
	internalKind = trace.WithSpanKind(trace.SpanKindInternal)
)

// callKind is what a plain call's span name and first attributes depend
// on.
type callKind struct{ tool, surface string }

// callStart is the name and the options of a call's span, but for what
// the call adds to them.
type callStart struct {
	name  string
	attrs []attribute.KeyValue
	opts  []trace.SpanStartOption // serverKind, attrs
}

// maxStarts bounds the cache: a span is started before the tool is looked
// up, so a client naming tools that do not exist must not grow it.
const maxStarts = 1024

func newCallStart(k callKind) *callStart {
	name := "execute_tool " + k.tool
	if k.surface == runtime.SurfaceMCP {
		name = "tools/call " + k.tool
	}
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameKey.String("execute_tool"),
		semconv.GenAIToolNameKey.String(k.tool),
	}
	if k.surface != "" {
		attrs = append(attrs, AttrSurface.String(k.surface))
	}
	attrs = slices.Clip(attrs) // a call's own attributes are appended to a copy
	return &callStart{name: name, attrs: attrs, opts: []trace.SpanStartOption{serverKind, trace.WithAttributes(attrs...)}}
}

// start is c's callStart, from the cache when it can be.
func (t *tracer) start(c *runtime.Call) *callStart {
	k := callKind{c.Tool, c.Surface}
	if v, ok := t.starts.Load(k); ok {
		return v.(*callStart)
	}
	cs := newCallStart(k)
	if t.nStart.Load() < maxStarts {
		if _, loaded := t.starts.LoadOrStore(k, cs); !loaded {
			t.nStart.Add(1)
		}
	}
	return cs
}

// parent is ctx continuing the trace the caller sent, when it sent one.
func (t *tracer) parent(ctx context.Context, carrier map[string]string) context.Context {
	if len(carrier) == 0 {
		return ctx
	}
	return t.prop.Extract(ctx, propagation.MapCarrier(carrier))
}

// isMCP reports whether info is an MCP request, which MCP's semantic
// conventions describe.
func isMCP(info *runtime.RPCInfo) bool { return info != nil && info.Protocol == runtime.SurfaceMCP }

func mcpAttrs(info *runtime.RPCInfo) []attribute.KeyValue {
	if !isMCP(info) {
		return nil
	}
	attrs := []attribute.KeyValue{semconv.McpMethodNameKey.String(info.Method)}
	if info.ProtocolVersion != "" {
		attrs = append(attrs, semconv.McpProtocolVersionKey.String(info.ProtocolVersion))
	}
	if info.SessionID != "" {
		attrs = append(attrs, semconv.McpSessionIDKey.String(info.SessionID))
	}
	if info.RequestID != "" {
		id := info.RequestID
		var s string
		if json.Unmarshal([]byte(id), &s) == nil {
			id = s // a string id, without its quotes
		}
		attrs = append(attrs, semconv.JSONRPCRequestIDKey.String(id))
	}
	return attrs
}

func (t *tracer) StartCall(ctx context.Context, c *runtime.Call) (context.Context, runtime.CallSpan) {
	st := t.start(c)
	attrs := st.attrs
	attrs = append(attrs, mcpAttrs(c.RPC)...)
	if c.ID != "" {
		attrs = append(attrs, semconv.GenAIToolCallIDKey.String(c.ID))
	}
	if t.o.RecordArguments {
		r := history.Record{Tool: c.Tool, Input: c.Arguments}
		if t.o.Redact != nil {
			t.o.Redact(&r)
		}
		if len(r.Input) > 0 {
			attrs = append(attrs, semconv.GenAIToolCallArgumentsKey.String(string(r.Input)))
		}
	}
	opts := st.opts
	if len(attrs) > len(st.attrs) {
		opts = []trace.SpanStartOption{serverKind, trace.WithAttributes(attrs...)}
	}
	ctx, span := t.tracer.Start(t.parent(ctx, c.TraceContext), st.name, opts...)
	cs := &callSpan{t: t, span: span, call: c, ctx: ctx}
	if isMCP(c.RPC) {
		cs.start = time.Now() // for mcp.server.operation.duration
	}
	return ctx, cs
}

type callSpan struct {
	t     *tracer
	span  trace.Span
	call  *runtime.Call
	start time.Time
	ctx   context.Context
}

// noStep ends a step that has no span.
func noStep(error) {}

func (cs *callSpan) Step(ctx context.Context, name string) (context.Context, func(error)) {
	if !cs.t.o.StepSpans && name != runtime.StepApproval {
		return ctx, noStep
	}
	ctx, span := cs.t.tracer.Start(ctx, name, internalKind)
	return ctx, func(err error) {
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
			span.SetAttributes(semconv.ErrorTypeKey.String(errorType(err)))
		}
		span.End()
	}
}

// errorType names an error for error.type: a tool's own error, a
// timeout, else the convention's fallback.
func errorType(err error) string {
	var te *runtime.ToolError
	switch {
	case errors.As(err, &te):
		return "tool_error"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "_OTHER"
}

func (cs *callSpan) TraceID() string {
	if sc := cs.span.SpanContext(); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return ""
}

func (cs *callSpan) End(o *runtime.Outcome) {
	span := cs.span
	attrs := make([]attribute.KeyValue, 1, 4)
	attrs[0] = AttrStatus.String(o.Status.String())
	if o.InvocationID != "" {
		attrs = append(attrs, AttrInvocationID.String(o.InvocationID))
	}
	errType := ""
	switch o.Status {
	case runtime.StatusOK:
	case runtime.StatusFailed:
		errType = "tool_error" // an isError result
	default:
		errType = o.Status.String()
	}
	if errType != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(errType))
		msg := ""
		if o.Err != nil {
			msg = o.Err.Error()
		}
		span.SetStatus(codes.Error, msg)
	}
	if cs.t.o.RecordResults && o.Status == runtime.StatusOK && o.Result != nil {
		r := history.Record{Tool: cs.call.Tool, Result: resultJSON(o.Result)}
		if cs.t.o.Redact != nil {
			cs.t.o.Redact(&r)
		}
		if len(r.Result) > 0 {
			attrs = append(attrs, semconv.GenAIToolCallResultKey.String(string(r.Result)))
		}
	}
	span.SetAttributes(attrs...)
	span.End()
	if c := cs.call; isMCP(c.RPC) {
		mattrs := []attribute.KeyValue{semconv.GenAIToolNameKey.String(c.Tool), semconv.GenAIOperationNameKey.String("execute_tool")}
		if c.RPC.ProtocolVersion != "" {
			mattrs = append(mattrs, semconv.McpProtocolVersionKey.String(c.RPC.ProtocolVersion))
		}
		if errType != "" {
			mattrs = append(mattrs, semconv.ErrorTypeKey.String(errType))
		}
		cs.t.duration.Record(cs.ctx, time.Since(cs.start).Seconds(), mcpconv.MethodNameAttr(c.RPC.Method), mattrs...)
	}
}

// resultJSON is what a result says, as JSON: its structured content,
// else its content blocks.
func resultJSON(r *runtime.Result) json.RawMessage {
	var v any = r.Content
	if r.StructuredContent != nil {
		v = r.StructuredContent
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func (t *tracer) StartRequest(ctx context.Context, r *runtime.RPCInfo) (context.Context, func(error)) {
	name := r.Method
	attrs := mcpAttrs(r)
	switch r.Method {
	case "resources/read":
		attrs = append(attrs, semconv.McpResourceURIKey.String(r.Name))
	case "prompts/get":
		attrs = append(attrs, semconv.GenAIPromptNameKey.String(r.Name))
	}
	if r.Name != "" {
		name += " " + r.Name
	}
	ctx, span := t.tracer.Start(t.parent(ctx, r.TraceContext), name, serverKind, trace.WithAttributes(attrs...))
	start := time.Now()
	return ctx, func(err error) {
		var mattrs []attribute.KeyValue
		if r.ProtocolVersion != "" {
			mattrs = append(mattrs, semconv.McpProtocolVersionKey.String(r.ProtocolVersion))
		}
		if err != nil {
			et := "_OTHER"
			var je *jsonrpc.Error
			if errors.As(err, &je) {
				et = strconv.FormatInt(je.Code, 10)
				span.SetAttributes(semconv.RPCResponseStatusCodeKey.String(et))
			}
			span.SetAttributes(semconv.ErrorTypeKey.String(et))
			span.SetStatus(codes.Error, err.Error())
			mattrs = append(mattrs, semconv.ErrorTypeKey.String(et))
		}
		span.End()
		t.duration.Record(ctx, time.Since(start).Seconds(), mcpconv.MethodNameAttr(r.Method), mattrs...)
	}
}

// LogHandler wraps h so that a record logged with the context of a traced
// call carries its trace_id and span_id.
func LogHandler(h slog.Handler) slog.Handler { return logHandler{h} }

type logHandler struct{ slog.Handler }

func (l logHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return l.Handler.Handle(ctx, r)
}

func (l logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{l.Handler.WithAttrs(attrs)}
}

func (l logHandler) WithGroup(name string) slog.Handler { return logHandler{l.Handler.WithGroup(name)} }
