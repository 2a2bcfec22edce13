// Package mcpsdkbench measures the server side of go-sdk's Streamable HTTP
// transport alone, with no toolgen code: a tools/call of a tool added with
// the SDK's low-level Server.AddTool, its JSON-RPC bytes replayed straight
// into the StreamableHTTPHandler's ServeHTTP (internal/mcpreplay, which
// uses nothing but net/http), so that no client and no network is counted.
// It is written to be handed upstream, with mcpreplay's few lines.
//
//	go test ./internal/mcpsdkbench -run '^$' -bench . -benchmem -memprofile mem.out
//	go tool pprof -sample_index=alloc_space -top mem.out
//
// It shows what the SDK allocates per call: in v1.8.0 about 200 KiB
// stateful and 420 KiB stateless for a request of a few hundred bytes,
// nearly all of it the 32 KiB read buffer that every call of the SDK's
// internal json.Unmarshal allocates (it decodes through a
// segmentio/encoding json.Decoder on a bytes.Reader): six times per
// request stateful, twelve times stateless.
package mcpsdkbench

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/mcpreplay"
)

// addServer has one tool, add, with no validation of its own: the floor of
// any server on the SDK's transport.
func addServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{
		Name:        "add",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ A, B int }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(map[string]int{"sum": in.A + in.B})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
	return s
}

// newCall readies the call: stateful, on a session of protocol 2025-11-25
// opened once; stateless, a request of protocol 2026-07-28 that stands
// alone.
func newCall(tb testing.TB, stateless bool) *mcpreplay.Call {
	tb.Helper()
	s := addServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
	c, err := mcpreplay.New(h, "http://localhost/mcp", "add", `{"a":1,"b":2}`, stateless)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func answered(w *mcpreplay.Writer) bool {
	return w.Code == http.StatusOK && bytes.Contains(w.Message(), []byte(`{\"sum\":3}`))
}

func BenchmarkStreamableToolCall(b *testing.B) {
	for _, mode := range []string{"stateful", "stateless"} {
		b.Run("mode="+mode, func(b *testing.B) {
			call := newCall(b, mode == "stateless")
			w := mcpreplay.NewWriter()
			b.ReportAllocs()
			for b.Loop() {
				call.Serve(w)
			}
			if !answered(w) {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		})
	}
}

func TestStreamableToolCall(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		call := newCall(t, stateless)
		w := mcpreplay.NewWriter()
		for range 2 {
			call.Serve(w)
			if !answered(w) {
				t.Fatalf("stateless=%v: %d %s", stateless, w.Code, w.Body)
			}
		}
	}
}
