package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// What every surface does alike is tested once: one table of requests,
// each sent to every surface that calls a tool. Every answer must be JSON
// (an error in the surface's own shape), carry both ids, name no Go type,
// and run the tool exactly when the request was a good one.

type forecastArgs struct {
	City string `json:"city" jsonschema:"maxLength=40"`
	Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=14"`
}

// callSurface turns a tool call into an HTTP request on one surface.
type callSurface struct {
	name string
	// request is the request calling tool with args, the raw bytes of the
	// arguments (which need not be JSON), or of a whole body when body
	// is set.
	request func(t *testing.T, url, tool string, args []byte) *http.Request
	// ran reports whether the answer is the tool's success.
	ran func(status int, body string) bool
	// validate: the surface never runs the tool, and is public (no auth
	// hook, as the explorer's protocol says); a good request is answered
	// {"valid":true}.
	validate bool
	// send, when set, sends a request and returns its answer as a
	// response (streams_test.go); nil means http.DefaultClient.Do.
	send func(t *testing.T, req *http.Request) (*http.Response, error)
	// streamCtx: a call runs in the context of the stream that opened
	// the session (/sse), not of its request's: the request's
	// correlation id does not reach the tool.
	streamCtx bool
	// noHTTP: no HTTP at all (stdio): no ids, no auth hook, no body
	// limit; the requests that test those are not sent.
	noHTTP bool
}

const goodToken = "surface-token"

// surfaces are the surfaces that call a tool, each request carrying token
// as a bearer token (an MCP session is opened with it).
func surfaces(t *testing.T, url, token string) []callSurface {
	post := func(path string, body []byte, header ...string) *http.Request {
		r, err := http.NewRequest(http.MethodPost, url+path, strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+token)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		return r
	}
	// envelope puts raw arguments in a protocol's JSON body as they are,
	// good JSON or not.
	envelope := func(format string, args []byte) []byte {
		return []byte(strings.Replace(format, "ARGS", string(args), 1))
	}
	mcpCall := func(tool string, args []byte, meta string) []byte {
		return envelope(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+tool+`","arguments":ARGS`+meta+`}}`, args)
	}
	const meta2026 = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	session := openSession(t, url, token)
	return []callSurface{
		{
			name: "explorer",
			request: func(t *testing.T, url, tool string, args []byte) *http.Request {
				return post("/tools/"+tool+"/call", args)
			},
			ran: func(status int, body string) bool { return status == 200 && strings.Contains(body, `"isError":false`) },
		},
		{
			name: "explorer-validate",
			request: func(t *testing.T, url, tool string, args []byte) *http.Request {
				return post("/tools/"+tool+"/validate", args)
			},
			ran:      func(status int, body string) bool { return status == 200 && body == `{"valid":true}` },
			validate: true,
		},
		{
			name: "oxp",
			request: func(t *testing.T, url, tool string, args []byte) *http.Request {
				return post("/oxp/tools/call", envelope(`{"request":{"tool_id":"Tools.`+oxpName(tool)+`","input":ARGS}}`, args))
			},
			ran: func(status int, body string) bool { return status == 200 && strings.Contains(body, `"success":true`) },
		},
		{
			name: "v1",
			request: func(t *testing.T, url, tool string, args []byte) *http.Request {
				return post("/v1/tools/"+tool, envelope(`{"input":ARGS}`, args))
			},
			ran: func(status int, body string) bool { return status == 200 && strings.Contains(body, `"error":null`) },
		},
		{
			name: "mcp-2026-07-28",
			request: func(t *testing.T, url, tool string, args []byte) *http.Request {
				return post("/mcp", mcpCall(tool, args, meta2026), "Accept", "application/json, text/event-stream",
					"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", tool)
			},
			ran: mcpRan,
		},
		{
			name: "mcp-session",
			request: func(t *testing.T, url, tool string, args []byte) *http.Request {
				return post("/mcp", mcpCall(tool, args, ""), "Accept", "application/json, text/event-stream",
					"MCP-Protocol-Version", "2025-11-25", "Mcp-Session-Id", session)
			},
			ran: mcpRan,
		},
	}
}

