package mcp

//lint:file-ignore SA1019 the tests exercise logging and sampling, deprecated in MCP 2026-07-28 but supported

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// The MCP surface, tested with the SDK's own client over in-memory
// transports (and Streamable HTTP where HTTP is the point).

// serveInMemory connects s, in a session whose context is ctx, to one end
// of an in-memory pipe and returns the other end. The session is waited
// for after the test's own cleanups (registered later) close the client.
func serveInMemory(t *testing.T, ctx context.Context, s *runtime.Server) sdk.Transport {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcpOf(s).sdk().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Wait() })
	return ct
}

// connect opens a client session on s over in-memory transports. The
// protocol is pinned to 2025-11-25, the version in which the server may
// make requests of the client (sampling, elicitation) and log.
func connect(t *testing.T, s *runtime.Server, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	return connectAs(t, context.Background(), s, opts)
}

// connectAs is connect with the server session's context.
func connectAs(t *testing.T, ctx context.Context, s *runtime.Server, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	ct := serveInMemory(t, ctx, s)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts).Connect(context.Background(), ct, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameJSON compares two JSON texts by value.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return mustJSON(t, x) == mustJSON(t, y)
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// mcpTools are tools for the MCP tests beside callTools.
func mcpTools() runtime.ToolList {
	return append(callTools(),
		runtime.Tool{
			Name:        "sum",
			Title:       "Sum",
			Description: "Adds numbers.",
			Annotations: &runtime.Annotations{ReadOnlyHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(false)},
			InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"xs":{"type":"array","items":{"type":"number"}}},"required":["xs"],"additionalProperties":false,"$defs":{"unused":{"type":"string"}}}`),
			// Not an object: MCP gets it wrapped as {"result": ...}.
			OutputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"number","$defs":{"n":{"type":"number"}}}`),
			Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				var in struct{ Xs []float64 }
				if err := runtime.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				total := 0.0
				for _, x := range in.Xs {
					total += x
				}
				return runtime.StructuredResult(total)
			},
		},
		runtime.Tool{
			Name: "picture",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return runtime.ContentResult(runtime.Image([]byte{1, 2}, "image/png")), nil
			},
		},
	)
}

func TestMCPListTools(t *testing.T) {
	cs := connect(t, runtime.NewServer(mcpTools(), &runtime.Options{Logger: discard()}), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := mcpTools()
	if len(res.Tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(res.Tools), len(want))
	}
	for i, got := range res.Tools {
		w := want[i]
		if got.Name != w.Name || got.Title != w.Title || got.Description != w.Description {
			t.Errorf("tool %d: %s %q %q, want %s", i, got.Name, got.Title, got.Description, w.Name)
		}
		in := string(w.InputSchema)
		if in == "" {
			in = `{"type":"object"}`
		}
		if !sameJSON(t, mustJSON(t, got.InputSchema), in) {
			t.Errorf("%s input schema %s, want %s", got.Name, mustJSON(t, got.InputSchema), in)
		}
	}
	sum := res.Tools[len(res.Tools)-2]
	if a := sum.Annotations; a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint || a.DestructiveHint != nil {
		t.Errorf("sum annotations %+v", sum.Annotations)
	}
	if got, want := mustJSON(t, sum.OutputSchema), `{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"n":{"type":"number"}},"properties":{"result":{"type":"number"}},"required":["result"],"type":"object"}`; !sameJSON(t, got, want) {
		t.Errorf("wrapped output schema %s", got)
	}
}

