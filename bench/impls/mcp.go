package impls

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	mcpgo "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgen-go/toolgen/bench/forecast"
	"github.com/toolgen-go/toolgen/runtime"
	tgmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// Every MCP server here answers a POST with application/json rather than
// an SSE stream: mcp-go does so for a call that sends no notifications,
// and toolgen and the go-sdk do with their JSONResponse option, so no
// server pays for framing the others do not.

// toolgenMCP is runtime.Server's MCP surface with the generated tool, the
// other options at their defaults (validation, history, metrics).
func toolgenMCP(stateless bool) func() http.Handler {
	return func() http.Handler {
		return serve.NewHandler(runtime.NewServer(forecast.Tools(), &runtime.Options{Logger: quiet}),
			&serve.Options{MCP: tgmcp.Options{Stateless: stateless, JSONResponse: true}})
	}
}

// inputSchema is the schema toolgen generated for the tool: every server
// that takes a schema gets the same one.
func inputSchema() json.RawMessage { return forecast.Tools()[0].InputSchema }

// call is the handler of the peers that decode the arguments themselves:
// decode them with decode, call the tool, and return its result with the
// result's JSON, which is both the text content (for clients that do not
// read structured content) and, for the go-sdk, the structured content.
func call(ctx context.Context, decode func(any) error) (forecast.Result, string, error) {
	var in forecast.Input
	if err := decode(&in); err != nil {
		return forecast.Result{}, "", err
	}
	out, err := forecast.Forecast(ctx, in)
	if err != nil {
		return forecast.Result{}, "", err
	}
	b, err := json.Marshal(out)
	return out, string(b), err
}

func sdkHandler(s *sdk.Server) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{JSONResponse: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	return mux
}

// sdkRaw is the floor of any server on the go-sdk: the low-level
// Server.AddTool with the raw schema and a handler that decodes the raw
// arguments, calls and encodes, without validation.
func sdkRaw() http.Handler {
	s := sdk.NewServer(&sdk.Implementation{Name: "sdk-raw", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "forecast", InputSchema: inputSchema()},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			_, text, err := call(ctx, func(v any) error { return json.Unmarshal(req.Params.Arguments, v) })
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(text)}, nil
		})
	return sdkHandler(s)
}

// sdkTyped is the go-sdk's typed tool: it validates the arguments against
// the input schema, decodes them into the struct, and encodes the result
// as structured and text content (with an output schema it infers from
// the result type). It is given toolgen's input schema: inferred from
// forecast.Input it would lack the bounds and the enum (the SDK reads a
// jsonschema tag as a description, and refuses one of the form
// "key=value"), and would validate less than the others.
func sdkTyped() http.Handler {
	s := sdk.NewServer(&sdk.Implementation{Name: "sdk-typed", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "forecast", InputSchema: inputSchema()}, func(ctx context.Context, _ *sdk.CallToolRequest, in forecast.Input) (*sdk.CallToolResult, forecast.Result, error) {
		out, err := forecast.Forecast(ctx, in)
		return nil, out, err
	})
	return sdkHandler(s)
}

// mcpGo is mark3labs/mcp-go's Streamable HTTP server with toolgen's
// schema as the tool's raw input schema. Its validation is opt-in
// (WithInputSchemaValidation, which compiles the tool's input schema with
// santhosh-tekuri/jsonschema); without it the handler gets whatever
// arguments come.
func mcpGo(validate bool) func() http.Handler {
	return func() http.Handler {
		var opts []mcpgo.ServerOption
		if validate {
			opts = append(opts, mcpgo.WithInputSchemaValidation())
		}
		s := mcpgo.NewMCPServer("mcpgo", "1", opts...)
		s.AddTool(mcp.NewToolWithRawSchema("forecast", "", inputSchema()),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				out, text, err := call(ctx, req.BindArguments)
				if err != nil {
					return nil, err
				}
				return mcp.NewToolResultStructured(out, text), nil
			})
		return mcpgo.NewStreamableHTTPServer(s, mcpgo.WithEndpointPath("/mcp"))
	}
}
