package impls

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	mcpgo "github.com/mark3labs/mcp-go/server"

	"github.com/toolgen-go/toolgen/bench/forecast"
	"github.com/toolgen-go/toolgen/bench/wire"
	"github.com/toolgen-go/toolgen/runtime"
	tgmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// The servers of the MCP methods benchmark (BenchmarkMCPMethods): besides
// the forecast tool, the same tool reporting its progress twice before
// its result (forecast_progress) and a resource holding a forecast
// (ResourceURI), served by toolgen and by mcp-go. The toolgen server
// answers with an SSE stream when there are events to send (the default:
// JSONResponse would drop them); mcp-go does so of its own.

// Methods are the sub-benchmarks of BenchmarkMCPMethods, by name.
var Methods = []string{"call", "call-progress", "resources-read"}

// ResourceURI is the benchmark's resource.
const ResourceURI = "forecast://paris"

// ProgressTool is the tool that reports progress twice.
const ProgressTool = "forecast_progress"

// MethodImpl is a server of the methods benchmark.
type MethodImpl struct {
	Name     string
	Protocol wire.Protocol
	New      func() http.Handler
	// LosesEvents says the server may lose notifications a call sends:
	// mcp-go's forwarder of a session's notifications drops the one it
	// holds when the call's answer is written first (its
	// streamable_http.go), with or without an event store. Its calls are
	// timed all the same: it did the work of sending them.
	LosesEvents bool
}

// MethodImpls are the methods benchmark's servers, toolgen's first.
func MethodImpls() []MethodImpl {
	return []MethodImpl{
		{"toolgen-2026", wire.MCP2026, toolgenMethods, false},
		{"mcpgo", wire.MCP, mcpGoMethods(false), true},
		{"mcpgo-validated", wire.MCP, mcpGoMethods(true), true},
	}
}

func toolgenMethods() http.Handler {
	tools := forecast.Tools()
	progress := tools[0]
	progress.Name = ProgressTool
	run := progress.Handler
	progress.Handler = func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
		for i := range 2 {
			if err := runtime.Progress(ctx, float64(i+1), 2, ""); err != nil {
				return nil, err
			}
		}
		return run(ctx, args)
	}
	srv := runtime.NewServer(append(tools, progress), &runtime.Options{
		Logger: quiet,
		Resources: []runtime.Resource{{URI: ResourceURI, Name: "paris", MIMEType: "application/json",
			Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
				return []runtime.ResourceContents{{Text: wire.Want}}, nil
			}}},
	})
	return serve.NewHandler(srv, &serve.Options{MCP: tgmcp.Options{}})
}

func mcpGoMethods(validate bool) func() http.Handler {
	return func() http.Handler {
		var opts []mcpgo.ServerOption
		if validate {
			opts = append(opts, mcpgo.WithInputSchemaValidation())
		}
		s := mcpgo.NewMCPServer("mcpgo", "1", opts...)
		handler := func(progress bool) mcpgo.ToolHandlerFunc {
			return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if progress && req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
					for i := range 2 {
						if err := s.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
							"progressToken": req.Params.Meta.ProgressToken, "progress": i + 1, "total": 2,
						}); err != nil {
							return nil, err
						}
					}
				}
				out, text, err := call(ctx, req.BindArguments)
				if err != nil {
					return nil, err
				}
				return mcp.NewToolResultStructured(out, text), nil
			}
		}
		s.AddTool(mcp.NewToolWithRawSchema("forecast", "", inputSchema()), handler(false))
		s.AddTool(mcp.NewToolWithRawSchema(ProgressTool, "", inputSchema()), handler(true))
		s.AddResource(mcp.NewResource(ResourceURI, "paris", mcp.WithMIMEType("application/json")),
			func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: ResourceURI, MIMEType: "application/json", Text: wire.Want}}, nil
			})
		return mcpgo.NewStreamableHTTPServer(s, mcpgo.WithEndpointPath("/mcp"))
	}
}