func TestMCPCallTool(t *testing.T) {
	s := runtime.NewServer(mcpTools(), &runtime.Options{Logger: discard()})
	cs := connect(t, s, nil)
	ctx := context.Background()
	cases := []struct {
		name string
		args any
		want string
	}{
		{"plain", nil, `{"content":[{"type":"text","text":"result here"}]}`},
		{"traced", map[string]any{}, `{"_meta":{"_trace_id":"abc-123"},"content":[{"type":"text","text":"result here"}]}`},
		{"count", map[string]any{"city": "Oslo", "days": 2}, `{"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"days\":2,\"big\":0,\"ratio\":0,\"tags\":null}"}],"structuredContent":{"city":"Oslo","days":2,"big":0,"ratio":0,"tags":null}}`},
		// Invalid arguments are an isError result naming the path, validated
		// with the same compiled schema as every surface.
		{"count", map[string]any{"days": 99, "extra": true}, `{"content":[{"type":"text","text":"invalid arguments:\n- /city: missing required property (required)\n- /days: must be <= 14 but found 99 (maximum)\n- /extra: unknown property (additionalProperties)"}],"isError":true}`},
		{"soft_fail", nil, `{"content":[{"type":"text","text":"no such city"}],"isError":true}`},
		{"hard_fail", nil, `{"content":[{"type":"text","text":"backend exploded"}],"isError":true}`},
		{"panics", nil, `{"content":[{"type":"text","text":"tool panicked: boom"}],"isError":true}`},
		{"slow", nil, `{"content":[{"type":"text","text":"Tool slow timed out after 50ms."}],"isError":true}`},
		{"nil_result", nil, `{"content":[]}`},
		{"sum", map[string]any{"xs": []float64{1, 2.5}}, `{"content":[{"type":"text","text":"3.5"}],"structuredContent":{"result":3.5}}`},
		{"picture", nil, `{"content":[{"type":"image","data":"AQI=","mimeType":"image/png"}]}`},
	}
	for _, c := range cases {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		res.Meta = stripServerInfo(res.Meta)
		if got := mustJSON(t, res); !sameJSON(t, got, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	// An unknown tool is a protocol error, not a result.
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "nope"}); err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Errorf("unknown tool: %v", err)
	}
}

// stripServerInfo drops the serverInfo the SDK adds to every result's _meta.
func stripServerInfo(m sdk.Meta) sdk.Meta {
	delete(m, "io.modelcontextprotocol/serverInfo")
	if len(m) == 0 {
		return nil
	}
	return m
}

// A function provider is asked on every request, and a change in what it
// returns is announced to every session.
func TestMCPFunctionProvider(t *testing.T) {
	var mu sync.Mutex
	names := []string{"a"}
	var calls atomic.Int32
	p := runtime.ToolsFunc(func(context.Context) ([]runtime.Tool, error) {
		calls.Add(1)
		mu.Lock()
		defer mu.Unlock()
		var tools []runtime.Tool
		for _, n := range names {
			tools = append(tools, runtime.Tool{Name: n, Description: n, Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(n), nil }})
		}
		return tools, nil
	})
	s := runtime.NewServer(p, &runtime.Options{Logger: discard()})
	changed := make(chan struct{}, 10)
	cs := connect(t, s, &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }})
	ctx := context.Background()
	list := func() string {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tl := range res.Tools {
			got = append(got, tl.Name)
		}
		return strings.Join(got, ",")
	}
	if got := list(); got != "a" {
		t.Fatalf("tools %s", got)
	}
	mu.Lock()
	names = []string{"a", "b"}
	mu.Unlock()
	if got := list(); got != "a,b" {
		t.Fatalf("tools after the change %s", got)
	}
	select {
	case <-changed:
	case <-time.After(30 * time.Second):
		t.Fatal("no notifications/tools/list_changed after the provider changed")
	}
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "b"}); err != nil || res.Content[0].(*sdk.TextContent).Text != "b" {
		t.Errorf("call b: %v %v", res, err)
	}
	if calls.Load() < 3 {
		t.Errorf("provider asked %d times, want one per request", calls.Load())
	}
	// And on demand.
	s.NotifyToolsChanged()
	select {
	case <-changed:
	case <-time.After(30 * time.Second):
		t.Fatal("NotifyToolsChanged sent nothing")
	}
}

