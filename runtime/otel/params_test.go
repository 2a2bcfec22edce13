package otel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/otel"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// Every MCP method of every revision, its params absent, null, {} (and at
// 2026-07-28 only the _meta the revision requires), with no tracer, with
// OpenTelemetry's, and with a tracer, a middleware and a tool that panic:
// each request gets a JSON-RPC answer and the server goes on serving. A
// panic on one of the go-sdk's goroutines would end this test's process,
// as it ended servers (tools/list without params, traced, from the
// TypeScript SDK 1.x).

// mcpMethods are the methods and notifications of every revision.
var mcpMethods = []string{
	"initialize", "ping",
	"tools/list", "tools/call",
	"prompts/list", "prompts/get",
	"resources/list", "resources/read", "resources/templates/list",
	"resources/subscribe", "resources/unsubscribe",
	"completion/complete", "logging/setLevel",
	"tasks/get", "tasks/list", "tasks/result", "tasks/cancel", "tasks/update",
	"server/discover", "subscriptions/listen",
	"notifications/initialized", "notifications/cancelled",
	"notifications/progress", "notifications/roots/list_changed",
}

// paramsForms are the ways a client leaves params out, as the JSON
// after "params": ("" for none at all).
var paramsForms = []struct{ name, json string }{
	{"absent", ""},
	{"null", "null"},
	{"empty", "{}"},
}

// onlyMeta2026 is params of nothing but the _meta 2026-07-28 requires.
const onlyMeta2026 = "{" + meta2026 + "}}" // meta2026 leaves _meta open

// panicTracer panics whenever it is asked to trace.
type panicTracer struct{}

func (panicTracer) StartCall(context.Context, *runtime.Call) (context.Context, runtime.CallSpan) {
	panic("tracer: StartCall")
}

func (panicTracer) StartRequest(context.Context, *runtime.RPCInfo) (context.Context, func(error)) {
	panic("tracer: StartRequest")
}

// logCounter counts the log records at level error that mention a panic.
type logCounter struct {
	mu     sync.Mutex
	panics int
}

func (l *logCounter) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError && strings.Contains(r.Message, "panic") {
		l.mu.Lock()
		l.panics++
		l.mu.Unlock()
	}
	return nil
}
func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCounter) WithGroup(string) slog.Handler      { return l }

func (l *logCounter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.panics
}

// paramsServer has a tool, a prompt, a resource, a template and
// completion, so that every method reaches toolgen's code.
func paramsServer(tracer runtime.Tracer, mw []runtime.Middleware, panicky bool, log *slog.Logger) http.Handler {
	tool := runtime.MustNewTool("echo", "Echoes.", func(_ context.Context, in weatherIn) (string, error) {
		if panicky {
			panic("tool: echo")
		}
		return in.City, nil
	})
	read := func(_ context.Context, uri string, _ map[string]string) ([]runtime.ResourceContents, error) {
		return []runtime.ResourceContents{{URI: uri, Text: "x"}}, nil
	}
	return serve.NewHandler(runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{
		AllowExecute: true,
		Tracer:       tracer,
		Middleware:   mw,
		Logger:       log,
		Prompts: []runtime.Prompt{{Name: "hello", Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
			return &runtime.PromptResult{Messages: []runtime.PromptMessage{runtime.UserMessage("hi")}}, nil
		}}},
		Resources:         []runtime.Resource{{URI: "file:///a", Name: "a", Read: read}},
		ResourceTemplates: []runtime.ResourceTemplate{{URITemplate: "file:///logs/{day}", Name: "logs", Read: read}},
		Complete: func(context.Context, runtime.CompletionRequest) ([]string, error) {
			return []string{"x"}, nil
		},
	}), nil)
}

func TestMCPParamsAbsentNullEmpty(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	panicMW := func(runtime.InvokeFunc) runtime.InvokeFunc {
		return func(context.Context, *runtime.Call) *runtime.Outcome { panic("middleware") }
	}
	setups := []struct {
		name    string
		tracer  runtime.Tracer
		mw      []runtime.Middleware
		panicky bool // the server's code panics: some answers are internal errors
	}{
		{name: "untraced"},
		{name: "otel", tracer: otel.NewTracer(&otel.Options{TracerProvider: tp})},
		{name: "panicking-tracer", tracer: panicTracer{}, panicky: true},
		{name: "panicking-middleware", mw: []runtime.Middleware{panicMW}, panicky: true},
		{name: "panicking-tool", panicky: true},
	}
	revisions := []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}
	for _, su := range setups {
		t.Run(su.name, func(t *testing.T) {
			logs := &logCounter{}
			ts := httptest.NewServer(paramsServer(su.tracer, su.mw, su.name == "panicking-tool", slog.New(logs)))
			defer ts.Close()
			for _, rev := range revisions {
				forms := paramsForms
				if rev == "2026-07-28" {
					forms = append(forms, struct{ name, json string }{"meta", onlyMeta2026})
				}
				for _, method := range mcpMethods {
					forms := forms
					if method == "tools/call" { // one that reaches the tool
						call := `{"name":"echo","arguments":{"city":"Oslo"}}`
						if rev == "2026-07-28" {
							call = `{"name":"echo","arguments":{"city":"Oslo"},` + meta2026 + `}}`
						}
						forms = append(forms, struct{ name, json string }{"call", call})
					}
					for _, form := range forms {
						c := &mcpClient{t: t, url: ts.URL, rev: rev, panicky: su.panicky}
						if method != "initialize" {
							c.open(su.panicky)
						}
						c.send(method, form.json)
						c.alive(method, form.name, su.panicky)
					}
				}
			}
			if su.panicky && logs.count() == 0 {
				t.Error("no panic was logged: the setup's panics never ran")
			}
			if !su.panicky && logs.count() != 0 {
				t.Errorf("%d panics logged", logs.count())
			}
		})
	}
	if len(rec.Ended()) == 0 {
		t.Error("the OpenTelemetry tracer recorded no span")
	}
}

