package runtime

import (
	"context"
	"errors"
	"testing"
)

// promptsAndResources is o with a prompt, a failing one, a resource and a
// template.
func promptsAndResources(o Options) *Options {
	o.Logger = discard()
	o.Prompts = []Prompt{
		{Name: "explain", Description: "Explain a value.", Arguments: []PromptArgument{{Name: "value", Description: "The value", Required: true}, {Name: "tone"}},
			Handler: TemplatePrompt("explain", "Explain {{.value}} {{.tone}}.")},
		{Name: "broken", Handler: func(context.Context, map[string]string) (*PromptResult, error) { return nil, errors.New("no words") }},
	}
	o.Resources = []Resource{{URI: "test://readme", Name: "readme", MIMEType: "text/plain", Read: func(context.Context, string, map[string]string) ([]ResourceContents, error) {
		return []ResourceContents{{Text: "hello <b>"}}, nil
	}}}
	o.ResourceTemplates = []ResourceTemplate{{URITemplate: "test://items/{id}", Name: "item", MIMEType: "application/json", Read: func(_ context.Context, _ string, vars map[string]string) ([]ResourceContents, error) {
		return []ResourceContents{{Text: `{"id":"` + vars["id"] + `"}`}}, nil
	}}}
	return &o
}

// The explorer's REST view of prompts and resources: listing public,
// getting and reading behind the auth hook.
func TestExplorerPromptsAndResources(t *testing.T) {
	s := NewServer(ToolList{}, promptsAndResources(Options{}))
	do(t, s, "GET", "/prompts", "").is(t, 200, `[{"name":"explain","description":"Explain a value.","arguments":[{"name":"value","description":"The value","required":true},{"name":"tone","required":false}]},{"name":"broken","arguments":[]}]`)
	do(t, s, "POST", "/prompts/explain/get", `{"arguments":{"value":"42","tone":"gently"}}`).is(t, 200, `{"messages":[{"role":"user","content":{"type":"text","text":"Explain 42 gently."}}]}`)
	do(t, s, "POST", "/prompts/explain/get", `{}`).is(t, 400, `{"error":"prompt explain: missing required argument value"}`)
	do(t, s, "POST", "/prompts/explain/get", `{"arguments":{"value":"1","x":"2"}}`).is(t, 400, `{"error":"prompt explain: unknown argument \"x\""}`)
	do(t, s, "POST", "/prompts/explain/get", `[`).is(t, 400, `{"error":"The body must be {\"arguments\": {name: string}}."}`)
	do(t, s, "POST", "/prompts/nope/get", `{}`).is(t, 404, `{"error":"Prompt not found: nope"}`)
	do(t, s, "POST", "/prompts/broken/get", `{}`).is(t, 500, `{"error":"no words"}`)

	do(t, s, "GET", "/resources", "").is(t, 200, `{"resources":[{"uri":"test://readme","name":"readme","mimeType":"text/plain"}],"resourceTemplates":[{"uriTemplate":"test://items/{id}","name":"item","mimeType":"application/json"}]}`)
	do(t, s, "GET", "/resources/read?uri=test://readme", "").is(t, 200, `{"contents":[{"uri":"test://readme","mimeType":"text/plain","text":"hello <b>"}]}`)
	do(t, s, "GET", "/resources/read?uri=test://items/7", "").is(t, 200, `{"contents":[{"uri":"test://items/7","mimeType":"application/json","text":"{\"id\":\"7\"}"}]}`)
	do(t, s, "GET", "/resources/read?uri=test://other", "").is(t, 404, `{"error":"Resource not found: test://other"}`)

	guarded := NewServer(ToolList{}, promptsAndResources(Options{AuthHook: BearerTokens("k")}))
	if r := do(t, guarded, "GET", "/prompts", ""); r.status != 200 {
		t.Errorf("listing behind the hook: %d", r.status)
	}
	do(t, guarded, "POST", "/prompts/explain/get", `{"arguments":{"value":"1"}}`).is(t, 401, `{"error":"Unauthorized"}`)
	do(t, guarded, "GET", "/resources/read?uri=test://readme", "").is(t, 401, `{"error":"Unauthorized"}`)
	if r := do(t, guarded, "GET", "/resources/read?uri=test://readme", "", "Authorization", "Bearer k"); r.status != 200 {
		t.Errorf("with a token: %d %s", r.status, r.body)
	}
}
