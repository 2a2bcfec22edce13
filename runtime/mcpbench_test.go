package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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

func sdkHandler(s *mcp.Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
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