// sessionTool uses everything a tool can do with its MCP client.
func sessionTool() runtime.Tool {
	return runtime.Tool{
		Name:        "interview",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ask":{"type":"string"}}}`),
		Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct{ Ask string }
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			if err := runtime.Log(ctx, "info", "starting"); err != nil {
				return nil, err
			}
			for i := range 3 {
				if err := runtime.Progress(ctx, float64(i+1), 3, fmt.Sprintf("step %d", i+1)); err != nil {
					return nil, err
				}
			}
			switch in.Ask {
			case "sample":
				answer, err := runtime.Sample(ctx, "Say hi", 10)
				if err != nil {
					return nil, err
				}
				return runtime.TextResult("model said: " + answer), nil
			case "elicit":
				e, err := runtime.Elicit(ctx, "Who are you?", json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`))
				if err != nil {
					return nil, err
				}
				return runtime.TextResult(e.Action + " " + fmt.Sprint(e.Content["name"])), nil
			}
			return runtime.TextResult("done"), nil
		},
	}
}

func TestMCPInsideTool(t *testing.T) {
	s := runtime.NewServer(runtime.ToolList{sessionTool()}, &runtime.Options{AllowExecute: true, Logger: discard()})
	var mu sync.Mutex
	var logs, progress []string
	cs := connect(t, s, &sdk.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *sdk.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, fmt.Sprintf("%s:%v", r.Params.Level, r.Params.Data))
		},
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, fmt.Sprintf("%v/%v %s", r.Params.Progress, r.Params.Total, r.Params.Message))
		},
		CreateMessageHandler: func(_ context.Context, r *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			prompt := r.Params.Messages[0].Content.(*sdk.TextContent).Text
			return &sdk.CreateMessageResult{Model: "m", Role: "assistant", Content: &sdk.TextContent{Text: "hi (to " + prompt + ")"}}, nil
		},
		ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
	})
	ctx := context.Background()
	if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	call := func(ask string) string {
		p := &sdk.CallToolParams{Name: "interview", Arguments: map[string]any{"ask": ask}}
		p.SetProgressToken("tok-" + ask)
		res, err := cs.CallTool(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*sdk.TextContent).Text
	}
	if got := call("sample"); got != "model said: hi (to Say hi)" {
		t.Errorf("sampling: %q", got)
	}
	if got := call("elicit"); got != "accept Ada" {
		t.Errorf("elicitation: %q", got)
	}
	// Notifications arrive asynchronously; wait for them.
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		n, m := len(logs), len(progress)
		mu.Unlock()
		if n >= 2 && m >= 6 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	if strings.Join(logs, ",") != "info:starting,info:starting" || len(progress) != 6 || progress[0] != "1/3 step 1" || progress[2] != "3/3 step 3" {
		t.Errorf("logs %q, progress %q", logs, progress)
	}
	mu.Unlock()

	// A client without the sampling capability: the tool learns so.
	bare := connect(t, s, nil)
	res, err := bare.CallTool(ctx, &sdk.CallToolParams{Name: "interview", Arguments: map[string]any{"ask": "sample"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "does not support this: sampling") {
		t.Errorf("sampling without the capability: %v %v", mustJSON(t, res), err)
	}
	// Over the explorer's REST protocol there is no session to talk to.
	do(t, s, "POST", "/tools/interview/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"runtime: not called over MCP: no client session"}],"isError":true}`)
}

func TestMCPRegistry(t *testing.T) {
	tools := runtime.ToolList{{
		Name:        "greet",
		Description: "Greets.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"Who."},"times":{"type":"integer","default":1}},"required":["name"]}`),
		Signature:   "greet(name: string, times?: integer = 1) -> string",
		Examples:    []json.RawMessage{json.RawMessage(`{"name":"Ada"}`)},
		Handler:     callTools()[1].Handler,
	}, {Name: "bare", Handler: callTools()[1].Handler}}
	ctx := context.Background()
	read := func(cs *sdk.ClientSession, uri string) (string, error) {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		if res.Contents[0].MIMEType != "application/json" || res.Contents[0].URI != uri {
			t.Errorf("%s: %+v", uri, res.Contents[0])
		}
		return res.Contents[0].Text, nil
	}
	cs := connect(t, runtime.NewServer(tools, &runtime.Options{Logger: discard()}), nil)
	if got, err := read(cs, "toolgen://tools"); err != nil || got != `[{"name":"greet","signature":"greet(name: string, times?: integer = 1) -> string"},{"name":"bare","signature":"bare() -> content"}]` {
		t.Errorf("toolgen://tools: %s %v", got, err)
	}
	if got, err := read(cs, "toolgen://tool/greet"); err != nil || got != `{"name":"greet","signature":"greet(name: string, times?: integer = 1) -> string","description":"Greets.","args":[{"name":"name","type":"string","required":true,"description":"Who."},{"name":"times","type":"integer","required":false,"default":1,"description":""}],"examples":[{"name":"Ada"}]}` {
		t.Errorf("toolgen://tool/greet: %s %v", got, err)
	}
	if _, err := read(cs, "toolgen://tool/nope"); err == nil || !strings.Contains(err.Error(), "Tool not found: nope") {
		t.Errorf("unknown tool: %v", err)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "toolgen://tool/{name}" {
		t.Errorf("templates: %v %v", templates, err)
	}

	other := connect(t, newTestServer(tools, &runtime.Options{Logger: discard()}, &Options{RegistryScheme: "mytools"}), nil)
	if got, err := read(other, "mytools://tools"); err != nil || !strings.Contains(got, `"name":"greet"`) {
		t.Errorf("custom scheme: %s %v", got, err)
	}
	if _, err := read(other, "toolgen://tools"); err == nil {
		t.Error("the default scheme still answers")
	}
	// The registry's list can be subscribed to, and changes with the tools.
	srv := runtime.NewServer(tools, &runtime.Options{Logger: discard()})
	updated := make(chan string, 4)
	sub := connect(t, srv, &sdk.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, r *sdk.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI }})
	if err := sub.Subscribe(ctx, &sdk.SubscribeParams{URI: "toolgen://tools"}); err != nil {
		t.Fatal(err)
	}
	srv.NotifyToolsChanged()
	select {
	case uri := <-updated:
		if uri != "toolgen://tools" {
			t.Errorf("update for %s", uri)
		}
	case <-time.After(30 * time.Second):
		t.Error("no update of toolgen://tools when the tools changed")
	}

	none := connect(t, newTestServer(tools, &runtime.Options{Logger: discard()}, &Options{DisableRegistry: true}), nil)
	if res, err := none.ListResources(ctx, nil); err == nil && len(res.Resources) != 0 {
		t.Errorf("registry disabled but listed: %v", res.Resources)
	}
}

func TestMCPPrompts(t *testing.T) {
	prompts := []runtime.Prompt{{
		Name:        "explain",
		Title:       "Explain",
		Description: "Explains a value.",
		Arguments:   []runtime.PromptArgument{{Name: "value", Description: "The value.", Required: true}, {Name: "tone"}},
		Handler: func(_ context.Context, args map[string]string) (*runtime.PromptResult, error) {
			return &runtime.PromptResult{Messages: []runtime.PromptMessage{runtime.UserMessage("Explain " + args["value"] + " " + args["tone"]), {Role: "user", Content: runtime.Image([]byte{9}, "image/png")}}}, nil
		},
	}, {
		Name: "broken",
		Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
			return nil, errors.New("template failed")
		},
	}}
	cs := connect(t, runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard(), Prompts: prompts}), nil)
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	// The SDK lists prompts by name.
	if err != nil || len(list.Prompts) != 2 || list.Prompts[1].Title != "Explain" || !list.Prompts[1].Arguments[0].Required || list.Prompts[1].Arguments[1].Required {
		t.Fatalf("prompts/list: %s %v", mustJSON(t, list), err)
	}
	got, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "explain", Arguments: map[string]string{"value": "42", "tone": "kindly"}})
	if err != nil || mustJSON(t, got.Messages) != `[{"content":{"type":"text","text":"Explain 42 kindly"},"role":"user"},{"content":{"type":"image","mimeType":"image/png","data":"CQ=="},"role":"user"}]` {
		t.Errorf("prompts/get: %s %v", mustJSON(t, got), err)
	}
	if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "explain", Arguments: map[string]string{"tone": "x"}}); err == nil || !strings.Contains(err.Error(), "missing required argument value") {
		t.Errorf("missing argument: %v", err)
	}
	if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "explain", Arguments: map[string]string{"value": "1", "colour": "x"}}); err == nil || !strings.Contains(err.Error(), `unknown argument "colour"`) {
		t.Errorf("unknown argument: %v", err)
	}
	if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "broken"}); err == nil || !strings.Contains(err.Error(), "template failed") {
		t.Errorf("failing prompt: %v", err)
	}
}

