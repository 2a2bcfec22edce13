package mcp

//lint:file-ignore SA1019 sampling is deprecated in MCP 2026-07-28 but tested

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// Over MCP 2026-07-28 (stateless HTTP) a tool's requests to the client are
// input-required results: the tool runs again, from the start, with the
// answers. Tested with the SDK's client, its automatic retries turned off
// so that each round is seen.

// askTools asks twice, one question after the other, then samples.
func askTools(runs *atomic.Int32) runtime.ToolList {
	schema := func(prop string) json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":{"` + prop + `":{"type":"string","default":"?"},"n":{"type":"integer"}}}`)
	}
	return runtime.ToolList{{
		Name:        "survey",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"}}}`),
		Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
			runs.Add(1)
			name, err := runtime.Elicit(ctx, "Your name?", schema("name"))
			if err != nil {
				return nil, err
			}
			color, err := runtime.Elicit(ctx, "Your colour?", schema("color"))
			if err != nil {
				return nil, err
			}
			return runtime.TextResult(name.Content["name"].(string) + " likes " + color.Content["color"].(string)), nil
		},
	}, {
		Name: "model",
		Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
			runs.Add(1)
			answer, err := runtime.Sample(ctx, "Hi?", 10)
			if err != nil {
				return nil, err
			}
			return runtime.TextResult(answer), nil
		},
	}, {
		// swallow asks, and goes on without the answer whatever the error.
		Name: "swallow",
		Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
			if _, err := runtime.Elicit(ctx, "Anything?", nil); err != nil {
				return runtime.TextResult("no answer"), nil
			}
			return runtime.TextResult("answered"), nil
		},
	}}
}

// statelessClient connects the SDK's client to s over stateless HTTP,
// without its automatic input rounds, declaring caps.
func statelessClient(t *testing.T, s *runtime.Server, caps *sdk.ClientCapabilities) *sdk.ClientSession {
	t.Helper()
	hs := newHTTPTest(s)
	t.Cleanup(hs.Close)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{
		Capabilities:   caps,
		MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true},
	}).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("protocol %s", v)
	}
	return cs
}

func elicitCaps() *sdk.ClientCapabilities {
	return &sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{}}
}

func accepted(content map[string]any) *sdk.ElicitResult {
	return &sdk.ElicitResult{Action: "accept", Content: content}
}

