package mcp

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// The prompts, resources and templates of the differential tests
// (mcpfast_test.go): every outcome of each.

func nativePrompts() []runtime.Prompt {
	text := func(s string) runtime.PromptHandler {
		return func(_ context.Context, args map[string]string) (*runtime.PromptResult, error) {
			return &runtime.PromptResult{Description: "d", Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.Content{Type: runtime.ContentText, Text: s + args["topic"]}}}}, nil
		}
	}
	return []runtime.Prompt{
		{Name: "explain", Title: "Explain", Description: "Explains a topic.", Arguments: []runtime.PromptArgument{{Name: "topic", Description: "What.", Required: true}}, Handler: text("Explain ")},
		{Name: "hello", Handler: text("Hello")},
		{Name: "broken", Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
			return nil, errors.New("template failed")
		}},
		{Name: "chatty", Handler: func(ctx context.Context, _ map[string]string) (*runtime.PromptResult, error) {
			r, err := chatty(false)(ctx, nil)
			if err != nil {
				return nil, err
			}
			return &runtime.PromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: r.Content[0]}}}, nil
		}},
		{Name: "asks", Handler: func(ctx context.Context, _ map[string]string) (*runtime.PromptResult, error) {
			e, err := runtime.Elicit(ctx, "Topic?", json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"}}}`))
			if err != nil {
				return nil, err
			}
			return &runtime.PromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.Content{Type: runtime.ContentText, Text: fmt.Sprint(e.Content["topic"])}}}}, nil
		}},
	}
}

func nativeResources() []runtime.Resource {
	return []runtime.Resource{
		{URI: "test://text", Name: "text", MIMEType: "text/plain", Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{{Text: "hello <&>"}}, nil
		}},
		{URI: "test://binary", Name: "binary", MIMEType: "image/png", Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{{Blob: []byte{0x89, 'P'}}}, nil
		}},
		{URI: "test://failing", Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
			return nil, errors.New("disk on fire")
		}},
		{URI: "test://chatty", Read: func(ctx context.Context, _ string, _ map[string]string) ([]runtime.ResourceContents, error) {
			r, err := chatty(false)(ctx, nil)
			if err != nil {
				return nil, err
			}
			return []runtime.ResourceContents{{Text: r.Content[0].Text}}, nil
		}},
		{URI: "test://asks", Read: func(ctx context.Context, _ string, _ map[string]string) ([]runtime.ResourceContents, error) {
			if _, err := runtime.Elicit(ctx, "Sure?", nil); err != nil {
				return nil, err
			}
			return []runtime.ResourceContents{{Text: "asked"}}, nil
		}},
	}
}

func nativeTemplates() []runtime.ResourceTemplate {
	return []runtime.ResourceTemplate{{
		URITemplate: "test://items/{id}", Name: "item", MIMEType: "application/json",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]runtime.ResourceContents, error) {
			if vars["id"] == "missing" {
				return nil, runtime.ErrResourceNotFound
			}
			return []runtime.ResourceContents{{Text: `{"id":"` + vars["id"] + `"}`}, {URI: uri + "#2", MIMEType: "text/plain", Text: "more"}}, nil
		},
	}}
}

// rpc2026 is a request of method at 2026-07-28 with params (members, raw
// JSON, after the _meta; "" for none), the Mcp-Name header given when name
// is not "".
func rpc2026(method, params, name string) fastReq {
	p := `{` + fastMeta2026
	if params != "" {
		p += "," + params
	}
	r := fastReq{name: method + " " + params, header: map[string]string{}, body: `{"jsonrpc":"2.0","id":"n-1","method":"` + method + `","params":` + p + `}}`}
	if name != "" {
		r.header["Mcp-Name"] = name
	}
	return r
}

