package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/mcpreplay"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/testtools"
)

// The MCP call-path benchmark: tools/call of the three-argument forecast
// tool over Streamable HTTP with a reused session, served by toolgen's /mcp
// (validation included), by the SDK's typed sdk.AddTool for the same
// function, and by the SDK's low-level Server.AddTool with raw arguments
// and no validation: the floor of any server on the SDK's transport. Each
// side is an httptest server on loopback, called by the SDK's client. See
// BENCHMARKS.md.

var forecastArgs = map[string]any{"city": "Paris", "days": 3, "units": "celsius"}

// rawForecastServer is the floor: decode, call, encode, nothing else.
func rawForecastServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "raw", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "forecast", InputSchema: json.RawMessage(testtools.ForecastSchema)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in testtools.ForecastIn
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			out, err := testtools.Forecast(ctx, in)
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(out)
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
		})
	return s
}

// typedForecastServer uses the SDK's typed tools: schemas inferred from the
// Go types, arguments validated and decoded by the SDK.
func typedForecastServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "typed", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "forecast"}, func(ctx context.Context, _ *sdk.CallToolRequest, in testtools.ForecastIn) (*sdk.CallToolResult, testtools.ForecastOut, error) {
		out, err := testtools.Forecast(ctx, in)
		return nil, out, err
	})
	return s
}

func mcpSession(tb testing.TB, h http.Handler) *sdk.ClientSession {
	tb.Helper()
	hs := newHTTPTest(h)
	tb.Cleanup(hs.Close)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

func sdkHandler(s *sdk.Server) http.Handler { return sdkHandlerWith(s, nil) }

func sdkHandlerWith(s *sdk.Server, opts *sdk.StreamableHTTPOptions) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, opts))
	return mux
}

func mcpSessions(tb testing.TB) map[string]*sdk.ClientSession {
	return map[string]*sdk.ClientSession{
		"toolgen":   mcpSession(tb, houseOf(runtime.NewServer(runtime.ToolList{testtools.ForecastTool()}, &runtime.Options{Logger: discard()}))),
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
			p := &sdk.CallToolParams{Name: "forecast", Arguments: forecastArgs}
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
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "forecast", Arguments: forecastArgs})
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
// replayed straight into each server's ServeHTTP (internal/mcpreplay), with
// a response writer that is reused, so that neither a client nor the
// loopback network is counted. In mode=stateful a session of protocol
// 2025-11-25 is opened once with raw requests and every call carries its
// Mcp-Session-Id; in mode=stateless every call is a request of protocol
// 2026-07-28 that stands alone, as that revision's clients send them.
// Besides ns/op, cpu-ns/op is the CPU time per call (see cpuTime).
// impl=toolgen-nohistory is toolgen with Options.History = history.Discard:
// the difference to impl=toolgen is what storing the records costs.
// internal/mcpsdkbench measures the SDK's transport alone the same way.
// Compare runs with benchstat:
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

// newReplay readies a tools/call of forecast on h, stateful or not.
func newReplay(tb testing.TB, h http.Handler, stateless bool) *mcpreplay.Call {
	tb.Helper()
	c, err := mcpreplay.New(h, "http://localhost/mcp", "forecast", testtools.ForecastBody, stateless)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// replayResult is the structured content of the call's response in w.
func replayResult(tb testing.TB, w *mcpreplay.Writer) string {
	tb.Helper()
	var msg struct {
		Result struct {
			IsError           bool
			StructuredContent json.RawMessage
		}
	}
	if err := json.Unmarshal(w.Message(), &msg); err != nil || w.Code != http.StatusOK || msg.Result.IsError {
		tb.Fatalf("%d %s", w.Code, w.Body)
	}
	return string(msg.Result.StructuredContent)
}

// mcpReplayHandlers are the servers of BenchmarkMCPServe, stateful or not.
func mcpReplayHandlers(stateless bool) map[string]http.Handler {
	sdkOpts := &sdk.StreamableHTTPOptions{Stateless: stateless}
	return map[string]http.Handler{
		"sdk-raw":           sdkHandlerWith(rawForecastServer(), sdkOpts),
		"sdk-typed":         sdkHandlerWith(typedForecastServer(), sdkOpts),
		"toolgen":           houseOf(newTestServer(runtime.ToolList{testtools.ForecastTool()}, &runtime.Options{Logger: discard()}, &Options{Stateless: stateless})),
		"toolgen-nohistory": houseOf(newTestServer(runtime.ToolList{testtools.ForecastTool()}, &runtime.Options{Logger: discard(), History: history.Discard}, &Options{Stateless: stateless})),
	}
}

func BenchmarkMCPServe(b *testing.B) {
	for _, mode := range []string{"stateful", "stateless"} {
		handlers := mcpReplayHandlers(mode == "stateless")
		for _, impl := range []string{"sdk-raw", "sdk-typed", "toolgen", "toolgen-nohistory"} {
			b.Run("mode="+mode+"/impl="+impl, func(b *testing.B) {
				call := newReplay(b, handlers[impl], mode == "stateless")
				w := mcpreplay.NewWriter()
				call.Serve(w)
				replayResult(b, w)
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					call.Serve(w)
				}
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				if w.Code != http.StatusOK {
					b.Fatalf("%d %s", w.Code, w.Body)
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
			call := newReplay(t, h, stateless)
			w := mcpreplay.NewWriter()
			for range 3 {
				call.Serve(w)
				if got := replayResult(t, w); !sameJSON(t, got, want) {
					t.Errorf("%s stateless=%v: %s, want %s", impl, stateless, got, want)
				}
			}
		}
	}
}
