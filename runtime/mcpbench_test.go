package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// The MCP call-path benchmark: tools/call of the three-argument forecast
// tool over Streamable HTTP with a reused session, served by toolgen's /mcp
// (validation included), by the SDK's typed mcp.AddTool for the same
// function, and by the SDK's low-level Server.AddTool with raw arguments
// and no validation: the floor of any server on the SDK's transport. Each
// side is an httptest server on loopback, called by the SDK's client. See
// BENCHMARKS.md.

var forecastArgs = map[string]any{"city": "Paris", "days": 3, "units": "celsius"}

// rawForecastServer is the floor: decode, call, encode, nothing else.
func rawForecastServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "raw", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "forecast", InputSchema: json.RawMessage(forecastSchema)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in forecastIn
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			out, err := forecast(ctx, in)
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(out)
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
		})
	return s
}

// typedForecastServer uses the SDK's typed tools: schemas inferred from the
// Go types, arguments validated and decoded by the SDK.
func typedForecastServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "forecast"}, func(ctx context.Context, _ *mcp.CallToolRequest, in forecastIn) (*mcp.CallToolResult, forecastOut, error) {
		out, err := forecast(ctx, in)
		return nil, out, err
	})
	return s
}

func mcpSession(tb testing.TB, h http.Handler) *mcp.ClientSession {
	tb.Helper()
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

func sdkHandler(s *mcp.Server) http.Handler { return sdkHandlerWith(s, nil) }

func sdkHandlerWith(s *mcp.Server, opts *mcp.StreamableHTTPOptions) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts))
	return mux
}

func mcpSessions(tb testing.TB) map[string]*mcp.ClientSession {
	return map[string]*mcp.ClientSession{
		"toolgen":   mcpSession(tb, NewServer(ToolList{forecastTool()}, &Options{Logger: discard()})),
		"sdk-typed": mcpSession(tb, sdkHandler(typedForecastServer())),
		"sdk-raw":   mcpSession(tb, sdkHandler(rawForecastServer())),
	}
}

func BenchmarkMCPCall(b *testing.B) {
	sessions := mcpSessions(b)
	for _, impl := range []string{"sdk-raw", "sdk-typed", "toolgen"} {
		cs := sessions[impl]
		b.Run("impl="+impl, func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			p := &mcp.CallToolParams{Name: "forecast", Arguments: forecastArgs}
			for b.Loop() {
				res, err := cs.CallTool(ctx, p)
				if err != nil || res.IsError {
					b.Fatalf("%v %v", res, err)
				}
			}
		})
	}
}

// The three servers give the same result for the benchmark's call.
func TestMCPBenchmarkServersAgree(t *testing.T) {
	var want string
	for impl, cs := range mcpSessions(t) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "forecast", Arguments: forecastArgs})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", impl, res, err)
		}
		got := mustJSON(t, res.StructuredContent)
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("%s: %s, want %s", impl, got, want)
		}
	}
	if want != `{"city":"Paris","days":3,"high":21.5,"summary":"sunny in celsius"}` {
		t.Errorf("structured content %s", want)
	}
}

// The server side of tools/call alone: the JSON-RPC bytes of one call are
// replayed straight into each server's ServeHTTP, with a response writer
// that is reused, so that neither a client nor the loopback network is
// counted. In mode=stateful a session of protocol 2025-11-25 is opened
// once with raw requests (initialize, notifications/initialized) and every
// call carries its Mcp-Session-Id; in mode=stateless every call is a
// request of protocol 2026-07-28 that stands alone, as that revision's
// clients send them. Besides ns/op, cpu-ns/op is the CPU time per call
// (see cpuTime). impl=toolgen-nohistory is toolgen with
// Options.History = history.Discard: the difference to impl=toolgen is
// what recording costs. Compare runs with benchstat:
//
//	go test ./runtime -run '^$' -bench 'MCPServe' -count 10 | tee new.txt

// cpuTime is the CPU time the process has used so far, in nanoseconds,
// user and system, the garbage collector's included. On a machine shared
// with other work it varies less than the wall-clock time (ns/op), which
// counts the time spent waiting for a core.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// mcpReplay is one server and the tools/call request replayed into it.
type mcpReplay struct {
	h    http.Handler
	req  *http.Request // body replaced on every call
	body []byte
}

// replayWriter is a reusable http.ResponseWriter (and Flusher, for the
// SDK's SSE responses) that keeps the last response.
type replayWriter struct {
	header http.Header
	code   int
	body   []byte
}