// nativeCases are requests of the methods native.go answers, of every
// outcome, and the ones it leaves to the SDK.
func nativeCases() []fastReq {
	elicit := `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}`
	withCaps := func(r fastReq) fastReq {
		r.body = replaceOnce(r.body, `"io.modelcontextprotocol/clientCapabilities":{}`, elicit)
		r.name += " (elicitation)"
		return r
	}
	return append([]fastReq{
		rpc2026("prompts/list", "", ""),
		rpc2026("prompts/list", `"cursor":"x"`, ""),
		rpc2026("prompts/get", `"name":"explain","arguments":{"topic":"Go"}`, "explain"),
		rpc2026("prompts/get", `"name":"explain"`, "explain"),
		rpc2026("prompts/get", `"name":"explain","arguments":{"topic":"Go","colour":"x"}`, "explain"),
		rpc2026("prompts/get", `"name":"hello"`, "hello"),
		rpc2026("prompts/get", `"name":"broken"`, "broken"),
		rpc2026("prompts/get", `"name":"nope"`, "nope"),
		rpc2026("prompts/get", `"name":"asks"`, "asks"),
		withCaps(rpc2026("prompts/get", `"name":"asks"`, "asks")),
		withCaps(rpc2026("prompts/get", `"name":"asks","inputResponses":{"elicitation-1":{"action":"accept","content":{"topic":"Go"}}},"requestState":"forged"`, "asks")),
		rpc2026("prompts/get", `"name":"explain","arguments":{"topic":"Go"}`, ""),
		rpc2026("prompts/get", `"name":"explain","arguments":{"topic":"Go"}`, "hello"),
		rpc2026("prompts/get", `"name":"explain","arguments":{"topic":5}`, "explain"),
		rpc2026("prompts/get", `"arguments":{}`, ""),
		rpc2026("resources/list", "", ""),
		rpc2026("resources/templates/list", "", ""),
		rpc2026("resources/read", `"uri":"test://text"`, "test://text"),
		rpc2026("resources/read", `"uri":"test://binary"`, "test://binary"),
		rpc2026("resources/read", `"uri":"test://failing"`, "test://failing"),
		rpc2026("resources/read", `"uri":"test://asks"`, "test://asks"),
		withCaps(rpc2026("resources/read", `"uri":"test://asks"`, "test://asks")),
		rpc2026("resources/read", `"uri":"test://items/42"`, "test://items/42"),
		rpc2026("resources/read", `"uri":"test://items/missing"`, "test://items/missing"),
		rpc2026("resources/read", `"uri":"test://nothing"`, "test://nothing"),
		rpc2026("resources/read", `"uri":"toolgen://tools"`, "toolgen://tools"),
		rpc2026("resources/read", `"uri":"toolgen://tool/plain"`, "toolgen://tool/plain"),
		rpc2026("resources/read", `"uri":"toolgen://tool/admin_only"`, "toolgen://tool/admin_only"),
		rpc2026("resources/read", `"uri":"toolgen://tool/nope"`, "toolgen://tool/nope"),
		rpc2026("resources/read", `"uri":"test://text"`, ""),
		rpc2026("resources/read", `"uri":5`, "5"),
		rpc2026("completion/complete", `"ref":{"type":"ref/prompt","name":"explain"},"argument":{"name":"topic","value":"G"}`, ""),
		rpc2026("completion/complete", `"ref":{"type":"ref/resource","uri":"test://items/{id}"},"argument":{"name":"id","value":"4"},"context":{"arguments":{"a":"b"}}`, ""),
		rpc2026("completion/complete", `"ref":{"type":"ref/prompt","name":"explain"},"argument":{"name":"topic","value":"fail"}`, ""),
		rpc2026("completion/complete", `"argument":{"name":"topic","value":"G"}`, ""),
		rpc2026("completion/complete", `"ref":{"type":"ref/prompt","name":"explain"}`, ""),
		rpc2026("server/discover", "", ""),
		rpc2026("server/discover", `"extra":1`, ""),
	}, paramHeaderCases()...)
}

