package explorer_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
	"github.com/toolgen-go/toolgen/runtime/ops"
	"github.com/toolgen-go/toolgen/runtime/oxp"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// tools are a tool of the explorer spec's example.
func tools() runtime.ToolList {
	return runtime.ToolList{{Name: "delete_record", Description: "Delete a record by ID.", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("deleted"), nil
	}}}
}

// house is a server of tools() with every surface, as serve mounts them.
func house(o *runtime.Options, so *serve.Options) http.Handler {
	if o == nil {
		o = &runtime.Options{}
	}
	o.Logger = servertest.Discard()
	return serve.NewHandler(runtime.NewServer(tools(), o), so)
}

// page is the explorer page of house(o, so), at path.
func page(t *testing.T, o *runtime.Options, so *serve.Options, path string) string {
	t.Helper()
	r := servertest.Do(t, house(o, so), "GET", path, "")
	if r.Status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	return r.Body
}

func TestPageSubstitution(t *testing.T) {
	r := servertest.Do(t, house(&runtime.Options{Title: `<b>Tools</b> & "more"`, AllowExecute: true}, nil), "GET", "/", "")
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	if strings.Contains(r.Body, "<b>Tools</b>") || !strings.Contains(r.Body, "&lt;b&gt;Tools&lt;/b&gt; &amp; &#34;more&#34;") {
		t.Errorf("title not escaped")
	}
	if strings.Contains(r.Body, "{{") {
		t.Errorf("unsubstituted variable left in the page")
	}
	if r.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("no Content-Security-Policy")
	}
	if !strings.Contains(r.Body, "const ALLOW_EXECUTE = true;") {
		t.Errorf("{{ALLOW_EXECUTE}} not rendered as true")
	}
	if off := page(t, nil, nil, "/"); !strings.Contains(off, "const ALLOW_EXECUTE = false;") {
		t.Errorf("{{ALLOW_EXECUTE}} not rendered as false")
	}
	for url, want := range map[string]string{
		"https://example.com/x?a=1&b=2": `<a href="https://example.com/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">Proj &lt;1&gt;</a>`,
		"/docs":                         `<a href="/docs" target="_blank" rel="noopener noreferrer">Proj &lt;1&gt;</a>`,
		"java\tscript:alert(1)":         `<span class="project-link"></span>`,
		"//evil.example.com":            `<span class="project-link"></span>`,
	} {
		if p := page(t, nil, &serve.Options{Explorer: explorer.Options{ProjectName: "Proj <1>", ProjectURL: url}}, "/"); !strings.Contains(p, want) {
			t.Errorf("project link for %q: want %s", url, want)
		}
	}
	if !strings.Contains(page(t, nil, nil, "/"), runtime.DefaultTitle) {
		t.Errorf("default title missing")
	}
}