func TestMCPInputRequiredRounds(t *testing.T) {
	var runs atomic.Int32
	s := newTestServer(askTools(&runs), &runtime.Options{Logger: discard()}, &Options{Stateless: true})
	cs := statelessClient(t, s, elicitCaps())
	ctx := context.Background()
	call := func(p *sdk.CallToolParams) (*sdk.CallToolResult, error) {
		p.Name = "survey"
		p.Arguments = map[string]any{"topic": "t"}
		return cs.CallTool(ctx, p)
	}

	// Round 1: the first question.
	r1, err := call(&sdk.CallToolParams{})
	if err != nil || !r1.NeedsInput() || r1.RequestState == "" || len(r1.Content) != 0 {
		t.Fatalf("round 1: %v %v", mustJSON(t, r1), err)
	}
	if q, ok := r1.InputRequests["elicitation-1"].(*sdk.ElicitParams); !ok || q.Message != "Your name?" || len(r1.InputRequests) != 1 {
		t.Fatalf("round 1 asks %s", mustJSON(t, r1.InputRequests))
	}
	// Round 2: with the name, the second question, and a new state.
	r2, err := call(&sdk.CallToolParams{InputResponses: sdk.InputResponseMap{"elicitation-1": accepted(map[string]any{"name": "Ada"})}, RequestState: r1.RequestState})
	if err != nil || !r2.NeedsInput() || r2.RequestState == r1.RequestState {
		t.Fatalf("round 2: %v %v", mustJSON(t, r2), err)
	}
	if q, ok := r2.InputRequests["elicitation-2"].(*sdk.ElicitParams); !ok || q.Message != "Your colour?" || len(r2.InputRequests) != 1 {
		t.Fatalf("round 2 asks %s", mustJSON(t, r2.InputRequests))
	}
	// An answer that does not fit the schema is asked for again.
	bad, err := call(&sdk.CallToolParams{InputResponses: sdk.InputResponseMap{"elicitation-2": accepted(map[string]any{"n": "x"})}, RequestState: r2.RequestState})
	if err != nil || !bad.NeedsInput() || bad.InputRequests["elicitation-2"] == nil {
		t.Fatalf("an answer off the schema: %v %v", mustJSON(t, bad), err)
	}
	// Round 3: the name comes from the state, the colour from the answer
	// (its default filled in: none given).
	r3, err := call(&sdk.CallToolParams{InputResponses: sdk.InputResponseMap{"elicitation-2": accepted(map[string]any{})}, RequestState: r2.RequestState})
	if err != nil || r3.NeedsInput() || r3.IsError || r3.Content[0].(*sdk.TextContent).Text != "Ada likes ?" {
		t.Fatalf("round 3: %v %v", mustJSON(t, r3), err)
	}
	if runs.Load() != 4 {
		t.Errorf("the tool ran %d times, want 4 (one a round)", runs.Load())
	}

	// A state that was altered, or issued for other arguments, is refused
	// before the tool runs.
	before := runs.Load()
	tampered := r2.RequestState[:len(r2.RequestState)-2] + "AA"
	for name, p := range map[string]*sdk.CallToolParams{
		"tampered":        {RequestState: tampered},
		"not base64":      {RequestState: "%%%"},
		"other arguments": {RequestState: r2.RequestState, Arguments: map[string]any{"topic": "other"}},
	} {
		p.Name = "survey"
		if p.Arguments == nil {
			p.Arguments = map[string]any{"topic": "t"}
		}
		_, err := cs.CallTool(ctx, p)
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "invalid requestState") {
			t.Errorf("%s state: %v", name, err)
		}
	}
	if runs.Load() != before {
		t.Errorf("the tool ran on a refused state")
	}

	// Every round went through the pipeline: recorded, one record a round,
	// the last a success.
	recs, _, err := s.History().List(ctx, history.Filter{Tool: "survey", Limit: history.MaxLimit})
	if err != nil || len(recs) != 4 || recs[0].Status != history.Success || recs[0].Surface != runtime.SurfaceMCP {
		t.Errorf("history: %d records %v", len(recs), err)
	}
}

// A tool that goes on without the answer is answered with the request all
// the same: it asked, and the client can answer.
func TestMCPInputRequiredSwallowed(t *testing.T) {
	var runs atomic.Int32
	cs := statelessClient(t, newTestServer(askTools(&runs), &runtime.Options{Logger: discard()}, &Options{Stateless: true}), elicitCaps())
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "swallow"})
	if err != nil || !res.NeedsInput() {
		t.Fatalf("%v %v", mustJSON(t, res), err)
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "swallow", InputResponses: sdk.InputResponseMap{"elicitation-1": &sdk.ElicitResult{Action: "decline"}}, RequestState: res.RequestState})
	if err != nil || res.NeedsInput() || res.Content[0].(*sdk.TextContent).Text != "answered" {
		t.Fatalf("declined: %v %v", mustJSON(t, res), err)
	}
}

// A capability the client did not declare: over 2026-07-28 a protocol
// error naming it (HTTP 400); in a 2025-11-25 session the tool's own
// isError result, as before.
func TestMCPMissingCapability(t *testing.T) {
	var runs atomic.Int32
	s := newTestServer(askTools(&runs), &runtime.Options{Logger: discard()}, &Options{Stateless: true})
	cs := statelessClient(t, s, elicitCaps())
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "model"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != sdk.CodeMissingRequiredClientCapabilities || string(je.Data) != `{"requiredCapabilities":{"sampling":{}}}` {
		t.Errorf("stateless: %v", err)
	}
	hs := newHTTPTest(s)
	defer hs.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"model","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "model"} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if b := readAll(resp); resp.StatusCode != 400 || !strings.Contains(b, `-32021`) {
		t.Errorf("HTTP: %d %s", resp.StatusCode, b)
	}

	legacy := connect(t, runtime.NewServer(askTools(&runs), &runtime.Options{Logger: discard()}), nil)
	res, err := legacy.CallTool(context.Background(), &sdk.CallToolParams{Name: "model"})
	if err != nil || !res.IsError || res.Content[0].(*sdk.TextContent).Text != "runtime: the client does not support this: sampling" {
		t.Errorf("2025-11-25: %v %v", mustJSON(t, res), err)
	}
}