// paramHeaderCases are calls of tools whose parameters are mirrored into
// Mcp-Param-* headers, with headers that agree and every way they can
// not.
func paramHeaderCases() []fastReq {
	call := func(args string, kv ...string) fastReq {
		r := call2026("routed", args)
		for i := 0; i+1 < len(kv); i += 2 {
			r.header[kv[i]] = kv[i+1]
			r.name += " " + kv[i] + "=" + kv[i+1]
		}
		return r
	}
	b64 := func(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }
	return []fastReq{
		call(`{}`),
		call(``),
		call(`{"region":"eu"}`, "Mcp-Param-Region", "eu"),
		call(`{"region":"eu"}`),
		call(`{"region":"eu"}`, "Mcp-Param-Region", "us"),
		call(`{"region":"eu"}`, "Mcp-Param-Region", b64("eu")),
		call(`{"region":"é"}`, "Mcp-Param-Region", b64("é")),
		call(`{"region":"eu"}`, "Mcp-Param-Region", "=?base64?***?="),
		call(`{"region":null}`, "Mcp-Param-Region", "eu"),
		call(`{}`, "Mcp-Param-Region", "eu"),
		call(`{"region":5}`, "Mcp-Param-Region", "5"),
		call(`{"region":["eu"]}`, "Mcp-Param-Region", "eu"),
		call(`{"shard":7}`, "Mcp-Param-Shard", "7"),
		call(`{"shard":7}`, "Mcp-Param-Shard", "7.0"),
		call(`{"shard":7}`, "Mcp-Param-Shard", "8"),
		call(`{"shard":7.5}`, "Mcp-Param-Shard", "7.5"),
		call(`{"shard":9007199254740993}`, "Mcp-Param-Shard", "9007199254740993"),
		call(`{"opts":{"fast":true}}`, "Mcp-Param-Fast", "true"),
		call(`{"opts":{"fast":true}}`, "Mcp-Param-Fast", "false"),
		call(`{"opts":{"fast":true}}`),
		call(`{"opts":5}`, "Mcp-Param-Fast", "true"),
		call(`{"region":"eu","shard":1,"opts":{"fast":false}}`, "Mcp-Param-Region", "eu", "Mcp-Param-Shard", "1", "Mcp-Param-Fast", "false"),
		call(`"not an object"`, "Mcp-Param-Region", "eu"),
		call(`{"note":"x"}`, "Mcp-Param-Note", "x"),
	}
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

// TestMCPNativeSameAnswers: the methods native.go answers get the same
// answers, records and traces as from the SDK, in each of its framings;
// and the plain ones are answered natively.
func TestMCPNativeSameAnswers(t *testing.T) {
	for _, o := range []struct{ jsonResponse, stateless bool }{{true, false}, {false, false}, {false, true}} {
		t.Run(fmt.Sprintf("JSONResponse=%v,Stateless=%v", o.jsonResponse, o.stateless), func(t *testing.T) {
			p := newFastPair(t, o.jsonResponse, o.stateless)
			for _, c := range nativeCases() {
				p.compare(t, c)
			}
			for _, c := range []fastReq{
				rpc2026("prompts/list", "", ""),
				rpc2026("prompts/get", `"name":"explain","arguments":{"topic":"Go"}`, "explain"),
				rpc2026("resources/list", "", ""),
				rpc2026("resources/templates/list", "", ""),
				rpc2026("resources/read", `"uri":"test://items/42"`, "test://items/42"),
				rpc2026("completion/complete", `"ref":{"type":"ref/prompt","name":"explain"},"argument":{"name":"topic","value":"G"}`, ""),
				rpc2026("server/discover", "", ""),
			} {
				n := mcpOf(p.on).fast.answered.Load()
				on, _ := p.compare(t, c)
				if mcpOf(p.on).fast.answered.Load() != n+1 {
					t.Errorf("%s: not answered natively: %+v", c.name, on)
				}
			}
		})
	}
}

// chatty reports progress and logs at every level while it runs (and an
// unknown one, which ranks as debug), saying what each report returned;
// then, if asks, asks the user something.
func chatty(asks bool) runtime.Handler {
	return func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		var said []string
		note := func(err error) { said = append(said, fmt.Sprint(err)) }
		note(runtime.Progress(ctx, 1, 3, "one"))
		for _, level := range []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "loud"} {
			note(runtime.Log(ctx, level, map[string]any{"level": level, "html": "<&>"}))
		}
		note(runtime.Progress(ctx, 2, 0, ""))
		if asks {
			if _, err := runtime.Elicit(ctx, "Go on?", nil); err != nil {
				return nil, err
			}
		}
		return runtime.TextResult(fmt.Sprint(said)), nil
	}
}

