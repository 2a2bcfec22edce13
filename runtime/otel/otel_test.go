package otel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/otel"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// Every surface's call makes one server span, by the conventions, with
// the call's steps as its children when asked for, continuing the
// caller's trace: one table, every surface.

const (
	callerTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerParent = "00f067aa0ba902b7"
	traceparent  = "00-" + callerTrace + "-" + callerParent + "-01"
)

type weatherIn struct {
	City string `json:"city"`
}

type fixture struct {
	url     string
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
}

func newFixture(t *testing.T, o otel.Options) *fixture {
	f := &fixture{spans: tracetest.NewSpanRecorder(), metrics: sdkmetric.NewManualReader()}
	o.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(f.spans))
	o.MeterProvider = sdkmetric.NewMeterProvider(sdkmetric.WithReader(f.metrics))
	o.Propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	get := runtime.MustNewTool("get_weather", "The weather.", func(_ context.Context, in weatherIn) (string, error) {
		if in.City == "Atlantis" {
			return "", &runtime.ToolError{Message: "No such city."}
		}
		return "sunny in " + in.City, nil
	})
	s := runtime.NewServer(runtime.ToolList{get}, &runtime.Options{
		AllowExecute: true,
		Tracer:       otel.NewTracer(&o),
		Logger:       slog.New(slog.DiscardHandler),
	})
	hs := httptest.NewServer(serve.NewHandler(s, nil))
	t.Cleanup(hs.Close)
	f.url = hs.URL
	return f
}

func post(t *testing.T, url, body string, header ...string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// openSession opens an MCP session of revision 2025-11-25.
func openSession(t *testing.T, url string) string {
	t.Helper()
	_, _, h := post(t, url+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		"Accept", "application/json, text/event-stream")
	sid := h.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("no session")
	}
	post(t, url+"/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "Accept", "application/json, text/event-stream", "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
	return sid
}

const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}`

type surfaceCase struct {
	name string
	// call calls get_weather with args, the caller's trace context in
	// the request (a header, or MCP's _meta); it returns the body.
	call     func(t *testing.T, url, args string) string
	spanName string
	attrs    map[string]string // besides the common ones
}

func surfaceCases(t *testing.T, url string) []surfaceCase {
	sid := openSession(t, url)
	mcpAccept := []string{"Accept", "application/json, text/event-stream"}
	return []surfaceCase{
		{
			name: "explorer",
			call: func(t *testing.T, url, args string) string {
				_, b, _ := post(t, url+"/tools/get_weather/call", args, "traceparent", traceparent)
				return b
			},
			spanName: "execute_tool get_weather",
			attrs:    map[string]string{"toolgen.surface": "explorer"},
		},
		{
			name: "oxp",
			call: func(t *testing.T, url, args string) string {
				_, b, _ := post(t, url+"/oxp/tools/call", `{"request":{"tool_id":"Tools.GetWeather","input":`+args+`}}`, "traceparent", traceparent)
				return b
			},
			spanName: "execute_tool get_weather",
			attrs:    map[string]string{"toolgen.surface": "oxp"},
		},
		{
			name: "v1",
			call: func(t *testing.T, url, args string) string {
				_, b, _ := post(t, url+"/v1/tools/get_weather", `{"input":`+args+`}`, "traceparent", traceparent)
				return b
			},
			spanName: "execute_tool get_weather",
			attrs:    map[string]string{"toolgen.surface": "v1"},
		},
		{
			name: "mcp-session",
			call: func(t *testing.T, url, args string) string {
				_, b, _ := post(t, url+"/mcp", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":`+args+`}}`,
					append(mcpAccept, "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25", "traceparent", traceparent)...)
				return b
			},
			spanName: "tools/call get_weather",
			attrs: map[string]string{"toolgen.surface": "mcp", "mcp.method.name": "tools/call", "mcp.protocol.version": "2025-11-25",
				"mcp.session.id": sid, "jsonrpc.request.id": "7"},
		},
		{
			// At 2026-07-28 the trace context comes in params._meta.
			name: "mcp-2026-07-28",
			call: func(t *testing.T, url, args string) string {
				_, b, _ := post(t, url+"/mcp", `{"jsonrpc":"2.0","id":"call-8","method":"tools/call","params":{"name":"get_weather","arguments":`+args+`,`+meta2026+`,"traceparent":"`+traceparent+`"}}}`,
					append(mcpAccept, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "get_weather")...)
				return b
			},
			spanName: "tools/call get_weather",
			attrs: map[string]string{"toolgen.surface": "mcp", "mcp.method.name": "tools/call", "mcp.protocol.version": "2026-07-28",
				"jsonrpc.request.id": "call-8"},
		},
	}
}