// mcpRan reports whether an MCP answer is the tool's success.
func mcpRan(status int, body string) bool {
	var m struct {
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	return status == 200 && json.Unmarshal([]byte(rpcBody(body)), &m) == nil && m.Result != nil && !m.Result.IsError
}

// oxpName is a tool's name in an OXP tool_id.
func oxpName(tool string) string {
	var b strings.Builder
	for _, part := range strings.Split(tool, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// openSession opens an MCP session of revision 2025-11-25 with token and
// returns its id.
func openSession(t *testing.T, url, token string) string {
	t.Helper()
	send := func(body, sid string) *http.Response {
		r, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Authorization", "Bearer "+token)
		if sid != "" {
			r.Header.Set("Mcp-Session-Id", sid)
			r.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "")
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid)
	return sid
}

// rpcBody is the JSON-RPC message of an MCP answer: the body, or the data
// of its SSE event that has some.
func rpcBody(body string) string {
	for _, line := range strings.Split(body, "\n") {
		if data, ok := strings.CutPrefix(line, "data:"); ok && strings.TrimSpace(data) != "" {
			return strings.TrimSpace(data)
		}
	}
	return body
}

// goText is what Go-internal text looks like in an answer: type names,
// encoding/json's and the runtime's words, source positions.
var goText = regexp.MustCompile(`json: |cannot unmarshal|interface \{\}|map\[|\[\]interface|struct \{|\*json\.|reflect\.|runtime error|goroutine |\.go:[0-9]+|invalid ID type|malformed payload|Go value|Go struct|\bmcp\.[A-Za-z]|unexpected end of JSON|invalid character '|looking for beginning of value|after top-level value`)

type badRequest struct {
	name string
	tool string // default "forecast"
	args string // the arguments' raw bytes
	// header overrides or removes (empty value) request headers.
	header map[string]string
	// run: the tool must run (valid: say valid); else it must not.
	run bool
	// status, when set, is the status every surface must answer.
	status int
	// correlation, when set, is the correlation id the tool must be
	// called with (Call.CorrelationID), when it runs.
	correlation string
	check       func(t *testing.T, resp *http.Response, body string)
}

func TestEverySurfaceAlike(t *testing.T) {
	var runs atomic.Int64
	var corr atomic.Value // the correlation id of the last call
	tool := runtime.MustNewTool("forecast", "A forecast.", func(ctx context.Context, in forecastArgs) (string, error) {
		runs.Add(1)
		c, _ := runtime.CallFromContext(ctx)
		corr.Store(c.CorrelationID)
		return "sunny in " + in.City, nil
	})
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{
		AllowExecute: true,
		AuthHook:     runtime.BearerTokens(goodToken),
		MaxBodyBytes: 4096,
		Logger:       discardLogger(),
	})
	hs := httptest.NewServer(house(s))
	t.Cleanup(hs.Close) // after the streams the surfaces opened close

	deep := strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200)
	long := strings.Repeat("x", 200)
	cases := []badRequest{
		{name: "good", args: `{"city":"Paris","days":3}`, run: true},
		{name: "good, optional left out", args: `{"city":"Paris"}`, run: true},
		{name: "no credentials", args: `{"city":"Paris"}`, header: map[string]string{"Authorization": ""}, status: 401},
		{name: "wrong token", args: `{"city":"Paris"}`, header: map[string]string{"Authorization": "Bearer guess"}, status: 401},
		{name: "another scheme", args: `{"city":"Paris"}`, header: map[string]string{"Authorization": "Basic " + goodToken}, status: 401},
		{name: "unknown tool", tool: "nope", args: `{"city":"Paris"}`},
		{name: "not JSON", args: `{"city":`},
		{name: "not JSON, unclosed", args: `{"city":"Oslo"`},
		{name: "not JSON, a stray byte", args: `{"city":"Oslo"}}`},
		{name: "an array", args: `["Paris"]`},
		{name: "a string", args: `"Paris"`},
		{name: "a number", args: `42`},
		{name: "duplicate key", args: `{"city":"Paris","city":"Rome"}`},
		{name: "duplicate key, another type", args: `{"city":"x","city":1}`},
		{name: "duplicate key, escaped", args: `{"city":"Paris","c\u0069ty":"Rome"}`},
		{name: "invalid UTF-8", args: "{\"city\":\"P\xffris\"}"},
		{name: "nested too deep", args: `{"city":"Paris","days":` + deep + `}`},
		{name: "huge exponent", args: `{"city":"Paris","days":1e400}`},
		{name: "huge integer", args: `{"city":"Paris","days":` + strings.Repeat("9", 1200) + `}`},
		{name: "past int64", args: `{"city":"Paris","days":1e20}`},
		{name: "a fraction", args: `{"city":"Paris","days":2.5}`},
		{name: "wrong type", args: `{"city":5}`},
		{name: "null for a string", args: `{"city":null}`},
		{name: "unknown property", args: `{"city":"Paris","when":"now"}`},
		{name: "required left out", args: `{"days":2}`},
		{name: "out of bounds", args: `{"city":"Paris","days":15}`},
		{name: "too long", args: `{"city":"` + long + `"}`},
		{name: "data after the value", args: `{"city":"Paris"} {}`},
		{name: "oversized body", args: `{"city":"` + strings.Repeat("y", 5000) + `"}`, status: 413},
		{name: "sane ids are echoed", args: `{"city":"Paris"}`, run: true, correlation: "flow-7",
			header: map[string]string{"X-Request-ID": "req-42", "X-Correlation-ID": "flow-7"},
			check: func(t *testing.T, resp *http.Response, _ string) {
				if resp.Header.Get("X-Request-ID") != "req-42" || resp.Header.Get("X-Correlation-ID") != "flow-7" {
					t.Errorf("ids %q %q, want req-42 flow-7", resp.Header.Get("X-Request-ID"), resp.Header.Get("X-Correlation-ID"))
				}
			}},
		{name: "ids too long are replaced", args: `{"city":"Paris"}`, run: true,
			header: map[string]string{"X-Request-ID": long, "X-Correlation-ID": long},
			check: func(t *testing.T, resp *http.Response, _ string) {
				for _, h := range []string{"X-Request-ID", "X-Correlation-ID"} {
					if v := resp.Header.Get(h); v == long || len(v) > 128 {
						t.Errorf("%s %q kept", h, v)
					}
				}
			}},
		{name: "ids with spaces are replaced", args: `{"city":"Paris"}`, run: true,
			header: map[string]string{"X-Correlation-ID": "a b"},
			check: func(t *testing.T, resp *http.Response, _ string) {
				if v := resp.Header.Get("X-Correlation-ID"); v == "a b" {
					t.Errorf("X-Correlation-ID %q kept", v)
				}
			}},
	}

	n := 0
	all := append(surfaces(t, hs.URL, goodToken), sseSurface(t, hs.URL, goodToken), stdioSurface(t, s))
	for _, sf := range all {
		for _, tc := range cases {
			if sf.noHTTP && (tc.status != 0 || tc.header != nil) {
				continue // what HTTP carries: credentials, ids, the body limit
			}
			t.Run(sf.name+"/"+tc.name, func(t *testing.T) {
				n++
				tool := tc.tool
				if tool == "" {
					tool = "forecast"
				}
				req := sf.request(t, hs.URL, tool, []byte(tc.args))
				for k, v := range tc.header {
					if v == "" {
						req.Header.Del(k)
					} else {
						req.Header.Set(k, v)
					}
				}
				before := runs.Load()
				resp, err := sf.do(t, req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				body := string(b)
				ran := runs.Load() > before

				if !sf.noHTTP && (resp.Header.Get("X-Request-ID") == "" || resp.Header.Get("X-Correlation-ID") == "") {
					t.Errorf("ids missing: %v", resp.Header)
				}
				if msg := rpcBody(body); !json.Valid([]byte(msg)) {
					t.Errorf("%d, not JSON: %.300s", resp.StatusCode, body)
				}
				if m := goText.FindString(body); m != "" {
					t.Errorf("Go text %q in %.300s", m, body)
				}
				wantStatus, wantRun := tc.status, tc.run
				if sf.validate && wantStatus == http.StatusUnauthorized {
					wantStatus, wantRun = http.StatusOK, true
				}
				if wantStatus != 0 && resp.StatusCode != wantStatus {
					t.Errorf("status %d, want %d: %.300s", resp.StatusCode, wantStatus, body)
				}
				if want := wantRun && !sf.validate; ran != want {
					t.Errorf("the tool ran: %v, want %v (%d %.300s)", ran, want, resp.StatusCode, body)
				}
				if ok := sf.ran(resp.StatusCode, body); ok != wantRun {
					t.Errorf("answered as a success: %v, want %v (%d %.300s)", ok, wantRun, resp.StatusCode, body)
				}
				if got, _ := corr.Load().(string); ran && tc.correlation != "" && !sf.streamCtx && got != tc.correlation {
					t.Errorf("the tool was called with correlation id %q, want %q", got, tc.correlation)
				}
				if tc.check != nil {
					tc.check(t, resp, body)
				}
			})
		}
	}
	if n < 200 {
		t.Errorf("%d requests, want at least 200", n)
	}
}

// Serving a request leaves it as the client made it (net/http's rule for
// handlers): the ids the server chose, and the JSON-RPC id a tracer is
// given, travel beside the request, not in its headers. With a tracer,
// on every surface, with the client's ids and without.
func TestServingLeavesTheRequestAlone(t *testing.T) {
	tool := runtime.MustNewTool("forecast", "A forecast.", func(_ context.Context, in forecastArgs) (string, error) {
		return "sunny in " + in.City, nil
	})
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{
		AllowExecute: true,
		AuthHook:     runtime.BearerTokens(goodToken),
		Tracer:       nopTracer{},
		Logger:       discardLogger(),
	})
	h := house(s) // one house: an MCP session is its handler's
	hs := httptest.NewServer(h)
	defer hs.Close()
	for _, sf := range surfaces(t, hs.URL, goodToken) {
		for _, ids := range [][]string{nil, {"X-Request-ID", "req-1", "X-Correlation-ID", "flow-1"}} {
			req := sf.request(t, hs.URL, "forecast", []byte(`{"city":"Oslo"}`))
			for i := 0; i < len(ids); i += 2 {
				req.Header.Set(ids[i], ids[i+1])
			}
			before := req.Header.Clone()
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if !sf.ran(rec.Code, rec.Body.String()) {
				t.Errorf("%s: %d %.300s", sf.name, rec.Code, rec.Body)
			}
			if !reflect.DeepEqual(req.Header, before) {
				t.Errorf("%s, ids %v: the request's headers became %v, were %v", sf.name, ids, req.Header, before)
			}
		}
	}
}

// nopTracer traces nothing; with it the server does what it does for a
// tracer.
type nopTracer struct{}

func (nopTracer) StartCall(ctx context.Context, _ *runtime.Call) (context.Context, runtime.CallSpan) {
	return ctx, nopSpan{}
}

func (nopTracer) StartRequest(ctx context.Context, _ *runtime.RPCInfo) (context.Context, func(error)) {
	return ctx, func(error) {}
}

type nopSpan struct{}

func (nopSpan) Step(ctx context.Context, _ string) (context.Context, func(error)) {
	return ctx, func(error) {}
}
func (nopSpan) TraceID() string      { return "" }
func (nopSpan) End(*runtime.Outcome) {}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// What the MCP endpoint refuses before a tool is involved (a body that is
// not JSON-RPC, a transport error the SDK answers itself) is a JSON-RPC
// error response with the right status, in words, never the SDK's
// text/plain or Go's parser text.
func TestMCPTransportErrorsAreJSONRPC(t *testing.T) {
	s := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discardLogger()})
	hs := httptest.NewServer(house(s))
	defer hs.Close()
	for _, tc := range []struct {
		name, method, body string
		header             map[string]string
		status             int
		code               int64
		// message, when set, is the error's message: for a refusal of
		// the go-sdk's, worded from the request, not from the SDK's text.
		message string
	}{
		{"not JSON", "POST", `{"jsonrpc":`, nil, 400, -32700, ""},
		{"invalid UTF-8", "POST", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}", nil, 400, -32700, ""},
		{"nested too deep", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 201), nil, 400, -32700, ""},
		{"an id that is an object", "POST", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, nil, 400, -32600, ""},
		{"a method that is a number", "POST", `{"jsonrpc":"2.0","id":1,"method":5}`, nil, 400, -32600, ""},
		{"not 2.0", "POST", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, nil, 400, -32600, ""},
		{"an empty batch", "POST", `[]`, nil, 400, -32600, ""},
		{"a string", "POST", `"ping"`, nil, 400, -32600, ""},
		{"params that are a string", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`, nil, 400, -32600, ""},
		{"neither method nor result", "POST", `{"jsonrpc":"2.0","id":1}`, nil, 400, -32600, ""},
		{"an unknown session", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, map[string]string{"Mcp-Session-Id": "nope"}, 404, -32600, "Session not found."},
		{"a wrong content type", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, map[string]string{"Content-Type": "text/plain"}, 415, -32600, "Content-Type must be application/json."},
		{"a wrong Accept", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, map[string]string{"Accept": "text/html"}, 400, -32600, "Accept must contain both application/json and text/event-stream."},
		{"GET without a session", "GET", "", map[string]string{"Accept": "text/event-stream"}, 400, -32600, "Bad request: GET requires an Mcp-Session-Id header."},
		{"DELETE without a session", "DELETE", "", nil, 400, -32600, "Bad request: DELETE requires an Mcp-Session-Id header."},
		{"a wrong method", "PUT", "", nil, 405, -32600, "Method not allowed: PUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, hs.URL+"/mcp", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var e struct {
				JSONRPC string `json:"jsonrpc"`
				Error   struct {
					Code    int64  `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(b, &e); err != nil || e.JSONRPC != "2.0" || e.Error.Code != tc.code || e.Error.Message == "" {
				t.Errorf("%d %s, want a JSON-RPC error %d", resp.StatusCode, b, tc.code)
			}
			if tc.message != "" && e.Error.Message != tc.message {
				t.Errorf("message %q, want %q", e.Error.Message, tc.message)
			}
			if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("%d %q, want %d application/json", resp.StatusCode, resp.Header.Get("Content-Type"), tc.status)
			}
			if m := goText.FindString(string(b)); m != "" {
				t.Errorf("Go text %q in %s", m, b)
			}
			if resp.Header.Get("X-Request-ID") == "" || resp.Header.Get("X-Correlation-ID") == "" {
				t.Error("ids missing")
			}
		})
	}
}

