package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// What MCP 2026-07-28 asks of every result, and of HTTP requests, the SDK
// does for toolgen's tools too.

// headerTool has an argument mirrored into the Mcp-Param-Region header.
func headerTool() runtime.Tool {
	return runtime.Tool{
		Name:        "where",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`),
		Handler: func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct{ Region string }
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return runtime.TextResult("region " + in.Region), nil
		},
	}
}

func TestMCP2026Results(t *testing.T) {
	tools := append(mcpTools(), headerTool())
	hs := newHTTPTest(newTestServer(tools, &runtime.Options{Logger: discard()}, &Options{Stateless: true}))
	defer hs.Close()

	// tools/list: the result's type and caching hints, in the provider's
	// order, schemas and hints as generated.
	code, msg := servertest.Post2026(t, hs.URL, "tools/list", "", "")
	res, _ := msg["result"].(map[string]any)
	if code != 200 || res["resultType"] != "complete" || res["ttlMs"] != 0.0 || res["cacheScope"] != "public" {
		t.Fatalf("tools/list: %d %v", code, msg)
	}
	list := res["tools"].([]any)
	if len(list) != len(tools) || list[0].(map[string]any)["name"] != tools[0].Name {
		t.Errorf("tools/list order: %v", list)
	}
	for _, tl := range list {
		tl := tl.(map[string]any)
		if tl["name"] == "sum" && mustJSON(t, tl["annotations"]) != `{"openWorldHint":false,"readOnlyHint":true}` {
			t.Errorf("sum's hints: %v", tl["annotations"])
		}
	}
	if info, _ := res["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any); info["name"] == "" {
		t.Errorf("no serverInfo in _meta: %v", res["_meta"])
	}

	// tools/call: the result's type.
	code, msg = servertest.Post2026(t, hs.URL, "tools/call", "plain", `{"name":"plain"}`)
	if res, _ := msg["result"].(map[string]any); code != 200 || res["resultType"] != "complete" || mustJSON(t, res["content"]) != `[{"text":"result here","type":"text"}]` {
		t.Errorf("tools/call: %d %v", code, msg)
	}

	// The Mcp-Param-* headers the schema asks for are checked by the SDK:
	// a call whose header does not match its argument is refused.
	code, msg = servertest.Post2026(t, hs.URL, "tools/call", "where", `{"name":"where","arguments":{"region":"eu"}}`, "Mcp-Param-Region", "eu")
	if code != 200 || !strings.Contains(mustJSON(t, msg), "region eu") {
		t.Errorf("matching header: %d %v", code, msg)
	}
	for _, h := range [][]string{{"Mcp-Param-Region", "us"}, {}} {
		code, msg = servertest.Post2026(t, hs.URL, "tools/call", "where", `{"name":"where","arguments":{"region":"eu"}}`, h...)
		if e, _ := msg["error"].(map[string]any); code != 400 || e["code"] != -32020.0 {
			t.Errorf("header %v: %d %v", h, code, msg)
		}
	}
	// So are Mcp-Method and Mcp-Name.
	code, msg = servertest.Post2026(t, hs.URL, "tools/call", "plain", `{"name":"count"}`)
	if e, _ := msg["error"].(map[string]any); code != 400 || e["code"] != -32020.0 {
		t.Errorf("Mcp-Name mismatch: %d %v", code, msg)
	}
}

// Results are private to the caller when a hook authenticates requests, and
// a function provider's tools/list is private always.
func TestMCPCacheScope(t *testing.T) {
	for _, c := range []struct {
		name  string
		p     runtime.ToolsProvider
		hook  runtime.AuthHook
		scope string
	}{
		{"fixed list", mcpTools(), nil, "public"},
		{"function provider", runtime.ToolsFunc(func(context.Context) ([]runtime.Tool, error) { return mcpTools(), nil }), nil, "private"},
		{"auth hook", mcpTools(), runtime.BearerTokens("t"), "private"},
	} {
		hs := newHTTPTest(newTestServer(c.p, &runtime.Options{Logger: discard(), AuthHook: c.hook}, &Options{Stateless: true}))
		for _, method := range []string{"tools/list", "resources/list"} {
			_, msg := servertest.Post2026(t, hs.URL, method, "", "", "Authorization", "Bearer t")
			res, _ := msg["result"].(map[string]any)
			want := c.scope
			if method == "resources/list" && c.hook == nil {
				want = "public" // the SDK's list: the provider is not involved
			}
			if res["cacheScope"] != want || res["ttlMs"] != 0.0 {
				t.Errorf("%s, %s: %v", c.name, method, msg)
			}
		}
		hs.Close()
	}
}

// serverInfo: the main module's path and version by default, the title
// from Options.Title; Options.Name and Version when set.
func TestMCPServerIdentity(t *testing.T) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	version := bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	info := func(opts *runtime.Options) *sdk.Implementation {
		return connect(t, runtime.NewServer(runtime.ToolList{}, opts), nil).InitializeResult().ServerInfo
	}
	if got := info(&runtime.Options{Title: "Weather", Logger: discard()}); got.Name != bi.Main.Path || got.Version != version || got.Title != "Weather" || got.Name == "" {
		t.Errorf("default identity %+v, want %s %s", got, bi.Main.Path, version)
	}
	if got := info(&runtime.Options{Logger: discard(), Name: "wx", Version: "1.2.3"}); got.Name != "wx" || got.Version != "1.2.3" || got.Title != "" {
		t.Errorf("named identity %+v", got)
	}
}

// Every tool of a fixed list is in the SDK's registry once the SDK serves
// a request (a session of an older revision: toolgen answers 2026-07-28
// itself), and the registry dispatches its calls, alike in both modes.
func TestMCPRegistryHoldsEveryTool(t *testing.T) {
	tools := append(mcpTools(), headerTool())
	for _, stateless := range []bool{false, true} {
		s := newTestServer(tools, &runtime.Options{Logger: discard()}, &Options{Stateless: stateless})
		// Not before MCP is served: NewServer stays cheap.
		if n := len(mcpOf(s).registry.tools); n != 0 {
			t.Errorf("stateless=%v: %d tools registered by NewServer", stateless, n)
		}
		cs := connect(t, s, nil) // 2025-11-25
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]string{"plain": "result here", "where": "region eu"} {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: map[string]any{"region": "eu"}})
			if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != want {
				t.Errorf("stateless=%v, %s: %v %v", stateless, name, mustJSON(t, res), err)
			}
		}
		if got := slices.Sorted(maps.Keys(mcpOf(s).registry.tools)); len(got) != len(tools) {
			t.Errorf("stateless=%v: registered %v, want all %d tools", stateless, got, len(tools))
		}
	}
}