func attrsOf(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// callSpan is the one span of a call named name among spans, with its
// children by name.
func callSpan(t *testing.T, spans []sdktrace.ReadOnlySpan, name string) (sdktrace.ReadOnlySpan, map[string]sdktrace.ReadOnlySpan) {
	t.Helper()
	var root sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			if root != nil {
				t.Fatalf("two spans named %q", name)
			}
			root = s
		}
	}
	if root == nil {
		var names []string
		for _, s := range spans {
			names = append(names, s.Name())
		}
		t.Fatalf("no span %q among %q", name, names)
	}
	children := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		if s.Parent().SpanID() == root.SpanContext().SpanID() {
			children[s.Name()] = s
		}
	}
	return root, children
}

func TestSpansOnEverySurface(t *testing.T) {
	f := newFixture(t, otel.Options{RecordArguments: true, RecordResults: true, StepSpans: true})
	for _, sc := range surfaceCases(t, f.url) {
		t.Run(sc.name, func(t *testing.T) {
			f.spans.Reset()
			body := sc.call(t, f.url, `{"city":"Oslo"}`)
			if !strings.Contains(body, "sunny in Oslo") {
				t.Fatalf("the call: %s", body)
			}
			root, children := callSpan(t, f.spans.Ended(), sc.spanName)
			if root.SpanKind() != trace.SpanKindServer {
				t.Errorf("kind %v", root.SpanKind())
			}
			// It continues the caller's trace.
			if root.SpanContext().TraceID().String() != callerTrace || root.Parent().SpanID().String() != callerParent || !root.Parent().IsRemote() {
				t.Errorf("trace %s, parent %s", root.SpanContext().TraceID(), root.Parent().SpanID())
			}
			got := attrsOf(root)
			want := map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather", "toolgen.status": "ok",
				"gen_ai.tool.call.arguments": `{"city":"Oslo"}`}
			for k, v := range sc.attrs {
				want[k] = v
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			if _, ok := got["error.type"]; ok {
				t.Errorf("error.type on a success: %v", got)
			}
			if id := got["toolgen.invocation_id"]; len(id) != 36 {
				t.Errorf("toolgen.invocation_id = %q", id)
			} else if sc.name == "v1" && !strings.Contains(body, id) {
				t.Errorf("the span's invocation id %s is not the call's: %s", id, body)
			}
			if !strings.Contains(got["gen_ai.tool.call.result"], "sunny in Oslo") {
				t.Errorf("gen_ai.tool.call.result = %q", got["gen_ai.tool.call.result"])
			}
			for _, step := range []string{runtime.StepHistoryStart, runtime.StepValidate, runtime.StepHandler, runtime.StepHistoryFinish} {
				if _, ok := children[step]; !ok {
					t.Errorf("no %s step under the call: %v", step, children)
				}
			}
		})
	}
}

func TestErrorType(t *testing.T) {
	f := newFixture(t, otel.Options{})
	for _, tc := range []struct{ args, errType string }{
		{`{"city":"Atlantis"}`, "tool_error"},
		{`{"city":1}`, "invalid"},
	} {
		for _, sc := range surfaceCases(t, f.url) {
			f.spans.Reset()
			sc.call(t, f.url, tc.args)
			root, _ := callSpan(t, f.spans.Ended(), sc.spanName)
			if got := attrsOf(root)["error.type"]; got != tc.errType {
				t.Errorf("%s %s: error.type = %q, want %q", sc.name, tc.args, got, tc.errType)
			}
			if root.Status().Code.String() != "Error" {
				t.Errorf("%s %s: status %v", sc.name, tc.args, root.Status())
			}
		}
	}
}

// By default a call is one span: its steps are not spans of their own.
func TestNoStepSpansByDefault(t *testing.T) {
	f := newFixture(t, otel.Options{})
	for _, sc := range surfaceCases(t, f.url) {
		f.spans.Reset()
		sc.call(t, f.url, `{"city":"Oslo"}`)
		_, children := callSpan(t, f.spans.Ended(), sc.spanName)
		if len(children) != 0 {
			t.Errorf("%s: the call has child spans %v", sc.name, children)
		}
	}
	// Waiting for an approval, a person's time, is a span all the same.
	rec := tracetest.NewSpanRecorder()
	tr := otel.NewTracer(&otel.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))})
	ctx, span := tr.StartCall(context.Background(), &runtime.Call{Tool: "deploy", Surface: runtime.SurfaceV1})
	for _, step := range []string{runtime.StepValidate, runtime.StepApproval, runtime.StepHandler} {
		_, end := span.Step(ctx, step)
		end(nil)
	}
	span.End(&runtime.Outcome{Status: runtime.StatusOK})
	if _, children := callSpan(t, rec.Ended(), "execute_tool deploy"); len(children) != 1 || children[runtime.StepApproval] == nil {
		t.Errorf("the call's child spans are %v, want approval alone", children)
	}
}