// mcpClient speaks one revision over Streamable HTTP, as raw JSON-RPC.
type mcpClient struct {
	t        *testing.T
	url, rev string
	panicky  bool   // the server's own code panics: the SDK words some refusals
	sid      string // the session, before 2026-07-28
	id       int
}

// open starts a session for the revisions that have them.
func (c *mcpClient) open(panicky bool) {
	if c.rev == "2026-07-28" {
		return
	}
	init := `{"protocolVersion":"` + c.rev + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`
	resp := c.post("initialize", init)
	if _, ok := resp.message["result"]; !ok && panicky && resp.message != nil {
		return // a panicking tracer's initialize: an internal error, no session
	}
	if resp.status != 200 || resp.sid == "" {
		c.t.Fatalf("%s: initialize: %d %s", c.rev, resp.status, resp.body)
	}
	c.sid = resp.sid
	c.post("notifications/initialized", "")
}

type answer struct {
	status  int
	sid     string
	body    string
	message map[string]any // the JSON-RPC answer, if any
}

// post sends method with params (raw JSON, "" for none).
func (c *mcpClient) post(method, params string) answer {
	c.t.Helper()
	msg := `{"jsonrpc":"2.0","method":"` + method + `"`
	notification := strings.HasPrefix(method, "notifications/")
	if !notification {
		c.id++
		msg += `,"id":` + jsonInt(c.id)
	}
	if params != "" {
		msg += `,"params":` + params
	}
	msg += "}"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", c.url+"/mcp", strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set("Mcp-Session-Id", c.sid)
	}
	if c.sid != "" || c.rev == "2026-07-28" {
		req.Header.Set("Mcp-Protocol-Version", c.rev)
	}
	if c.rev == "2026-07-28" {
		req.Header.Set("Mcp-Method", method)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s %s: %v (the server died?)", c.rev, method, params, err)
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, sid: resp.Header.Get("Mcp-Session-Id")}
	if method == "subscriptions/listen" && resp.StatusCode == 200 {
		return a // a stream that stays open: its headers are the answer
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s %s: reading the answer: %v", c.rev, method, params, err)
	}
	a.body = string(b)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(a.body) {
			if d, ok := strings.CutPrefix(line, "data: "); ok && strings.TrimSpace(d) != "" {
				b = []byte(d)
			}
		}
	}
	if json.Valid(bytes.TrimSpace(b)) && len(bytes.TrimSpace(b)) > 0 {
		_ = json.Unmarshal(b, &a.message)
	}
	return a
}

// send posts method and checks that a request got a JSON-RPC answer.
func (c *mcpClient) send(method, params string) {
	c.t.Helper()
	a := c.post(method, params)
	if strings.HasPrefix(method, "notifications/") || (method == "subscriptions/listen" && a.status == 200) {
		if a.status >= 500 {
			c.t.Errorf("%s %s %q: %d %s", c.rev, method, params, a.status, a.body)
		}
		return
	}
	if a.message == nil {
		c.t.Errorf("%s %s %q: no JSON-RPC answer: %d %s", c.rev, method, params, a.status, a.body)
		return
	}
	if _, ok := a.message["result"]; ok {
		return
	}
	// An error in toolgen's words, with the code JSON-RPC gives it.
	e, _ := a.message["error"].(map[string]any)
	msg, _ := e["message"].(string)
	if code, _ := e["code"].(float64); code == 0 && !c.panicky {
		c.t.Errorf("%s %s %q: an error without a JSON-RPC code: %s", c.rev, method, params, a.body)
	}
	if goText(msg) {
		c.t.Errorf("%s %s %q: Go text in the answer: %s", c.rev, method, params, msg)
	}
}

// goText reports whether msg has a Go decoder's or a Go type's words.
func goText(msg string) bool {
	for _, w := range []string{"json: ", "cannot unmarshal", "Go struct", "mcp.", "unexpected end of JSON"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// alive checks that the server still answers on the session (a new one at
// 2026-07-28, or after an initialize that made none): with a result, or
// where the server's own code panics on every request (the panicking
// tracer traces ping too), with some JSON-RPC answer.
func (c *mcpClient) alive(method, form string, panicky bool) {
	c.t.Helper()
	params := ""
	probe := "ping"
	if c.rev == "2026-07-28" {
		probe, params = "tools/list", onlyMeta2026 // 2026-07-28 has no ping
	} else if c.sid == "" {
		c.open(panicky)
	}
	a := c.post(probe, params)
	if _, ok := a.message["result"]; !ok && (!panicky || a.message == nil) {
		c.t.Fatalf("%s: after %s with params %s, %s: %d %s", c.rev, method, form, probe, a.status, a.body)
	}
}

func jsonInt(i int) string { b, _ := json.Marshal(i); return string(b) }
