package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// Progressive discovery (Options.ToolSearch): tools/list gives two
// meta-tools instead of the catalog, search_tools (the tools that best
// match a query: runtime.Server.SearchTools) and call_tool (a tool called
// by name, through the same pipeline, policy and history as a direct
// call, which the history records as that tool's; a task tool runs as a
// task when the client asks for tasks). An agent handed a catalog of
// thousands of tools gets two, and loads the schemas of the few it needs.
// A direct call by name works as ever.

// The meta-tools' names.
const (
	SearchToolsName = "search_tools"
	CallToolName    = "call_tool"
)

// Search limits: search_tools' limit when the call gives none, and the
// most it may ask for.
const (
	DefaultSearchLimit = 5
	MaxSearchLimit     = 50
)

// Check reports what keeps o from serving srv: with ToolSearch, a tool of
// srv's ToolList named like a meta-tool (a provider that is not a
// ToolList is checked as it lists: such a tool is left out of search
// results, and its name calls the meta-tool).
func (o *Options) Check(srv *runtime.Server) error {
	if o == nil || !o.ToolSearch || !srv.FixedList() {
		return nil
	}
	for _, name := range []string{SearchToolsName, CallToolName} {
		if t, _ := srv.Lookup(context.Background(), name); t != nil {
			return fmt.Errorf("mcp: Options.ToolSearch lists the meta-tool %s, and the server has a tool of that name: rename the tool, or serve the catalog without ToolSearch", name)
		}
	}
	return nil
}

// metaTools are tools/list's answer with ToolSearch.
func metaTools() []mcpTool {
	return []mcpTool{{
		Name:  SearchToolsName,
		Title: "Search tools",
		Description: "Finds the tools of this server that can do what you describe. This server has more tools than it lists: " +
			"call search_tools first with what you want to do, in your own words (\"refund the last order of a customer\"), " +
			"then call the tool you chose with call_tool, giving its name and arguments that fit its inputSchema. " +
			"Results are ranked, best first; search again with other words if none fits.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","minLength":1,"description":"What you want to do, in words: the task, the things it acts on."},"limit":{"type":"integer","minimum":1,"maximum":50,"default":5,"description":"How many tools to return, at most (default 5)."}},"required":["query"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"tools":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"title":{"type":"string"},"description":{"type":"string"},"inputSchema":{"type":"object"}},"required":["name","inputSchema"]}}},"required":["tools"]}`),
		Annotations:  &runtime.Annotations{ReadOnlyHint: runtime.Bool(true), IdempotentHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(false)},
		Meta:         mcpToolMeta{Version: "1.0.0"},
	}, {
		Name:  CallToolName,
		Title: "Call a tool",
		Description: "Calls a tool of this server by its name, with arguments that fit its inputSchema, and returns its result. " +
			"Find the tool and its inputSchema with search_tools first. The tool called may change things: what it does is in its own description and annotations.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1,"description":"The name of the tool to call, as search_tools gave it."},"arguments":{"type":"object","description":"The tool's arguments, fitting its inputSchema."}},"required":["name"],"additionalProperties":false}`),
		Annotations: &runtime.Annotations{ReadOnlyHint: runtime.Bool(false), DestructiveHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(true)},
		Meta:        mcpToolMeta{Version: "1.0.0"},
	}}
}

// isMeta reports whether name is a meta-tool's, with ToolSearch on.
func (s *server) isMeta(name string) bool {
	return s.mopts.ToolSearch && (name == SearchToolsName || name == CallToolName)
}

// metaArgs reads a meta-tool's arguments, an object whose members are
// among allowed; the message says what is wrong, for the model, in the
// tool's own words.
func metaArgs(args json.RawMessage, allowed ...string) (map[string]json.RawMessage, string) {
	m := map[string]json.RawMessage{}
	if len(args) > 0 && string(args) != "null" {
		if err := json.Unmarshal(args, &m); err != nil {
			return nil, "invalid arguments: an object is expected"
		}
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			return nil, fmt.Sprintf("invalid arguments: unknown argument %q (the arguments are %s)", k, strings.Join(allowed, ", "))
		}
	}
	return m, ""
}

// stringArg reads the string member key of m, "" when absent; ok is false
// when it is there and not a string.
func stringArg(m map[string]json.RawMessage, key string) (v string, ok bool) {
	raw, there := m[key]
	if !there {
		return "", true
	}
	return v, json.Unmarshal(raw, &v) == nil
}

// searchTools answers a call of search_tools: the best matches as
// structured content {"tools": [...]} and the same JSON as text.
func (s *server) searchTools(ctx context.Context, args json.RawMessage) (*sdk.CallToolResult, error) {
	m, msg := metaArgs(args, "query", "limit")
	query, ok := stringArg(m, "query")
	limit := DefaultSearchLimit
	switch {
	case msg != "":
	case !ok:
		msg = "invalid arguments: query is a string: say what you want to do"
	case query == "":
		msg = "invalid arguments: query is required: say what you want to do"
	case m["limit"] != nil:
		if err := json.Unmarshal(m["limit"], &limit); err != nil || limit < 1 || limit > MaxSearchLimit {
			msg = fmt.Sprintf("invalid arguments: limit is an integer from 1 to %d", MaxSearchLimit)
		}
	}
	if msg != "" {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: true}, nil
	}
	// One more than asked, should a tool named like a meta-tool be
	// among them.
	found, err := s.core.SearchTools(ctx, query, limit+2)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
	}
	type entry struct {
		Name        string          `json:"name"`
		Title       string          `json:"title,omitempty"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	out := struct {
		Tools []entry `json:"tools"`
	}{Tools: []entry{}}
	for i := range found {
		t := &found[i]
		if s.isMeta(t.Name) || len(out.Tools) == limit {
			continue
		}
		out.Tools = append(out.Tools, entry{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: runtime.EffectiveInputSchema(t)})
	}
	b, err := httpkit.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
}

// unwrapCall makes a call of call_tool the call of the tool it names: req
// then stands for that call, and goes on as a direct one. It returns the
// answer when there is none to go on with (arguments that do not say
// which tool).
func (s *server) unwrapCall(req *sdk.CallToolRequest) *sdk.CallToolResult {
	m, msg := metaArgs(req.Params.Arguments, "name", "arguments")
	name, ok := stringArg(m, "name")
	args := m["arguments"]
	switch {
	case msg != "":
	case !ok:
		msg = "invalid arguments: name is a string: the tool to call, as search_tools gave it"
	case name == "":
		msg = "invalid arguments: name is required: the tool to call, as search_tools gave it"
	case s.isMeta(name):
		msg = "invalid arguments: call_tool calls the server's tools, not " + name
	case len(args) > 0 && args[0] != '{' && string(args) != "null":
		msg = "invalid arguments: arguments is an object: the tool's arguments, fitting its inputSchema"
	}
	if msg != "" {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: true}
	}
	req.Params.Name, req.Params.Arguments = name, args
	return nil
}