// Arguments and results are recorded only when asked for.
func TestNoArgumentsByDefault(t *testing.T) {
	f := newFixture(t, otel.Options{})
	post(t, f.url+"/v1/tools/get_weather", `{"input":{"city":"Oslo"}}`)
	root, _ := callSpan(t, f.spans.Ended(), "execute_tool get_weather")
	for _, k := range []string{"gen_ai.tool.call.arguments", "gen_ai.tool.call.result"} {
		if v, ok := attrsOf(root)[k]; ok {
			t.Errorf("%s = %q without opting in", k, v)
		}
	}
}

// MCP's other requests are spans too, and MCP calls are measured.
func TestMCPRequestsAndMetric(t *testing.T) {
	f := newFixture(t, otel.Options{})
	sid := openSession(t, f.url)
	h := []string{"Accept", "application/json, text/event-stream", "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25"}
	post(t, f.url+"/mcp", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}}`, h...)
	post(t, f.url+"/mcp", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"}}}`, h...)
	list, _ := callSpan(t, f.spans.Ended(), "tools/list")
	if a := attrsOf(list); a["mcp.method.name"] != "tools/list" || a["jsonrpc.request.id"] != "3" || a["mcp.session.id"] != sid || list.SpanKind() != trace.SpanKindServer {
		t.Errorf("tools/list span: %v", a)
	}
	var rm metricdata.ResourceMetrics
	if err := f.metrics.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	methods := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "mcp.server.operation.duration" || m.Unit != "s" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				v, _ := dp.Attributes.Value(attribute.Key("mcp.method.name"))
				methods[v.AsString()] += dp.Count
			}
		}
	}
	if methods["tools/list"] != 1 || methods["tools/call"] != 1 {
		t.Errorf("mcp.server.operation.duration counts %v", methods)
	}
}

// The explorer's _meta._trace_id is the call's span's trace id when the
// request brought none of its own.
func TestExplorerTraceID(t *testing.T) {
	f := newFixture(t, otel.Options{})
	_, body, _ := post(t, f.url+"/tools/get_weather/call", `{"city":"Oslo"}`)
	root, _ := callSpan(t, f.spans.Ended(), "execute_tool get_weather")
	var resp struct {
		Meta struct {
			TraceID string `json:"_trace_id"`
		} `json:"_meta"`
	}
	json.Unmarshal([]byte(body), &resp)
	if resp.Meta.TraceID == "" || resp.Meta.TraceID != root.SpanContext().TraceID().String() {
		t.Errorf("_meta._trace_id %q, span's trace %s: %s", resp.Meta.TraceID, root.SpanContext().TraceID(), body)
	}
}

// A record logged with a traced call's context carries its ids.
func TestLogHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(otel.LogHandler(slog.NewJSONHandler(&buf, nil)))
	tp := sdktrace.NewTracerProvider()
	ctx, span := tp.Tracer("t").Start(context.Background(), "x")
	log.InfoContext(ctx, "hello")
	span.End()
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["trace_id"] != span.SpanContext().TraceID().String() || rec["span_id"] != span.SpanContext().SpanID().String() {
		t.Errorf("record %v", rec)
	}
	buf.Reset()
	log.With("k", "v").Info("untraced")
	if strings.Contains(buf.String(), "trace_id") {
		t.Errorf("an untraced record has ids: %s", buf.String())
	}
}

// The runtime, and a server that does not import this package, link no
// OpenTelemetry package.
func TestNotLinkedWithoutTheImport(t *testing.T) {
	for _, pkg := range []string{"github.com/toolgen-go/toolgen/runtime", "github.com/toolgen-go/toolgen/runtime/serve", "github.com/toolgen-go/toolgen/examples/calculator"} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		if strings.Contains(string(out), "go.opentelemetry.io") {
			t.Errorf("%s links OpenTelemetry", pkg)
		}
	}
}