func TestMCPResources(t *testing.T) {
	opts := &runtime.Options{
		Resources: []runtime.Resource{
			{URI: "test://text", Name: "text", MIMEType: "text/plain", Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
				return []runtime.ResourceContents{{Text: "hello"}}, nil
			}},
			{URI: "test://binary", Name: "binary", MIMEType: "image/png", Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
				return []runtime.ResourceContents{{Blob: []byte{0x89, 'P'}}}, nil
			}},
		},
		ResourceTemplates: []runtime.ResourceTemplate{{
			URITemplate: "test://items/{id}", Name: "item", MIMEType: "application/json",
			Read: func(_ context.Context, uri string, vars map[string]string) ([]runtime.ResourceContents, error) {
				if vars["id"] == "missing" {
					return nil, runtime.ErrResourceNotFound
				}
				return []runtime.ResourceContents{{Text: `{"id":"` + vars["id"] + `"}`}}, nil
			},
		}},
	}
	opts.Logger = discard()
	s := runtime.NewServer(runtime.ToolList{}, opts)
	updated := make(chan string, 10)
	cs := connect(t, s, &sdk.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, r *sdk.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI }})
	ctx := context.Background()
	for uri, want := range map[string]string{
		"test://text":     `[{"uri":"test://text","mimeType":"text/plain","text":"hello"}]`,
		"test://binary":   `[{"uri":"test://binary","mimeType":"image/png","blob":"iVA="}]`,
		"test://items/42": `[{"uri":"test://items/42","mimeType":"application/json","text":"{\"id\":\"42\"}"}]`,
	} {
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil || mustJSON(t, res.Contents) != want {
			t.Errorf("%s: %v %v", uri, mustJSON(t, res), err)
		}
	}
	for _, uri := range []string{"test://items/missing", "test://nothing"} {
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "Resource not found") {
			t.Errorf("%s: %v", uri, err)
		}
	}
	// Subscriptions: updates reach subscribers only, until they unsubscribe.
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "test://text"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "test://nothing"}); err == nil {
		t.Error("subscribed to a resource that does not exist")
	}
	s.NotifyResourceUpdated(ctx, "test://binary") // not subscribed
	s.NotifyResourceUpdated(ctx, "test://text")
	select {
	case uri := <-updated:
		if uri != "test://text" {
			t.Errorf("update for %s", uri)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no notifications/resources/updated")
	}
	if err := cs.Unsubscribe(ctx, &sdk.UnsubscribeParams{URI: "test://text"}); err != nil {
		t.Fatal(err)
	}
	s.NotifyResourceUpdated(ctx, "test://text")
	if err := cs.Ping(ctx, nil); err != nil { // a round trip: any update would have arrived first
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		t.Errorf("update for %s after unsubscribing", uri)
	default:
	}
}