// The explorer surface can be moved under a prefix, or switched off, on its
// own; mounted alone it serves at its root.
func TestExplorerPrefixAndDisable(t *testing.T) {
	moved := house(nil, &serve.Options{Explorer: explorer.Options{Prefix: "/ui/"}})
	servertest.Do(t, moved, "GET", "/ui/tools/delete_record", "").Is(t, 200, `{"name":"delete_record","description":"Delete a record by ID.","version":"1.0.0","inputSchema":{"type":"object"}}`)
	if r := servertest.Do(t, moved, "GET", "/ui/", ""); r.Status != 200 || !strings.Contains(r.Body, "<html") {
		t.Errorf("page under /ui/: %d", r.Status)
	}
	servertest.Do(t, moved, "GET", "/tools", "").Is(t, 404, `{"error":"Not found: /tools"}`)
	servertest.Do(t, moved, "GET", "/", "").Is(t, 404, `{"error":"Not found: /"}`)

	off := house(nil, &serve.Options{Explorer: explorer.Options{Disable: true}})
	servertest.Do(t, off, "GET", "/tools", "").Is(t, 404, `{"error":"Not found: /tools"}`)
	servertest.Do(t, off, "GET", "/", "").Is(t, 404, `{"error":"Not found: /"}`)
	if r := servertest.Do(t, off, "POST", "/mcp", "{}"); r.Status == 404 {
		t.Errorf("MCP went with the explorer: %d", r.Status)
	}

	alone := explorer.NewHandler(runtime.NewServer(tools(), &runtime.Options{Logger: servertest.Discard()}), nil)
	servertest.Do(t, alone, "GET", "/tools", "").Is(t, 200, `[{"name":"delete_record","description":"Delete a record by ID.","version":"1.0.0"}]`)
	servertest.Do(t, alone, "GET", "/oxp/tools", "").Is(t, 404, `{"error":"Not found: /oxp/tools"}`)
	if r := servertest.Do(t, alone, "GET", "/", ""); r.Status != 200 || !strings.Contains(r.Body, `<nav class="protocol-links" aria-label="Protocols"></nav>`) || !strings.Contains(r.Body, `const HISTORY_URL = "";`) {
		t.Errorf("the page alone links to surfaces that are not there: %d", r.Status)
	}
}

// The page links to the OXP listing and the OpenAPI document relative to
// itself, wherever the surfaces are.
func TestPageLinks(t *testing.T) {
	for _, c := range []struct {
		name string
		opts serve.Options
		path string
		want string
	}{
		{"defaults", serve.Options{}, "/", `<a href="oxp/tools"`},
		{"explorer moved", serve.Options{Explorer: explorer.Options{Prefix: "/ui/"}}, "/ui/", `<a href="../oxp/tools"`},
		{"both moved", serve.Options{Explorer: explorer.Options{Prefix: "/a/b"}, OXP: oxp.Options{Prefix: "/api/oxp"}}, "/a/b/", `<a href="../../api/oxp/tools"`},
		{"neither", serve.Options{OXP: oxp.Options{Disable: true}, OpenAPI: ops.EndpointOptions{Disable: true}}, "/", `<nav class="protocol-links" aria-label="Protocols"></nav>`},
		{"OpenAPI", serve.Options{Explorer: explorer.Options{Prefix: "/ui"}}, "/ui/", `<a href="../openapi.json" data-protocol="openapi"`},
	} {
		if p := page(t, nil, &c.opts, c.path); !strings.Contains(p, c.want) {
			t.Errorf("%s: no %s in the page", c.name, c.want)
		}
	}
}

// The page knows where the history is and whether calls need a token.
func TestPageHistoryAndAuth(t *testing.T) {
	for _, c := range []struct {
		name string
		opts runtime.Options
		so   serve.Options
		path string
		want []string
	}{
		{"defaults", runtime.Options{}, serve.Options{}, "/", []string{`const HISTORY_URL = "v1/invocations";`, `const AUTH_REQUIRED = false;`, `const HUMAN_URL = "v1/human";`}},
		{"moved, with auth", runtime.Options{AuthHook: runtime.BearerTokens("x")}, serve.Options{Explorer: explorer.Options{Prefix: "/ui"}}, "/ui/", []string{`const HISTORY_URL = "../v1/invocations";`, `const AUTH_REQUIRED = true;`, `const HUMAN_URL = "../v1/human";`}},
		{"no /v1", runtime.Options{}, serve.Options{V1: qmcp.Options{Disable: true}}, "/", []string{`const HISTORY_URL = "";`, `const HUMAN_URL = "";`}},
		{"no human requests", runtime.Options{History: history.Discard}, serve.Options{}, "/", []string{`const HISTORY_URL = "v1/invocations";`, `const HUMAN_URL = "";`}},
	} {
		p := page(t, &c.opts, &c.so, c.path)
		for _, w := range c.want {
			if !strings.Contains(p, w) {
				t.Errorf("%s: no %s in the page", c.name, w)
			}
		}
	}
}