// streamCases are tools/calls whose requests ask for progress or log
// messages: events on the response before the answer.
func streamCases() []fastReq {
	call := streamCall
	var cases []fastReq
	for _, meta := range []string{
		`,"progressToken":"p-1"`,
		`,"progressToken":7`,
		`,"progressToken":-7.5`,
		`,"progressToken":12345678901234567890`,
		`,"progressToken":null`,
		`,"progressToken":{}`,
		`,"progressToken":"a\u00e9"`,
		`,"io.modelcontextprotocol/logLevel":"debug"`,
		`,"io.modelcontextprotocol/logLevel":"warning"`,
		`,"io.modelcontextprotocol/logLevel":"emergency"`,
		`,"io.modelcontextprotocol/logLevel":"loud"`,
		`,"io.modelcontextprotocol/logLevel":5`,
		`,"progressToken":"p","io.modelcontextprotocol/logLevel":"info"`,
	} {
		cases = append(cases, call("chatty", meta), call("chatty_asks", meta))
	}
	// A prompt's and a resource's reports, and requests that ask for
	// events but have nothing that reports.
	other := func(r fastReq, meta string) fastReq {
		r.body = replaceOnce(r.body, `clientCapabilities":{}`, `clientCapabilities":{}`+meta)
		r.name += meta
		return r
	}
	for _, meta := range []string{`,"progressToken":"p"`, `,"io.modelcontextprotocol/logLevel":"info"`} {
		cases = append(cases,
			other(rpc2026("prompts/get", `"name":"chatty"`, "chatty"), meta),
			other(rpc2026("resources/read", `"uri":"test://chatty"`, "test://chatty"), meta),
			other(rpc2026("prompts/list", ``, ""), meta),
			other(rpc2026("completion/complete", `"ref":{"type":"ref/prompt","name":"explain"},"argument":{"name":"topic","value":"G"}`, ""), meta),
			other(rpc2026("server/discover", ``, ""), meta),
		)
	}
	return append(cases,
		call("plain", `,"progressToken":"p"`),
		call("no_such_tool", `,"progressToken":"p"`),
		call("panics", `,"io.modelcontextprotocol/logLevel":"debug"`),
		call("count", `,"progressToken":"p"`),
	)
}