func TestMCPCompletion(t *testing.T) {
	var got runtime.CompletionRequest
	s := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard(),
		Prompts: []runtime.Prompt{{Name: "p", Arguments: []runtime.PromptArgument{{Name: "city"}}, Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
			return &runtime.PromptResult{}, nil
		}}},
		Complete: func(_ context.Context, r runtime.CompletionRequest) ([]string, error) {
			got = r
			return []string{"Oslo", "Ottawa"}, nil
		},
	})
	cs := connect(t, s, nil)
	res, err := cs.Complete(context.Background(), &sdk.CompleteParams{Ref: &sdk.CompleteReference{Type: "ref/prompt", Name: "p"}, Argument: sdk.CompleteParamsArgument{Name: "city", Value: "O"}})
	if err != nil || strings.Join(res.Completion.Values, ",") != "Oslo,Ottawa" {
		t.Fatalf("complete: %v %v", res, err)
	}
	if got.RefType != "prompt" || got.Ref != "p" || got.Argument != "city" || got.Value != "O" {
		t.Errorf("request %+v", got)
	}
}

// Over Streamable HTTP, the auth hook guards /mcp and its context reaches
// the tool.
func TestMCPHTTP(t *testing.T) {
	hook := func(r *http.Request) (context.Context, error) {
		if r.Header.Get("Authorization") != "Bearer good" && r.Header.Get("Authorization") != "Bearer other" {
			return nil, errors.New("bad token")
		}
		return context.WithValue(r.Context(), identityKey{}, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")), nil
	}
	whoami := runtime.Tool{Name: "whoami", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		who, _ := ctx.Value(identityKey{}).(string)
		r, ok := runtime.RequestFromContext(ctx)
		if !ok {
			return nil, errors.New("no request")
		}
		// The identity came the SDK's way: in the request's TokenInfo.
		if c := mcpCallOf(ctx); c == nil || c.req.GetExtra() == nil || c.req.GetExtra().TokenInfo == nil {
			return nil, errors.New("no TokenInfo in the request's extra")
		}
		return runtime.TextResult(who + " " + r.URL.Path), nil
	}}
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			s := newTestServer(runtime.ToolList{whoami}, &runtime.Options{AuthHook: hook, Logger: discard()}, &Options{Stateless: stateless})
			hs := newHTTPTest(s)
			defer hs.Close()
			ctx := context.Background()

			token := "good"
			client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
				r.Header.Set("Authorization", "Bearer "+token)
				return http.DefaultTransport.RoundTrip(r)
			})}
			// Without stateless, an older client gets a session; a client
			// of 2026-07-28 is served statelessly in both modes.
			var so *sdk.ClientSessionOptions
			if !stateless {
				so = &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
			}
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp", HTTPClient: client}, so)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			call := func() string {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "whoami"})
				if err != nil {
					t.Fatal(err)
				}
				return res.Content[0].(*sdk.TextContent).Text
			}
			if got := call(); got != "good /mcp" {
				t.Errorf("identity %q", got)
			}
			// The identity is the current request's, not the session's; a
			// session, bound to the credentials that opened it (this hook
			// names no principal), refuses other ones.
			token = "other"
			if stateless {
				if got := call(); got != "other /mcp" {
					t.Errorf("identity after the token changed %q", got)
				}
			} else if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "whoami"}); err == nil || !strings.Contains(err.Error(), "Forbidden") {
				t.Errorf("another token on the session: %v", err)
			}

			// Without a token: 401 with the generic JSON-RPC error.
			resp, err := http.Post(hs.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			if err != nil {
				t.Fatal(err)
			}
			body := readAll(resp)
			if resp.StatusCode != 401 || body != rpcUnauthorized {
				t.Errorf("no token: %d %s", resp.StatusCode, body)
			}
		})
	}
}

