package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
)

// The fast path of MCP 2026-07-28 (mcpfast.go) against the SDK's: the same
// requests to two servers alike in all but the fast path must get the
// same answers, leave the same history records and trace the same.

// fastTools are the tools of the differential tests: every outcome of the
// pipeline, and the tools the fast path leaves to the SDK (x-mcp-header,
// tasks), or that need the client (approval by the client, elicitation).
func fastTools() runtime.ToolList {
	var tools runtime.ToolList
	for _, t := range mcpTools() {
		if t.Name != "slow" { // sleeps: the fuzz target calls every tool
			tools = append(tools, t)
		}
	}
	plain := func(text string) runtime.Handler {
		return func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(text), nil }
	}
	tools = append(tools, shapeTools()...)
	return append(tools,
		headerTool(),
		runtime.Tool{Name: "admin_only", Scopes: []string{"admin"}, Handler: plain("admin")},
		runtime.Tool{Name: "once_an_hour", RateLimit: runtime.Rate{N: 1, Per: time.Hour}, Handler: plain("limited")},
		runtime.Tool{Name: "client_approves", Approval: runtime.ApprovalClient, Handler: plain("approved")},
		runtime.Tool{Name: "operator_approves", Approval: runtime.ApprovalOperator, Handler: plain("approved")},
		runtime.Tool{Name: "as_task", Task: runtime.TaskOptional, Handler: plain("task")},
		runtime.Tool{Name: "asks", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
			e, err := runtime.Elicit(ctx, "Go on?", json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))
			if err != nil {
				return nil, err
			}
			return runtime.TextResult(e.Action), nil
		}},
		runtime.Tool{Name: "html", Handler: plain("<b>&amp;</b> \u2028")},
		runtime.Tool{Name: "routed", InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"shard":{"type":"integer","x-mcp-header":"Shard"},"opts":{"type":"object","properties":{"fast":{"type":"boolean","x-mcp-header":"Fast"}}},"note":{"type":"string"}}}`), Handler: plain("routed")},
		runtime.Tool{Name: "chatty", Handler: chatty(false)},
		runtime.Tool{Name: "chatty_asks", Handler: chatty(true)},
	)
}

// fastPair is two servers alike but for the fast path: on and off.
type fastPair struct {
	on, off     *runtime.Server
	tron, troff *recTracer
}

func newFastPair(t testing.TB, jsonResponse, stateless bool) *fastPair {
	return newFastPairWith(t, Options{JSONResponse: jsonResponse, Stateless: stateless})
}

// newFastPairWith is newFastPair with MCP's options o (its StateKey the
// tests' own).
func newFastPairWith(t testing.TB, o Options) *fastPair {
	o.StateKey = []byte("fast path tests")
	p := &fastPair{tron: &recTracer{}, troff: &recTracer{}}
	mk := func(tr *recTracer) *runtime.Server {
		return newTestServer(fastTools(), &runtime.Options{
			Logger: discard(),
			AuthHook: runtime.BearerCredentials(
				runtime.Credential{Secret: "reader", Subject: "reader"},
				runtime.Credential{Secret: "admin", Subject: "admin", Scopes: []string{"admin"}},
			),
			Tracer:            tr,
			ApprovalTimeout:   20 * time.Millisecond,
			Prompts:           nativePrompts(),
			Resources:         nativeResources(),
			ResourceTemplates: nativeTemplates(),
			Complete: func(_ context.Context, r runtime.CompletionRequest) ([]string, error) {
				if r.Value == "fail" {
					return nil, errors.New("no completions today")
				}
				return []string{r.Ref + ":" + r.Argument + "=" + r.Value}, nil
			},
		}, &o)
	}
	p.on, p.off = mk(p.tron), mk(p.troff)
	mcpOf(p.off).fast.off = true
	return p
}

// fastReq is one HTTP request: headers (a value "" drops the default) and
// body.
type fastReq struct {
	name   string
	header map[string]string
	body   string
}

const fastMeta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// call2026 is a plain tools/call of tool with args (raw JSON, "" for none).
func call2026(tool, args string) fastReq {
	params := `{` + fastMeta2026 + `,"name":` + mustJSONText(tool)
	if args != "" {
		params += `,"arguments":` + args
	}
	return fastReq{name: "call " + tool + " " + args, header: map[string]string{"Mcp-Name": tool}, body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":` + params + `}}`}
}

