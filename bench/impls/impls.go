// Package impls holds the servers the benchmarks compare: the forecast
// tool served over the explorer's REST protocol and over MCP, by toolgen
// and by its peers. Each is an http.Handler built fresh, so the in-process
// benchmarks and the load test's server process build them the same way.
package impls

import (
	"fmt"
	"net/http"

	"github.com/toolgen-go/toolgen/bench/wire"
)

// Impl is one server of the forecast tool.
type Impl struct {
	// Name is unique within its protocol; the benchmarks' sub-benchmark
	// names are impl=Name.
	Name     string
	Protocol wire.Protocol
	// About says in a line what it is, for the report.
	About string
	// Validates says whether it checks the arguments against the input
	// schema before the call (the tests hold it to that).
	Validates bool
	// New builds the server. It serves the protocol at Protocol.Path().
	New func() http.Handler
}

// ID is "rest/NAME" or "mcp/NAME" (an MCP2026 impl's too: its figures go
// in MCP's tables, as the benchmarks name them): how the server and load
// commands name an impl.
func (i Impl) ID() string { return string(i.Protocol.Family()) + "/" + i.Name }

// All lists every impl, REST first; within a protocol the baseline that
// the others are compared with comes first.
func All() []Impl {
	return []Impl{
		{"handwritten", wire.REST, "a net/http handler: decode into the struct, call, encode; no validation", false, handWritten},
		{"toolgen", wire.REST, "toolgen's runtime.Server with the generated tool, defaults (validation, history, metrics)", true, toolgenREST},

		{"sdk-raw", wire.MCP, "go-sdk Server.AddTool: raw arguments decoded into the struct, no validation", false, sdkRaw},
		{"sdk-typed", wire.MCP, "go-sdk mcp.AddTool with the same input schema: validated and decoded by the SDK", true, sdkTyped},
		{"toolgen-stateful", wire.MCP, "toolgen's runtime.Server at /mcp, sessions (default), JSON responses", true, toolgenMCP(false)},
		{"toolgen-stateless", wire.MCP, "toolgen's runtime.Server at /mcp, MCP.Stateless, JSON responses", true, toolgenMCP(true)},
		{"toolgen-2026", wire.MCP2026, "toolgen's runtime.Server at /mcp (default options, JSON responses), called at MCP 2026-07-28: no session, answered by toolgen's fast path", true, toolgenMCP(false)},
		{"mcpgo", wire.MCP, "mark3labs/mcp-go: BindArguments, no validation (its default)", false, mcpGo(false)},
		{"mcpgo-validated", wire.MCP, "mark3labs/mcp-go with WithInputSchemaValidation", true, mcpGo(true)},
	}
}

// Of returns the impls of one protocol's tables (MCP's hold MCP2026's),
// in All's order.
func Of(p wire.Protocol) []Impl {
	var out []Impl
	for _, i := range All() {
		if i.Protocol.Family() == p {
			out = append(out, i)
		}
	}
	return out
}

// Lookup finds an impl by its ID.
func Lookup(id string) (Impl, error) {
	for _, i := range All() {
		if i.ID() == id {
			return i, nil
		}
	}
	return Impl{}, fmt.Errorf("no impl %q", id)
}