// rpcUnauthorized is the body of a 401 on MCP.
const rpcUnauthorized = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unauthorized"}}`

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func readAll(r *http.Response) string {
	defer r.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

// The DNS-rebinding protection of the SDK stays on: a request to a loopback
// server naming another host is refused.
func TestMCPLocalhostProtection(t *testing.T) {
	hs := newHTTPTest(runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}))
	defer hs.Close()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	post := func(host string) int {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(initialize))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("evil.example.com"); code != http.StatusForbidden {
		t.Errorf("foreign Host: %d, want 403", code)
	}
	if code := post(strings.TrimPrefix(hs.URL, "http://")); code != http.StatusOK {
		t.Errorf("own Host: %d, want 200", code)
	}
}

func TestMCPPathAndDisable(t *testing.T) {
	moved := newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}, &Options{Path: "/rpc"})
	if r := do(t, moved, "GET", "/mcp", ""); r.status != 404 {
		t.Errorf("/mcp after moving: %d", r.status)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if r := do(t, moved, "POST", "/rpc", initialize, "Content-Type", "application/json", "Accept", "application/json, text/event-stream"); r.status != 200 || !strings.Contains(r.body, `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize at /rpc: %d %s", r.status, r.body)
	}
	off := newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}, &Options{Disable: true})
	if r := do(t, off, "POST", "/mcp", "{}"); r.status != 404 {
		t.Errorf("/mcp disabled: %d", r.status)
	}
}

// With a hook that names principals, a session belongs to the principal
// that opened it: another principal's requests on it are refused.
func TestMCPSessionBinding(t *testing.T) {
	whoami := runtime.Tool{Name: "whoami", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		p, _ := runtime.PrincipalFromContext(ctx)
		return runtime.TextResult(p.Subject), nil
	}}
	s := runtime.NewServer(runtime.ToolList{whoami}, &runtime.Options{AuthHook: runtime.BearerTokens("alpha", "bravo"), Logger: discard()})
	hs := newHTTPTest(s)
	defer hs.Close()
	ctx := context.Background()
	var sessionID string
	token := "alpha"
	client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil && resp.Header.Get("Mcp-Session-Id") != "" {
			sessionID = resp.Header.Get("Mcp-Session-Id")
		}
		return resp, err
	})}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp", HTTPClient: client}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "whoami"})
	if err != nil || res.Content[0].(*sdk.TextContent).Text != "token-1" {
		t.Fatalf("owner's call: %v %v", mustJSON(t, res), err)
	}
	if sessionID == "" {
		t.Fatal("no session id")
	}
	// Another principal with the session's id.
	req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"whoami"}}`))
	req.Header.Set("Authorization", "Bearer bravo")
	req.Header.Set("Mcp-Session-Id", sessionID)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(resp); resp.StatusCode != 403 || body != `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden"}}` {
		t.Errorf("another principal on the session: %d %s", resp.StatusCode, body)
	}
	// The owner goes on.
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "whoami"}); err != nil || res.Content[0].(*sdk.TextContent).Text != "token-1" {
		t.Errorf("owner after the attempt: %v %v", mustJSON(t, res), err)
	}
}