// A requestState is good only on the server that sealed it, unless the
// servers share Options.StateKey; and only for the caller it was
// issued to.
func TestMCPRequestStateKey(t *testing.T) {
	var runs atomic.Int32
	key := []byte("shared secret")
	a := newTestServer(askTools(&runs), &runtime.Options{Logger: discard()}, &Options{Stateless: true, StateKey: key})
	b := newTestServer(askTools(&runs), &runtime.Options{Logger: discard()}, &Options{Stateless: true, StateKey: key})
	other := newTestServer(askTools(&runs), &runtime.Options{Logger: discard()}, &Options{Stateless: true})
	ctx := context.Background()
	p := &sdk.CallToolParams{Name: "survey", Arguments: map[string]any{"topic": "t"}}
	r1, err := statelessClient(t, a, elicitCaps()).CallTool(ctx, p)
	if err != nil || !r1.NeedsInput() {
		t.Fatal(mustJSON(t, r1), err)
	}
	p.InputResponses = sdk.InputResponseMap{"elicitation-1": accepted(map[string]any{"name": "Ada"})}
	p.RequestState = r1.RequestState
	if r2, err := statelessClient(t, b, elicitCaps()).CallTool(ctx, p); err != nil || r2.InputRequests["elicitation-2"] == nil {
		t.Errorf("another replica with the same key: %v %v", mustJSON(t, r2), err)
	}
	if _, err := statelessClient(t, other, elicitCaps()).CallTool(ctx, p); err == nil || !strings.Contains(err.Error(), "invalid requestState") {
		t.Errorf("a server with another key: %v", err)
	}

	// Bound to the caller: another token's retry is refused.
	guarded := newTestServer(askTools(&runs), &runtime.Options{Logger: discard(), AuthHook: runtime.BearerTokens("alpha", "bravo")}, &Options{Stateless: true})
	hs := newHTTPTest(guarded)
	defer hs.Close()
	as := func(token string) *sdk.ClientSession {
		client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			r.Header.Set("Authorization", "Bearer "+token)
			return http.DefaultTransport.RoundTrip(r)
		})}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{Capabilities: elicitCaps(), MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true}}).
			Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp", HTTPClient: client}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	p = &sdk.CallToolParams{Name: "survey", Arguments: map[string]any{"topic": "t"}}
	r1, err = as("alpha").CallTool(ctx, p)
	if err != nil || !r1.NeedsInput() {
		t.Fatal(mustJSON(t, r1), err)
	}
	p.InputResponses = sdk.InputResponseMap{"elicitation-1": accepted(map[string]any{"name": "Ada"})}
	p.RequestState = r1.RequestState
	if _, err := as("bravo").CallTool(ctx, p); err == nil || !strings.Contains(err.Error(), "invalid requestState") {
		t.Errorf("another caller's state: %v", err)
	}
	if r2, err := as("alpha").CallTool(ctx, p); err != nil || r2.InputRequests["elicitation-2"] == nil {
		t.Errorf("the caller's own state: %v %v", mustJSON(t, r2), err)
	}
}

// Prompts ask the same way.
func TestMCPPromptInputRequired(t *testing.T) {
	prompt := runtime.Prompt{Name: "ask", Handler: func(ctx context.Context, _ map[string]string) (*runtime.PromptResult, error) {
		e, err := runtime.Elicit(ctx, "Topic?", json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"}}}`))
		if err != nil {
			return nil, err
		}
		return runtime.TextPrompt("About " + e.Content["topic"].(string)), nil
	}}
	cs := statelessClient(t, newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard(), Prompts: []runtime.Prompt{prompt}}, &Options{Stateless: true}), elicitCaps())
	ctx := context.Background()
	r1, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "ask"})
	if err != nil || !r1.NeedsInput() {
		t.Fatalf("%v %v", mustJSON(t, r1), err)
	}
	r2, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "ask", InputResponses: sdk.InputResponseMap{"elicitation-1": accepted(map[string]any{"topic": "Go"})}, RequestState: r1.RequestState})
	if err != nil || r2.NeedsInput() || r2.Messages[0].Content.(*sdk.TextContent).Text != "About Go" {
		t.Fatalf("%v %v", mustJSON(t, r2), err)
	}
}

