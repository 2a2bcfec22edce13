package mcp

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// MCP's tools/call answers any arguments with a result: isError for
// refused arguments, never a protocol error or a panic.
func FuzzMCPToolsCall(f *testing.F) {
	for _, s := range servertest.ArgSeeds {
		f.Add(s)
	}
	s := mcpOf(runtime.NewServer(append(callTools()[:2:2], callTools()[7]), &runtime.Options{Logger: discard()}))
	f.Fuzz(func(t *testing.T, args string) {
		req := &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: "count", Arguments: json.RawMessage(args)}}
		r, err := s.serveToolCall(context.Background(), req)
		if err != nil {
			t.Fatalf("%q: protocol error %v", args, err)
		}
		if len(r.Content) == 0 && r.StructuredContent == nil {
			t.Fatalf("%q: result %#v", args, r)
		}
		if _, err := httpkit.Marshal(r); err != nil {
			t.Fatalf("%q: the result does not encode: %v", args, err)
		}
	})
}
