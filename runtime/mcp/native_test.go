package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

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
	return []fastReq{
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