// What the go-sdk refuses in a session in text/plain, for what the body
// is, is answered for what it is: a request of a method the server does
// not have gets -32601 with its id (in a 200, as a session answers other
// errors), a batch (not at 2025-06-18 and later), an unknown
// notification, a notification with an id and a request without one a
// 400 that says so; a version the SDK does not take is named. An id the
// SDK would answer changed (1.5 as 1) is refused, and a refusal of a
// message whose id could be read answers that id; a notification that
// cannot be taken gets a 400, not a 200 with an answer.
func TestMCPSessionRefusals(t *testing.T) {
	s := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discardLogger()})
	hs := httptest.NewServer(house(s))
	defer hs.Close()
	post := func(sid, version, body string) (int, string) {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if sid == "" {
			return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
		}
		return resp.StatusCode, string(b)
	}
	code, sid := post("", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if code != 200 || sid == "" {
		t.Fatalf("initialize: %d %q", code, sid)
	}
	if code, body := post(sid, "2025-11-25", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != 202 {
		t.Fatalf("initialized: %d %s", code, body)
	}
	for _, tc := range []struct {
		name, version, body string
		status              int
		want                string // the JSON-RPC response
	}{
		{"an unknown method", "2025-11-25", `{"jsonrpc":"2.0","id":20,"method":"bogus/method"}`, 200,
			`{"jsonrpc":"2.0","id":20,"error":{"code":-32601,"message":"Method not found: \"bogus/method\"."}}`},
		{"an unknown method, a string id", "2025-11-25", `{"jsonrpc":"2.0","id":"a-1","method":"tools/bogus","params":{}}`, 200,
			`{"jsonrpc":"2.0","id":"a-1","error":{"code":-32601,"message":"Method not found: \"tools/bogus\"."}}`},
		{"an unknown notification", "2025-11-25", `{"jsonrpc":"2.0","method":"notifications/bogus"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found: \"notifications/bogus\" (a notification, not answered)."}}`},
		{"a notification with an id", "2025-11-25", `{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}`, 400,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid request: \"notifications/initialized\" is a notification: it takes no id."}}`},
		{"a request without an id", "2025-11-25", `{"jsonrpc":"2.0","method":"tools/list"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: \"tools/list\" is a request: it needs an id."}}`},
		{"a batch", "2025-11-25", `[{"jsonrpc":"2.0","id":30,"method":"tools/list"}]`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad request: JSON-RPC batches are not supported at MCP-Protocol-Version \"2025-11-25\"."}}`},
		{"an id with a fraction", "2025-11-25", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: \"id\" must be a string or a whole number of at most 2^53 in size: the SDK would answer 1.5 with another id."}}`},
		{"an id past 2^53", "2025-11-25", `{"jsonrpc":"2.0","id":99999999999999999999999,"method":"ping"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: \"id\" must be a string or a whole number of at most 2^53 in size: the SDK would answer 99999999999999999999999 with another id."}}`},
		{"an id of 2^53", "2025-11-25", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, 200,
			`{"jsonrpc":"2.0","id":9007199254740992,"result":{}}`},
		{"params that are a string, its id read", "2025-11-25", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"x"}`, 400,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid request: \"params\" must be an object or an array."}}`},
		{"a notification whose params do not decode", "2025-11-25", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"Invalid params: params.requestId must be a string or a number."}}`},
		{"an unsupported version", "1999-01-01", `{"jsonrpc":"2.0","id":7,"method":"ping"}`, 400,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad request: unsupported or mismatched MCP-Protocol-Version \"1999-01-01\"."}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A result comes as the SDK sends it, as an event.
			if code, body := post(sid, tc.version, tc.body); code != tc.status || strings.TrimSpace(body) != tc.want && !strings.Contains(body, "\ndata: "+tc.want+"\n") {
				t.Errorf("got %d %s\nwant %d %s", code, body, tc.status, tc.want)
			}
		})
	}
	if code, body := post(sid, "2025-11-25", `{"jsonrpc":"2.0","id":8,"method":"ping"}`); code != 200 || !strings.Contains(body, `"id":8,"result":{}`) {
		t.Errorf("the session after its refusals: %d %s", code, body)
	}
	// At 2026-07-28, without a session, the same words.
	for _, tc := range []struct{ name, body, want string }{
		{"a batch", `[{"jsonrpc":"2.0","id":30,"method":"tools/list"}]`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad request: JSON-RPC batches are not supported at MCP-Protocol-Version \"2026-07-28\"."}}`},
		{"a notification with an id", `{"jsonrpc":"2.0","id":3,"method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid request: \"notifications/initialized\" is a notification: it takes no id."}}`},
	} {
		t.Run("2026-07-28 "+tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(tc.body))
			for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28"} {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 400 || strings.TrimSpace(string(b)) != tc.want {
				t.Errorf("got %d %s\nwant 400 %s", resp.StatusCode, b, tc.want)
			}
		})
	}
}

// A POST to /sse that names no session is refused by the SDK in
// text/plain: answered as a JSON-RPC error, 400 (it was a recovered panic,
// a 500, worded from a request the error writer was not given).
func TestSSEPostWithoutSession(t *testing.T) {
	s := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discardLogger()})
	hs := httptest.NewServer(house(s))
	defer hs.Close()
	resp, err := http.Post(hs.URL+"/sse", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || strings.TrimSpace(string(b)) != `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad request: a POST names its session: ?sessionid=ID, from the endpoint event of the GET stream."}}` {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
}