// In a session of an older revision, Ask and Roots ask the client during
// the call, one request after the other; on the REST protocol there is no
// one to ask.
func TestMCPAskInSession(t *testing.T) {
	tool := runtime.Tool{Name: "ask", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		roots, err := Roots(ctx)
		if err != nil {
			return nil, err
		}
		res, err := Ask(ctx, map[string]Question{
			"who":   {Elicit: &ElicitQuestion{Message: "Who?", Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","default":"nobody"}}}`)}},
			"model": {Sample: &SampleQuestion{Prompt: "Hi", MaxTokens: 5}},
		})
		if err != nil {
			return nil, err
		}
		name := res["who"].Elicitation.Content["name"]
		said := res["model"].Sample.Text
		return runtime.TextResult(fmt.Sprintf("%s %v %s", roots[0].URI, name, said)), nil
	}}
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{AllowExecute: true, Logger: discard()})
	client := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
		CreateMessageHandler: func(context.Context, *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			return &sdk.CreateMessageResult{Model: "m", Role: "assistant", Content: &sdk.TextContent{Text: "hello"}}, nil
		},
	})
	client.AddRoots(&sdk.Root{URI: "file:///src"})
	cs, err := client.Connect(context.Background(), serveInMemory(t, context.Background(), s), &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask"})
	if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != "file:///src nobody hello" {
		t.Errorf("%v %v", mustJSON(t, res), err)
	}
	do(t, s, "POST", "/tools/ask/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"runtime: not called over MCP: no client session"}],"isError":true}`)
}

// A requestState binds the arguments as values: absent arguments are {},
// and the order of keys does not matter.
func TestCanonicalArguments(t *testing.T) {
	for _, c := range [][2]string{{"", "{}"}, {" ", "{}"}, {`{"b":1, "a":[1.0,"x"]}`, `{"a":[1.0,"x"],"b":1}`}, {"not json", "not json"}} {
		if got := string(jsoncheck.Canonical(json.RawMessage(c[0]))); got != c[1] {
			t.Errorf("%q: %s, want %s", c[0], got, c[1])
		}
	}
}

// The httpkit.State is bound to the arguments the client sent, worked out
// only when the round ends: a handler that changes the arguments it is
// given in place does not make its own state fail to open.
func TestMCPInputStateBindsSentArguments(t *testing.T) {
	var runs atomic.Int32
	tool := runtime.Tool{
		Name:        "scribble",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"}}}`),
		Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
			runs.Add(1)
			for i := range args {
				if args[i] == 't' {
					args[i] = 'T'
				}
			}
			ans, err := runtime.Elicit(ctx, "Sure?", nil)
			if err != nil {
				return nil, err
			}
			return runtime.TextResult(string(ans.Action)), nil
		},
	}
	cs := statelessClient(t, newTestServer(runtime.ToolList{tool}, &runtime.Options{Logger: discard()}, &Options{Stateless: true}), elicitCaps())
	ctx := context.Background()
	p := &sdk.CallToolParams{Name: "scribble", Arguments: map[string]any{"topic": "t"}}
	r1, err := cs.CallTool(ctx, p)
	if err != nil || !r1.NeedsInput() {
		t.Fatalf("round 1: %v %v", mustJSON(t, r1), err)
	}
	p.InputResponses = sdk.InputResponseMap{"elicitation-1": &sdk.ElicitResult{Action: "decline"}}
	p.RequestState = r1.RequestState
	r2, err := cs.CallTool(ctx, p)
	if err != nil || r2.NeedsInput() || r2.IsError || r2.Content[0].(*sdk.TextContent).Text != "decline" {
		t.Fatalf("round 2: %v %v", mustJSON(t, r2), err)
	}
	if runs.Load() != 2 {
		t.Errorf("the tool ran %d times, want 2", runs.Load())
	}
}