// streamCall is a tools/call of tool with members added to its _meta.
func streamCall(tool, meta string) fastReq {
	r := call2026(tool, "")
	r.body = replaceOnce(r.body, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{}`+meta)
	r.name += meta
	return r
}

// A tools/call that asks for events gets them, on the response stream
// before its answer, as from the SDK: the same events, answer, record
// and trace; and it is answered natively.
func TestMCPNativeStreams(t *testing.T) {
	for _, o := range []struct{ jsonResponse, stateless bool }{{true, false}, {false, false}, {false, true}} {
		t.Run(fmt.Sprintf("JSONResponse=%v,Stateless=%v", o.jsonResponse, o.stateless), func(t *testing.T) {
			p := newFastPair(t, o.jsonResponse, o.stateless)
			sdkN := mcpOf(p.on).fast.sdkServed.Load()
			for _, c := range streamCases() {
				on := sdkErrorAfterEvents(p.send(t, p.on, p.tron, c)) // the SDK answers what the native path leaves
				off := sdkErrorAfterEvents(p.send(t, p.off, p.troff, c))
				if on != off {
					t.Errorf("%s: %s\nnative: %+v\nSDK:    %+v", c.name, c.body, on, off)
				}
			}
			if n := mcpOf(p.on).fast.sdkServed.Load() - sdkN; n != 0 {
				t.Errorf("%d of the requests that ask for events reached the SDK", n)
			}
			// A prompt's progress, as events before its answer.
			prompt := rpc2026("prompts/get", `"name":"chatty"`, "chatty")
			prompt.body = replaceOnce(prompt.body, `clientCapabilities":{}`, `clientCapabilities":{},"progressToken":"p"`)
			if on, _ := p.compare(t, prompt); !o.jsonResponse && (strings.Count(on.Body, "notifications/progress") != 2 || strings.Count(on.Body, "\n") != 2) {
				t.Errorf("want 2 progress events before the prompt: %s", on.Body)
			}
			n := mcpOf(p.on).fast.answered.Load()
			on, _ := p.compare(t, streamCall("chatty", `,"progressToken":"p","io.modelcontextprotocol/logLevel":"info"`))
			if mcpOf(p.on).fast.answered.Load() != n+1 {
				t.Errorf("not answered natively: %+v", on)
			}
			if !o.jsonResponse && strings.Count(on.Body, "\n") != 9 {
				t.Errorf("want 2 progress and 7 log events (info and above) before the answer: %s", on.Body)
			}
		})
	}
}

// sdkErrorAfterEvents reads an answer of the SDK's that is events and
// then an error as a bare JSON body (a protocol error the revision gives
// an HTTP status, after the call sent events: the SDK writes it as if
// nothing had been sent, which no client reads as a message) as the same
// events and the error as the last of them, as the native path sends it.
// It is the one way in which the two paths differ on purpose.
func sdkErrorAfterEvents(a answer) answer {
	if a.Framing != "other" || !strings.HasPrefix(a.Body, "event: message\ndata: ") {
		return a
	}
	i := strings.LastIndex(a.Body, "\n\n")
	if i < 0 {
		return a
	}
	var events []string
	for _, ev := range strings.Split(a.Body[:i], "\n\n") {
		data, ok := strings.CutPrefix(ev, "event: message\ndata: ")
		if !ok {
			return a
		}
		events = append(events, normalizeAnswer(data))
	}
	a.Framing, a.Body = "sse", strings.Join(append(events, normalizeAnswer(a.Body[i+2:])), "\n")
	return a
}

// The events of a native call reach the client while the tool runs: the
// tool waits for the client to have read its first progress event before
// it finishes.
func TestMCPNativeStreamsAsItRuns(t *testing.T) {
	read := make(chan struct{})
	tool := runtime.Tool{Name: "waits", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		if err := runtime.Progress(ctx, 1, 2, "started"); err != nil {
			return nil, err
		}
		select {
		case <-read:
		case <-time.After(time.Minute):
			return nil, errors.New("the client did not read the first event")
		}
		return runtime.TextResult("finished"), nil
	}}
	s := newTestServer(runtime.ToolList{tool}, &runtime.Options{Logger: discard()}, &Options{Stateless: true})
	hs := newHTTPTest(s)
	defer hs.Close()
	r := streamCall("waits", `,"progressToken":"p"`)
	req, _ := http.NewRequest(http.MethodPost, hs.URL+"/mcp", strings.NewReader(r.body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "waits"} {
		req.Header.Set(k, v)
	}
	before := mcpOf(s).fast.answered.Load()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var lines []string
	for len(lines) < 3 { // event:, data:, and the blank line
		l, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("after %q: %v", lines, err)
		}
		lines = append(lines, l)
	}
	if !strings.Contains(lines[1], `"notifications/progress"`) || !strings.Contains(lines[1], `"started"`) {
		t.Fatalf("first event %q", lines)
	}
	close(read)
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), `"finished"`) || mcpOf(s).fast.answered.Load() != before+1 {
		t.Errorf("then %q", rest)
	}
}

// requestStateOf is the requestState of s's input-required answer to r.
func requestStateOf(t *testing.T, s *runtime.Server, r fastReq) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(r.body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Authorization": "Bearer admin"} {
		req.Header.Set(k, v)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	houseOf(s).ServeHTTP(w, req)
	body := w.Body.String()
	if i := strings.Index(body, "data: "); i >= 0 {
		body = strings.TrimSpace(body[i+len("data: "):])
	}
	var msg struct {
		Result struct {
			RequestState string `json:"requestState"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil || msg.Result.RequestState == "" {
		t.Fatalf("no requestState in %s: %v", w.Body, err)
	}
	return msg.Result.RequestState
}

// A retried input-required round of a tools/call (the client's answers
// and the sealed requestState) is answered natively, as the SDK answers
// it: accepted, declined, an answer off the schema, an answer under
// another key, a state of another tool's, a state altered.
func TestMCPNativeInputRounds(t *testing.T) {
	for _, o := range []struct{ jsonResponse, stateless bool }{{true, false}, {false, true}} {
		t.Run(fmt.Sprintf("JSONResponse=%v,Stateless=%v", o.jsonResponse, o.stateless), func(t *testing.T) {
			p := newFastPair(t, o.jsonResponse, o.stateless)
			ask := func(tool, extra string) fastReq {
				r := call2026(tool, "")
				r.body = replaceOnce(r.body, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}`)
				if extra != "" {
					r.body = replaceOnce(r.body, `"name":"`+tool+`"`, `"name":"`+tool+`",`+extra)
					r.name += " " + extra
				}
				return r
			}
			state := requestStateOf(t, p.on, ask("asks", ""))
			other := requestStateOf(t, p.on, ask("client_approves", ""))
			cases := []fastReq{
				ask("asks", `"inputResponses":{"elicitation-1":{"action":"accept","content":{"ok":true}}},"requestState":"`+state+`"`),
				ask("asks", `"inputResponses":{"elicitation-1":{"action":"decline"}},"requestState":"`+state+`"`),
				ask("asks", `"inputResponses":{"elicitation-1":{"action":"accept","content":{"ok":"yes"}}},"requestState":"`+state+`"`),
				ask("asks", `"inputResponses":{"other":{"action":"accept","content":{"ok":true}}},"requestState":"`+state+`"`),
				ask("asks", `"inputResponses":{"elicitation-1":{"action":"accept","content":{"ok":true}}},"requestState":"`+other+`"`),
				ask("asks", `"inputResponses":{"elicitation-1":{"action":"accept","content":{"ok":true}}},"requestState":"`+state[:len(state)-2]+`"`),
				ask("asks", `"inputResponses":{"elicitation-1":{"action":"accept","content":{"ok":true}}}`),
				ask("asks", `"inputResponses":{"elicitation-1":5},"requestState":"`+state+`"`),
				ask("asks", `"inputResponses":[],"requestState":"`+state+`"`),
				ask("asks", `"requestState":5`),
				ask("client_approves", `"inputResponses":{"approval":{"action":"accept","content":{"approve":true}}},"requestState":"`+other+`"`),
			}
			for _, c := range cases {
				p.compare(t, c)
			}
			n := mcpOf(p.on).fast.answered.Load()
			if on, _ := p.compare(t, cases[0]); mcpOf(p.on).fast.answered.Load() != n+1 || !strings.Contains(on.Body, `"text":"accept"`) {
				t.Errorf("a retried round not answered natively: %+v", on)
			}
		})
	}
}

// No request of the methods toolgen answers natively at 2026-07-28
// reaches the go-sdk, whatever its outcome; the same request through the
// SDK is counted, which shows the count counts.
func TestMCPNativeReachesNoSDK(t *testing.T) {
	p := newFastPair(t, false, true)
	srv := mcpOf(p.on)
	elicit := func(r fastReq) fastReq {
		r.body = replaceOnce(r.body, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}`)
		return r
	}
	for _, r := range []fastReq{
		call2026("plain", ""),
		call2026("count", `{"days":99}`),
		call2026("no_such_tool", ""),
		elicit(call2026("asks", "")),
		streamCall("chatty", `,"progressToken":"p","io.modelcontextprotocol/logLevel":"debug"`),
		{name: "tools/list", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + fastMeta2026 + `}}`},
		rpc2026("prompts/list", "", ""),
		rpc2026("prompts/get", `"name":"explain","arguments":{"topic":"Go"}`, "explain"),
		rpc2026("prompts/get", `"name":"nope"`, "nope"),
		elicit(rpc2026("prompts/get", `"name":"asks"`, "asks")),
		rpc2026("resources/list", "", ""),
		rpc2026("resources/templates/list", "", ""),
		rpc2026("resources/read", `"uri":"test://text"`, "test://text"),
		rpc2026("resources/read", `"uri":"test://nothing"`, "test://nothing"),
		rpc2026("completion/complete", `"ref":{"type":"ref/prompt","name":"explain"},"argument":{"name":"topic","value":"G"}`, ""),
		paramHeaderCases()[2], // Mcp-Param-Region agrees
		paramHeaderCases()[4], // and does not
		rpc2026("subscriptions/listen", `"notifications":{}`, ""),
		rpc2026("subscriptions/listen", "", ""),
		rpc2026("prompts/list", `"cursor":"x"`, ""),
	} {
		before := srv.fast.sdkServed.Load()
		a := p.send(t, p.on, p.tron, r)
		if srv.fast.sdkServed.Load() != before {
			t.Errorf("%s reached the SDK: %+v", r.name, a)
		}
	}
	// The same request through the SDK (the fast path off) is counted:
	// the count counts.
	off := mcpOf(p.off)
	before := off.fast.sdkServed.Load()
	p.send(t, p.off, p.troff, rpc2026("prompts/list", "", ""))
	if off.fast.sdkServed.Load() != before+1 {
		t.Error("a request the SDK served was not counted: the count counts nothing")
	}
}

// server/discover says what the server serves, as the SDK says it, for a
// server with neither prompts nor resources (nor the registry's), with
// instructions, too.
func TestMCPNativeDiscoverBare(t *testing.T) {
	mk := func() *runtime.Server {
		return newTestServer(runtime.ToolList{{Name: "plain", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult("x"), nil }}},
			&runtime.Options{Logger: discard()}, &Options{DisableRegistry: true, Instructions: "Use plain.", Stateless: true})
	}
	p := &fastPair{on: mk(), off: mk(), tron: &recTracer{}, troff: &recTracer{}}
	mcpOf(p.off).fast.off = true
	on, _ := p.compare(t, rpc2026("server/discover", "", ""))
	if !strings.Contains(on.Body, `"instructions":"Use plain."`) || strings.Contains(on.Body, `"prompts"`) || strings.Contains(on.Body, `"resources"`) {
		t.Errorf("discover: %s", on.Body)
	}
}

// A tools/call that makes a task is answered natively too: the task
// (its id and times aside), its record and trace as through the SDK, for
// a tool that waits, for one that needs the extension, and without it.
func TestMCPNativeTasks(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	waits := func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return runtime.TextResult("done"), nil
	}
	mk := func() *runtime.Server {
		return newTestServer(runtime.ToolList{
			{Name: "may", Task: runtime.TaskOptional, Handler: waits},
			{Name: "must", Task: runtime.TaskRequired, Handler: waits},
			{Name: "chatty", Task: runtime.TaskOptional, Handler: chatty(false)},
		}, &runtime.Options{Logger: discard()}, &Options{Stateless: true})
	}
	p := &fastPair{on: mk(), off: mk(), tron: &recTracer{}, troff: &recTracer{}}
	mcpOf(p.off).fast.off = true
	tasks := func(r fastReq) fastReq {
		r.body = replaceOnce(r.body, `"io.modelcontextprotocol/clientCapabilities":{}`, `"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}`)
		r.name += " (tasks)"
		return r
	}
	events := `,"progressToken":"p","io.modelcontextprotocol/logLevel":"debug"`
	for _, c := range []fastReq{
		tasks(call2026("may", "")), tasks(call2026("must", "")), call2026("must", ""),
		// With a progress token and a log level: a task's answer, or
		// (the extension not declared) an ordinary call with its events.
		tasks(streamCall("may", events)), streamCall("must", events), streamCall("chatty", events),
	} {
		n, sdkN := mcpOf(p.on).fast.answered.Load(), mcpOf(p.on).fast.sdkServed.Load()
		on, _ := p.compare(t, c)
		if mcpOf(p.on).fast.answered.Load() != n+1 || mcpOf(p.on).fast.sdkServed.Load() != sdkN {
			t.Errorf("%s: not answered natively: %+v", c.name, on)
		}
	}
	if on, _ := p.compare(t, tasks(call2026("may", ""))); !strings.Contains(on.Body, `"resultType":"task"`) || !strings.Contains(on.History, `"status":"pending"`) {
		t.Errorf("a task: %+v", on)
	}
	// A task that reports as it runs sends nothing but its answer: the
	// extension has no events for a task. (Not compared: through the
	// SDK, what it reports before the answer is written races the
	// answer.)
	if on := p.send(t, p.on, p.tron, tasks(streamCall("chatty", events))); !strings.Contains(on.Body, `"resultType":"task"`) || strings.Contains(on.Body, "notifications/") {
		t.Errorf("a task that reports: %+v", on)
	}
}

// The prompts, resources and templates page natively as the SDK pages
// them: the same pages, the same cursors, and the same refusal of a
// cursor neither gave.
func TestMCPNativePages(t *testing.T) {
	p := newFastPairWith(t, Options{JSONResponse: true, Stateless: true, PageSize: 1})
	for _, method := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		cursor, pages := "", 0
		for {
			params := ""
			if cursor != "" {
				params = `"cursor":"` + cursor + `"`
			}
			n := mcpOf(p.on).fast.answered.Load()
			on, _ := p.compare(t, rpc2026(method, params, ""))
			if mcpOf(p.on).fast.answered.Load() != n+1 {
				t.Fatalf("%s page %d: not answered natively: %+v", method, pages, on)
			}
			pages++
			var res struct {
				Result struct {
					NextCursor string `json:"nextCursor"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(on.Body), &res); err != nil {
				t.Fatalf("%s: %v: %s", method, err, on.Body)
			}
			if cursor = res.Result.NextCursor; cursor == "" || pages > 20 {
				break
			}
		}
		if pages < 2 {
			t.Errorf("%s: %d page(s) of one item each: nothing paged", method, pages)
		}
		for _, bad := range []string{"x", "dG9vbGdlbg==", "dGcxOjE"} {
			n := mcpOf(p.on).fast.answered.Load()
			on, _ := p.compare(t, rpc2026(method, `"cursor":"`+bad+`"`, ""))
			if mcpOf(p.on).fast.answered.Load() != n+1 || !strings.Contains(on.Body, "-32602") {
				t.Errorf("%s with cursor %q: %+v", method, bad, on)
			}
		}
	}
}