// The auth hook runs once per HTTP request, whatever the surface: MCP's
// sessions included, whose requests reach the SDK with the caller the
// serving path found (a bearer token, or any other credential).
func TestAuthHookRunsOncePerRequest(t *testing.T) {
	tool := runtime.MustNewTool("forecast", "A forecast.", func(ctx context.Context, in forecastArgs) (string, error) {
		return "sunny in " + in.City, nil
	})
	var runs atomic.Int64
	counted := func(hook runtime.AuthHook) runtime.AuthHook {
		return func(r *http.Request) (context.Context, error) {
			runs.Add(1)
			return hook(r)
		}
	}
	t.Run("bearer token", func(t *testing.T) {
		s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{AllowExecute: true, AuthHook: counted(runtime.BearerTokens(goodToken)), Logger: discardLogger()})
		hs := httptest.NewServer(house(s))
		t.Cleanup(hs.Close) // after the streams the surfaces opened close
		for _, sf := range append(surfaces(t, hs.URL, goodToken), sseSurface(t, hs.URL, goodToken)) {
			runs.Store(0)
			resp, err := sf.do(t, sf.request(t, hs.URL, "forecast", []byte(`{"city":"Paris"}`)))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !sf.ran(resp.StatusCode, string(b)) {
				t.Errorf("%s: %d %s", sf.name, resp.StatusCode, b)
			}
			if n := runs.Load(); n != 1 && !sf.validate {
				t.Errorf("%s: the auth hook ran %d times for one request", sf.name, n)
			}
		}
	})
	t.Run("API key, MCP session", func(t *testing.T) {
		s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{AuthHook: counted(runtime.APIKeys("X-Api-Key", "k1")), Logger: discardLogger()})
		hs := httptest.NewServer(house(s))
		defer hs.Close()
		send := func(body, sid string) (*http.Response, string) {
			r, _ := http.NewRequest(http.MethodPost, hs.URL+"/mcp", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("X-Api-Key", "k1")
			if sid != "" {
				r.Header.Set("Mcp-Session-Id", sid)
				r.Header.Set("MCP-Protocol-Version", "2025-11-25")
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return resp, string(b)
		}
		runs.Store(0)
		resp, _ := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "")
		sid := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != 200 || sid == "" || runs.Load() != 1 {
			t.Fatalf("initialize: %d, session %q, the hook ran %d times", resp.StatusCode, sid, runs.Load())
		}
		for _, step := range []string{
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo"}}}`,
		} {
			runs.Store(0)
			resp, body := send(step, sid)
			if resp.StatusCode/100 != 2 || strings.Contains(body, `"error"`) {
				t.Errorf("%s: %d %s", step, resp.StatusCode, body)
			}
			if n := runs.Load(); n != 1 {
				t.Errorf("%s: the auth hook ran %d times for one request", step, n)
			}
		}
	})
}