// Over HTTP with a hook, a request whose context is not found is refused,
// not run without the caller's identity.
func TestMCPFailsClosed(t *testing.T) {
	s := runtime.NewServer(runtime.ToolList{}, &runtime.Options{AuthHook: runtime.BearerTokens("x"), Logger: discard()})
	if _, err := mcpOf(s).requestContext(context.Background(), &sdk.RequestExtra{Header: http.Header{}}); err == nil {
		t.Error("an HTTP request without its context was accepted")
	}
	if _, err := mcpOf(s).requestContext(context.Background(), nil); err != nil {
		t.Errorf("stdio: %v", err)
	}
	open := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard()})
	if _, err := mcpOf(open).requestContext(context.Background(), &sdk.RequestExtra{Header: http.Header{}}); err != nil {
		t.Errorf("no hook: %v", err)
	}
}

type callerKey struct{}

// A provider whose tools depend on the caller does not make every request
// look like a change: changes are noticed per session.
func TestMCPPerCallerToolsNoStorm(t *testing.T) {
	// In a synctest bubble (the sessions are in memory): the SDK's debounce
	// passes in fake time, and synctest.Wait says when every notice that
	// will come has come.
	synctest.Test(t, func(t *testing.T) { perCallerToolsNoStorm(t) })
}

func perCallerToolsNoStorm(t *testing.T) {
	var mu sync.Mutex
	version := "1"
	p := runtime.ToolsFunc(func(ctx context.Context) ([]runtime.Tool, error) {
		mu.Lock()
		defer mu.Unlock()
		who, _ := ctx.Value(callerKey{}).(string)
		return []runtime.Tool{{Name: who + "_tool_v" + version, Description: "x", Handler: callTools()[1].Handler}}, nil
	})
	s := runtime.NewServer(p, &runtime.Options{Logger: discard()})
	var notices atomic.Int32
	open := func(who string) *sdk.ClientSession {
		return connectAs(t, context.WithValue(context.Background(), callerKey{}, who), s, &sdk.ClientOptions{
			ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { notices.Add(1) },
		})
	}
	a, b := open("a"), open("b")
	ctx := context.Background()
	for range 5 {
		for _, cs := range []*sdk.ClientSession{a, b} {
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := a.CallTool(ctx, &sdk.CallToolParams{Name: "a_tool_v1"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // past the SDK's 10ms debounce
	synctest.Wait()
	if n := notices.Load(); n != 0 {
		t.Fatalf("%d list_changed notices for tools that did not change", n)
	}
	mu.Lock()
	version = "2"
	mu.Unlock()
	if _, err := a.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // past the debounce
	synctest.Wait()
	if notices.Load() == 0 {
		t.Fatal("a real change was not announced")
	}
}

// A registry URI with a control character is an error, and the session
// goes on (the error's data is valid JSON).
func TestMCPRegistryOddURI(t *testing.T) {
	cs := connect(t, runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}), nil)
	ctx := context.Background()
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "toolgen://tool/a\x01b"}); err == nil {
		t.Error("no error")
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "toolgen://tool/a\u0001\u007fb"}); err == nil {
		t.Error("no error")
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("the session died: %v", err)
	}
}
