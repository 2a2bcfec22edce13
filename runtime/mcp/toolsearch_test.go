package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// searchCall is a tools/call of a meta-tool with args (raw JSON).
func searchCall(tool, args string) fastReq {
	r := call2026(tool, args)
	r.name = "meta " + r.name
	return r
}

// toolSearchCases are requests of a server with Options.ToolSearch: its
// list, both meta-tools with every kind of argument, and direct calls.
func toolSearchCases() []fastReq {
	return []fastReq{
		{name: "list", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + fastMeta2026 + `}}`},
		searchCall("search_tools", `{"query":"count the days in a city"}`),
		searchCall("search_tools", `{"query":"count the days in a city","limit":1}`),
		searchCall("search_tools", `{"query":"approve"}`),
		searchCall("search_tools", `{"query":"zzz"}`),
		searchCall("search_tools", `{}`),
		searchCall("search_tools", ``),
		searchCall("search_tools", `{"query":""}`),
		searchCall("search_tools", `{"query":5}`),
		searchCall("search_tools", `{"query":"x","limit":0}`),
		searchCall("search_tools", `{"query":"x","limit":51}`),
		searchCall("search_tools", `{"query":"x","limit":"5"}`),
		searchCall("search_tools", `{"query":"x","extra":1}`),
		searchCall("search_tools", `[1]`),
		searchCall("call_tool", `{"name":"count","arguments":{"city":"Oslo","days":2}}`),
		searchCall("call_tool", `{"name":"count","arguments":{"days":99}}`),
		searchCall("call_tool", `{"name":"plain"}`),
		searchCall("call_tool", `{"name":"plain","arguments":null}`),
		searchCall("call_tool", `{"name":"hard_fail"}`),
		searchCall("call_tool", `{"name":"no_such_tool"}`),
		searchCall("call_tool", `{"name":"admin_only"}`),
		searchCall("call_tool", `{"name":"where","arguments":{"region":"eu"}}`),
		searchCall("call_tool", `{"name":"search_tools","arguments":{"query":"x"}}`),
		searchCall("call_tool", `{"name":"call_tool"}`),
		searchCall("call_tool", `{}`),
		searchCall("call_tool", `{"name":5}`),
		searchCall("call_tool", `{"name":"plain","arguments":[1]}`),
		searchCall("call_tool", `{"name":"plain","other":1}`),
		call2026("plain", ""),
		call2026("count", `{"city":"Oslo","days":2}`),
	}
}

// With Options.ToolSearch, tools/list gives the meta-tools, search_tools
// finds tools, and call_tool calls them through the pipeline (the
// history records the tool called): the same answers, records and traces
// natively as from the SDK.
func TestMCPToolSearchSameAnswers(t *testing.T) {
	for _, o := range []Options{{ToolSearch: true, JSONResponse: true}, {ToolSearch: true, Stateless: true}} {
		t.Run(fmt.Sprintf("JSONResponse=%v", o.JSONResponse), func(t *testing.T) {
			p := newFastPairWith(t, o)
			for _, c := range toolSearchCases() {
				p.compare(t, c)
			}
			n := mcpOf(p.on).fast.answered.Load()
			for _, c := range toolSearchCases()[:3] {
				p.compare(t, c)
			}
			if got := mcpOf(p.on).fast.answered.Load(); got != n+3 {
				t.Errorf("answered natively: %d of 3", got-n)
			}
		})
	}
}

// What the meta-tools answer, spelt out.
func TestMCPToolSearch(t *testing.T) {
	p := newFastPairWith(t, Options{ToolSearch: true, JSONResponse: true})
	on, _ := p.compare(t, toolSearchCases()[0])
	var list struct {
		Result struct {
			Tools []mcpTool `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(on.Body), &list); err != nil || len(list.Result.Tools) != 2 || list.Result.Tools[0].Name != "search_tools" || list.Result.Tools[1].Name != "call_tool" {
		t.Fatalf("tools/list: %s", on.Body)
	}
	on, _ = p.compare(t, searchCall("search_tools", `{"query":"count the days in a city","limit":1}`))
	var found struct {
		Result struct {
			StructuredContent struct {
				Tools []struct {
					Name        string          `json:"name"`
					InputSchema json.RawMessage `json:"inputSchema"`
				} `json:"tools"`
			} `json:"structuredContent"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(on.Body), &found); err != nil {
		t.Fatal(err)
	}
	tools := found.Result.StructuredContent.Tools
	if len(tools) != 1 || tools[0].Name != "count" || !strings.Contains(string(tools[0].InputSchema), `"city"`) || !strings.Contains(found.Result.Content[0].Text, `"name":"count"`) {
		t.Errorf("search_tools: %s", on.Body)
	}
	on, _ = p.compare(t, searchCall("call_tool", `{"name":"count","arguments":{"city":"Oslo","days":2}}`))
	if !strings.Contains(on.History, `"tool_name":"count"`) || !strings.Contains(on.Body, `"isError":false`) && strings.Contains(on.Body, `"isError":true`) {
		t.Errorf("call_tool: %+v", on)
	}
	// A task tool called through call_tool runs as a task when the
	// client asks for tasks (the task's record is awaited elsewhere:
	// mcptasks_test.go).
	r := searchCall("call_tool", `{"name":"as_task"}`)
	r.body = replaceOnce(r.body, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
	if a := p.send(t, p.on, p.tron, r); !strings.Contains(a.Body, `"resultType":"task"`) || !strings.Contains(a.Body, `"taskId"`) {
		t.Errorf("call_tool of a task tool: %s", a.Body)
	}
	on, _ = p.compare(t, searchCall("search_tools", `{"query":"x","limit":51}`))
	if !strings.Contains(on.Body, `"isError":true`) || !strings.Contains(on.Body, "limit is an integer from 1 to 50") {
		t.Errorf("limit 51: %s", on.Body)
	}
}

// A tool named like a meta-tool is refused when ToolSearch lists them.
func TestMCPToolSearchClash(t *testing.T) {
	s := runtime.NewServer(runtime.ToolList{{Name: "call_tool", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(""), nil }}}, &runtime.Options{Logger: discard()})
	if err := (&Options{ToolSearch: true}).Check(s); err == nil || !strings.Contains(err.Error(), "meta-tool call_tool") {
		t.Errorf("Check: %v", err)
	}
	if err := (&Options{}).Check(s); err != nil {
		t.Errorf("Check without ToolSearch: %v", err)
	}
	defer func() {
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "meta-tool call_tool") {
			t.Errorf("NewHandler: %v", v)
		}
	}()
	NewHandler(s, &Options{ToolSearch: true})
}

// In a session of an older revision, the meta-tools are the list too, and
// answer alike.
func TestMCPToolSearchInSession(t *testing.T) {
	s := newTestServer(fastTools(), &runtime.Options{Logger: discard(), AllowExecute: true}, &Options{ToolSearch: true})
	cs := connect(t, s, nil)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 2 || list.Tools[0].Name != SearchToolsName || list.Tools[1].Name != CallToolName {
		t.Fatalf("tools/list: %v %v", mustJSON(t, list), err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: SearchToolsName, Arguments: map[string]any{"query": "count the days in a city", "limit": 1}})
	if err != nil || res.IsError || !strings.Contains(mustJSON(t, res.StructuredContent), `"name":"count"`) {
		t.Errorf("search_tools: %v %v", mustJSON(t, res), err)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: CallToolName, Arguments: map[string]any{"name": "plain"}})
	if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != "result here" {
		t.Errorf("call_tool: %v %v", mustJSON(t, res), err)
	}
}