func (w *replayWriter) Header() http.Header { return w.header }
func (w *replayWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
func (w *replayWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.body = append(w.body, b...)
	return len(b), nil
}
func (w *replayWriter) Flush() {}

func (w *replayWriter) reset() {
	clear(w.header)
	w.code = 0
	w.body = w.body[:0]
}

// post sends one raw JSON-RPC message, as a client of the given protocol
// revision would (and on the given session), and returns the response.
func replayPost(tb testing.TB, h http.Handler, protocol, sid, msg string) *httptest.ResponseRecorder {
	tb.Helper()
	r := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(msg))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if protocol != "" {
		r.Header.Set("Mcp-Protocol-Version", protocol)
	}
	if sid != "" {
		r.Header.Set("Mcp-Session-Id", sid)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code >= 300 {
		tb.Fatalf("%s: %d %s", msg, w.Code, w.Body)
	}
	return w
}

// newReplay readies a tools/call of forecast on h, stateful or not.
func newReplay(tb testing.TB, h http.Handler, stateless bool) *mcpReplay {
	tb.Helper()
	const args = `"arguments":{"city":"Paris","days":3,"units":"celsius"}`
	var body, protocol, sid string
	if stateless {
		protocol = "2026-07-28"
		body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"forecast",` + args + `}}`
	} else {
		protocol = "2025-11-25"
		w := replayPost(tb, h, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		if sid = w.Header().Get("Mcp-Session-Id"); sid == "" {
			tb.Fatalf("no session: %s", w.Body)
		}
		replayPost(tb, h, protocol, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"forecast",` + args + `}}`
	}
	r := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", nil)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Mcp-Protocol-Version", protocol)
	if sid != "" {
		r.Header.Set("Mcp-Session-Id", sid)
	}
	if stateless {
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", "forecast")
	}
	return &mcpReplay{h: h, req: r, body: []byte(body)}
}

// serve replays the call once into w.
func (rp *mcpReplay) serve(w *replayWriter) {
	w.reset()
	r := *rp.req
	r.Body = io.NopCloser(bytes.NewReader(rp.body))
	r.ContentLength = int64(len(rp.body))
	rp.h.ServeHTTP(w, &r)
}

// result is the structured content of the response in w (JSON or SSE).
func (w *replayWriter) result(tb testing.TB) string {
	tb.Helper()
	body := string(w.body)
	if i := strings.Index(body, "data: "); i >= 0 {
		body = strings.TrimSpace(strings.SplitN(body[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		Result struct {
			IsError           bool
			StructuredContent json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil || w.code != http.StatusOK || msg.Result.IsError {
		tb.Fatalf("%d %s", w.code, w.body)
	}
	return string(msg.Result.StructuredContent)
}

// mcpReplayHandlers are the servers of BenchmarkMCPServe, stateful or not.
func mcpReplayHandlers(stateless bool) map[string]http.Handler {
	sdkOpts := &mcp.StreamableHTTPOptions{Stateless: stateless}
	return map[string]http.Handler{
		"sdk-raw":           sdkHandlerWith(rawForecastServer(), sdkOpts),
		"sdk-typed":         sdkHandlerWith(typedForecastServer(), sdkOpts),
		"toolgen":           NewServer(ToolList{forecastTool()}, &Options{Logger: discard(), MCP: MCPOptions{Stateless: stateless}}),
		"toolgen-nohistory": NewServer(ToolList{forecastTool()}, &Options{Logger: discard(), History: history.Discard, MCP: MCPOptions{Stateless: stateless}}),
	}
}

func BenchmarkMCPServe(b *testing.B) {
	for _, mode := range []string{"stateful", "stateless"} {
		handlers := mcpReplayHandlers(mode == "stateless")
		for _, impl := range []string{"sdk-raw", "sdk-typed", "toolgen", "toolgen-nohistory"} {
			b.Run("mode="+mode+"/impl="+impl, func(b *testing.B) {
				rp := newReplay(b, handlers[impl], mode == "stateless")
				w := &replayWriter{header: http.Header{}}
				rp.serve(w)
				w.result(b)
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					rp.serve(w)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				if w.code != http.StatusOK {
					b.Fatalf("%d %s", w.code, w.body)
				}
			})
		}
	}
}

// The servers of BenchmarkMCPServe answer the replayed call alike, in
// both modes, and keep answering it.
func TestMCPServeReplay(t *testing.T) {
	const want = `{"city":"Paris","days":3,"high":21.5,"summary":"sunny in celsius"}`
	for _, stateless := range []bool{false, true} {
		for impl, h := range mcpReplayHandlers(stateless) {
			rp := newReplay(t, h, stateless)
			w := &replayWriter{header: http.Header{}}
			for range 3 {
				rp.serve(w)
				if got := w.result(t); !sameJSON(t, got, want) {
					t.Errorf("%s stateless=%v: %s, want %s", impl, stateless, got, want)
				}
			}
		}
	}
}