func mustJSONText(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// answer is what the differential tests compare of a response.
type answer struct {
	Status       int
	ContentType  string
	CacheControl string
	Framing      string // "json", "sse" or "other"
	Body         string // the JSON-RPC message, normalized
	History      string // the record the request left, normalized
	Trace        string // what the tracer saw
}

// send sends r to s and returns what the tests compare.
func (p *fastPair) send(t testing.TB, s *runtime.Server, tr *recTracer, r fastReq) answer {
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(r.body))
	req.RemoteAddr = "127.0.0.1:4000"
	h := map[string]string{
		"Content-Type":         "application/json",
		"Accept":               "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2026-07-28",
		"Mcp-Method":           "tools/call",
		"Authorization":        "Bearer admin",
		"X-Correlation-Id":     "corr-1",
	}
	var m struct {
		Method string `json:"method"`
	}
	if json.Unmarshal([]byte(r.body), &m) == nil && m.Method != "" {
		h["Mcp-Method"] = m.Method
	}
	for k, v := range r.header {
		h[k] = v
	}
	for k, v := range h {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	before := historyCount(t, s)
	tr.reset()
	w := httptest.NewRecorder()
	houseOf(s).ServeHTTP(w, req)
	// The header as it was sent: a handler may change the map after.
	sent := w.Result().Header
	a := answer{Status: w.Code, ContentType: sent.Get("Content-Type"), CacheControl: sent.Get("Cache-Control"), Framing: "other", Trace: tr.String()}
	body := w.Body.String()
	switch {
	case strings.HasPrefix(a.ContentType, "text/event-stream"):
		// Events, each one message: the notifications a call sent
		// while it ran, then the answer.
		var events []string
		rest := body
		for rest != "" {
			m, ok := strings.CutPrefix(rest, "event: message\ndata: ")
			end := strings.Index(m, "\n\n")
			if !ok || end < 0 || strings.Contains(m[:end], "\n") {
				events = nil
				break
			}
			events = append(events, normalizeAnswer(m[:end]))
			rest = m[end+2:]
		}
		if len(events) > 0 {
			a.Framing, a.Body = "sse", strings.Join(events, "\n")
		}
	case strings.HasPrefix(a.ContentType, "application/json"):
		a.Framing = "json"
	}
	if a.Body == "" {
		a.Body = normalizeAnswer(body)
	}
	if historyCount(t, s) > before {
		recs, _, err := s.History().List(context.Background(), history.Filter{Limit: 1})
		if err != nil || len(recs) != 1 {
			t.Fatalf("history: %v %v", recs, err)
		}
		rec := recs[0]
		rec.ID, rec.CreatedAt, rec.CompletedAt, rec.DurationMS, rec.Deadline = "", time.Time{}, nil, nil, nil
		if rec.Approval != nil {
			ap := *rec.Approval
			ap.At = time.Time{}
			rec.Approval = &ap
		}
		b, _ := json.Marshal(rec)
		a.History = string(b)
	}
	return a
}

func historyCount(t testing.TB, s *runtime.Server) int {
	_, n, err := s.History().List(context.Background(), history.Filter{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// normalizeAnswer is a response body as canonical JSON (keys sorted: the
// SDK and the fast path may order a result's members differently, which
// no JSON reader can tell), with what differs by design replaced: a
// httpkit.State is sealed with a random nonce, so two seals of the same
// state never compare equal; a task's id and times are its own; which of
// several mismatched Mcp-Param-* headers an error names is the SDK's
// map order. A body that is not JSON is kept as it is.
func normalizeAnswer(body string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return body
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if msg, _ := v["message"].(string); v["code"] == json.Number("-32020") && strings.Contains(msg, "Mcp-Param-") {
				// Of several Mcp-Param-* headers that do not agree, the
				// SDK names the first of a map's order: any of them.
				v["message"] = "<an Mcp-Param-* header that does not agree>"
			}
			for k, x := range v {
				switch k {
				case "requestState":
					v[k] = "<sealed>"
				case "taskId", "createdAt", "lastUpdatedAt": // a task's own
					v[k] = "<" + k + ">"
				case "nextCursor":
					// A go-sdk cursor is gob, whose type ids are the
					// process's own: the key it holds is what counts.
					if c, _ := x.(string); c != "" {
						var tok pageToken
						if b, err := base64.URLEncoding.DecodeString(c); err == nil && gob.NewDecoder(bytes.NewReader(b)).Decode(&tok) == nil {
							v[k] = "<after " + tok.LastUID + ">"
						}
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(buf.String())
}

// compare sends r to both servers and reports how the answers differ.
func (p *fastPair) compare(t testing.TB, r fastReq) (on, off answer) {
	t.Helper()
	on = p.send(t, p.on, p.tron, r)
	off = p.send(t, p.off, p.troff, r)
	if on != off {
		t.Errorf("%s: %s\nfast path: %+v\nSDK:       %+v", r.name, r.body, on, off)
	}
	return on, off
}

// recTracer writes down what a tracer is told.
type recTracer struct {
	mu  sync.Mutex
	log []string
}

func (r *recTracer) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, fmt.Sprintf(format, args...))
}

func (r *recTracer) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = nil
}

func (r *recTracer) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.log, "; ")
}

func (r *recTracer) StartCall(ctx context.Context, c *runtime.Call) (context.Context, runtime.CallSpan) {
	info := "<nil>"
	if c.RPC != nil {
		info = fmt.Sprintf("%+v", *c.RPC)
	}
	r.add("call %s %s args=%s corr=%s trace=%s mcp=%s tc=%v", c.Tool, c.Surface, c.Arguments, c.CorrelationID, c.TraceID, info, c.TraceContext)
	return ctx, nil
}

func (r *recTracer) StartRequest(ctx context.Context, info *runtime.RPCInfo) (context.Context, func(error)) {
	r.add("request %+v", *info)
	return ctx, func(err error) { r.add("end %v", err) }
}

// fastCases are requests of every class: answered by the fast path, and
// refused (or left to the SDK) for every reason there is.
func fastCases() []fastReq {
	list := `{"jsonrpc":"2.0","id":"l-1","method":"tools/list","params":{` + fastMeta2026 + `}}`
	withMeta := func(name, meta string, header ...string) fastReq {
		r := fastReq{name: name, header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":` + meta + `,"name":"plain"}}`}
		for i := 0; i+1 < len(header); i += 2 {
			r.header[header[i]] = header[i+1]
		}
		return r
	}
	hdr := func(r fastReq, kv ...string) fastReq {
		h := map[string]string{}
		for k, v := range r.header {
			h[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			h[kv[i]] = kv[i+1]
			r.name += " " + kv[i] + "=" + kv[i+1]
		}
		r.header = h
		return r
	}
	cases := []fastReq{
		// Answered by the pipeline: results, tool errors, validation.
		call2026("plain", ""),
		call2026("plain", "null"),
		call2026("plain", "{}"),
		call2026("traced", "{}"),
		call2026("count", `{"city":"Oslo","days":2}`),
		call2026("count", `{"days":99,"extra":true}`),
		call2026("count", `{"city":"Oslo","city":"Bergen"}`),
		call2026("count", `"not an object"`),
		call2026("count", `[1,2]`),
		call2026("sum", `{"xs":[1,2.5]}`),
		call2026("picture", ""),
		call2026("soft_fail", ""),
		call2026("hard_fail", ""),
		call2026("panics", ""),
		call2026("nil_result", ""),
		call2026("loose", `{"n":1000}`),
		call2026("answer", ""),
		call2026("html", ""),
		call2026("no_such_tool", "{}"),
		call2026("admin_only", ""),
		hdr(call2026("admin_only", ""), "Authorization", "Bearer reader"),
		call2026("once_an_hour", ""),
		call2026("once_an_hour", ""), // refused: the hour's call was made
		call2026("operator_approves", ""),
		call2026("client_approves", ""), // no elicitation capability
		call2026("asks", ""),            // the same
		call2026("as_task", ""),
		call2026("where", `{"region":"eu"}`),
		hdr(call2026("where", `{"region":"eu"}`), "Mcp-Param-Region", "eu"),
		// tools/list, by caller.
		{name: "list", body: list},
		{name: "list as reader", header: map[string]string{"Authorization": "Bearer reader"}, body: list},
		{name: "list with a cursor", body: `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + fastMeta2026 + `,"cursor":"x"}}`},
		// Headers.
		hdr(call2026("plain", ""), "Mcp-Method", ""),
		hdr(call2026("plain", ""), "Mcp-Method", "tools/list"),
		hdr(call2026("plain", ""), "Mcp-Name", ""),
		hdr(call2026("plain", ""), "Mcp-Name", "count"),
		hdr(call2026("plain", ""), "Mcp-Protocol-Version", ""),
		hdr(call2026("plain", ""), "Mcp-Protocol-Version", "2025-11-25"),
		hdr(call2026("plain", ""), "Mcp-Protocol-Version", "2026-07-29"),
		hdr(call2026("plain", ""), "Accept", "application/json"),
		hdr(call2026("plain", ""), "Accept", "*/*"),
		hdr(call2026("plain", ""), "Content-Type", "text/plain"),
		hdr(call2026("plain", ""), "Content-Type", "application/json; charset=utf-8"),
		hdr(call2026("plain", ""), "Mcp-Session-Id", "nope"),
		hdr(call2026("plain", ""), "Last-Event-ID", "1"),
		hdr(call2026("plain", ""), "Authorization", ""),
		hdr(call2026("plain", ""), "Authorization", "Bearer wrong"),
		hdr(call2026("plain", ""), "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
		// _meta.
		withMeta("meta without capabilities", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`),
		withMeta("meta without version", `{"io.modelcontextprotocol/clientCapabilities":{}}`),
		withMeta("meta of another version", `{"io.modelcontextprotocol/protocolVersion":"2026-07-29","io.modelcontextprotocol/clientCapabilities":{}}`),
		withMeta("capabilities not an object", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":5}`),
		withMeta("capabilities of the wrong shape", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":5}}`),
		withMeta("client info", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`),
		withMeta("bad client info", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":5}}`),
		withMeta("progress token", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}`),
		withMeta("log level", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug"}`),
		withMeta("trace context", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}`),
		withMeta("elicitation declared", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`),
		withMeta("meta null", `null`),
		// Bodies.
		{name: "params not an object", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`},
		{name: "no params", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`},
		{name: "name not a string", header: map[string]string{"Mcp-Name": "5"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + fastMeta2026 + `,"name":5}}`},
		{name: "no name", header: map[string]string{"Mcp-Name": ""}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + fastMeta2026 + `}}`},
		{name: "a notification", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","method":"tools/call","params":{` + fastMeta2026 + `,"name":"plain"}}`},
		{name: "id null", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{` + fastMeta2026 + `,"name":"plain"}}`},
		{name: "id 1.5", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{` + fastMeta2026 + `,"name":"plain"}}`},
		{name: "id escaped", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":"a\u00e9<","method":"tools/call","params":{` + fastMeta2026 + `,"name":"plain"}}`},
		{name: "id negative", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":-42,"method":"tools/call","params":{` + fastMeta2026 + `,"name":"plain"}}`},
		{name: "repeated name", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + fastMeta2026 + `,"name":"count","name":"plain"}}`},
		{name: "escaped key", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + fastMeta2026 + `,"n\u0061me":"plain"}}`},
		{name: "key in capitals", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + fastMeta2026 + `,"Name":"plain"}}`},
		{name: "a task", header: map[string]string{"Mcp-Name": "plain"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + fastMeta2026 + `,"name":"plain","task":{}}}`},
		{name: "a forged requestState", header: map[string]string{"Mcp-Name": "asks"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + fastMeta2026 + `,"name":"asks","requestState":"forged"}}`},
		{name: "spaces", header: map[string]string{"Mcp-Name": "plain"}, body: " { \"jsonrpc\" : \"2.0\" ,\n\"id\" : 1 , \"method\" : \"tools/call\" , \"params\" : { " + fastMeta2026 + " , \"name\" : \"plain\" , \"arguments\" : { } } } "},
		{name: "a batch", header: map[string]string{"Mcp-Name": "plain"}, body: `[` + call2026("plain", "").body + `]`},
		{name: "unknown method", header: map[string]string{"Mcp-Method": "tools/nope"}, body: `{"jsonrpc":"2.0","id":1,"method":"tools/nope","params":{` + fastMeta2026 + `}}`},
		{name: "not JSON", body: `{"jsonrpc":`},
	}
	return cases
}

// TestMCPFastPathSameAnswers: every class of request gets the same answer,
// history record and trace with the fast path as without, in both of
// the SDK's framings (one JSON body, one SSE event), with sessions for
// older clients and without; and the fast path answers the requests it
// is for.
func TestMCPFastPathSameAnswers(t *testing.T) {
	for _, o := range []struct{ jsonResponse, stateless bool }{{true, false}, {false, false}, {false, true}} {
		t.Run(fmt.Sprintf("JSONResponse=%v,Stateless=%v", o.jsonResponse, o.stateless), func(t *testing.T) {
			p := newFastPair(t, o.jsonResponse, o.stateless)
			for _, c := range fastCases() {
				p.compare(t, c)
			}
			// The cases do not all go to the SDK: those the fast path is
			// for are answered by it.
			for _, c := range []fastReq{call2026("plain", ""), call2026("count", `{"days":99}`), call2026("no_such_tool", ""), {name: "list", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + fastMeta2026 + `}}`}} {
				n := mcpOf(p.on).fast.answered.Load()
				on, _ := p.compare(t, c)
				if mcpOf(p.on).fast.answered.Load() != n+1 {
					t.Errorf("%s: not answered by the fast path: %+v", c.name, on)
				}
			}
		})
	}
}

// An answer the client needs to act on, spelt out: the fast path's
// results are the revision's.
func TestMCPFastPathAnswers(t *testing.T) {
	p := newFastPair(t, true, false)
	on, _ := p.compare(t, call2026("plain", ""))
	if on.Status != 200 || on.Framing != "json" || !strings.Contains(on.Body, `"resultType":"complete"`) || !strings.Contains(on.Body, `"io.modelcontextprotocol/serverInfo"`) || !strings.Contains(on.Body, `"id":7`) {
		t.Errorf("plain: %+v", on)
	}
	on, _ = p.compare(t, call2026("no_such_tool", ""))
	if on.Status != 400 || !strings.Contains(on.Body, `"code":-32602`) {
		t.Errorf("unknown tool: %+v", on)
	}
	on, _ = p.compare(t, call2026("asks", ""))
	if on.Status != 400 || !strings.Contains(on.Body, `"code":-32021`) {
		t.Errorf("elicitation without the capability: %+v", on)
	}
	r := call2026("asks", "")
	r.body = strings.Replace(r.body, `clientCapabilities":{}`, `clientCapabilities":{"elicitation":{}}`, 1)
	on, _ = p.compare(t, r)
	if on.Status != 200 || !strings.Contains(on.Body, `"resultType":"input_required"`) || !strings.Contains(on.Body, `"requestState":"<sealed>"`) {
		t.Errorf("elicitation: %+v", on)
	}
}

// FuzzMCPFastPath sends the same request, body and MCP headers fuzzed, to
// a server with the fast path and one without, and requires the same
// answer: tools/call and tools/list, and the methods of native.go.
func FuzzMCPFastPath(f *testing.F) {
	for _, c := range slices.Concat(fastCases(), nativeCases(), streamCases(), revisionCases()) {
		method := c.header["Mcp-Method"]
		var m struct {
			Method string `json:"method"`
		}
		if method == "" && json.Unmarshal([]byte(c.body), &m) == nil {
			method = m.Method
		}
		f.Add(c.body, method, c.header["Mcp-Name"], c.header["Mcp-Protocol-Version"])
	}
	f.Add(call2026("plain", "").body, "tools/call", "plain", "2026-07-28")
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+fastMeta2026+`}}`, "tools/list", "", "2026-07-28")
	p := newFastPair(f, true, false)
	f.Fuzz(func(t *testing.T, body, method, name, version string) {
		if method == "" {
			method = "tools/call"
		}
		if version == "" {
			version = "2026-07-28"
		}
		if !validHeader(method) || !validHeader(name) || !validHeader(version) {
			return
		}
		p.compare(t, fastReq{name: "fuzz", body: body, header: map[string]string{"Mcp-Method": method, "Mcp-Name": name, "Mcp-Protocol-Version": version}})
	})
}

// validHeader reports whether v can be sent as a header value as it is.
func validHeader(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return strings.TrimSpace(v) == v
}
