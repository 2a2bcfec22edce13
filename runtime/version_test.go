package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// Every surface serves each tool's version: its own, else the toolkit's
// (Options.ToolVersion), else 1.0.0.
func TestVersionsServed(t *testing.T) {
	mk := func(name, version string) Tool {
		tl := MustNewTool(name, "The "+name+" tool.", func(context.Context, struct{}) (string, error) { return "", nil })
		tl.Version = version
		return tl
	}
	for _, tc := range []struct {
		name, kit string
		want      map[string]string
	}{
		{"toolkit version set", "0.4.0", map[string]string{"own": "2.3.0", "kit": "0.4.0"}},
		{"no toolkit version", "", map[string]string{"own": "2.3.0", "kit": "1.0.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(ToolList{mk("own", "2.3.0"), mk("kit", "")}, &Options{Logger: discard(), ToolVersion: tc.kit})
			hs := newHTTPTest(s)
			defer hs.Close()
			getJSON := func(path string, v any) {
				t.Helper()
				code, body := httpDo(t, "GET", hs.URL+path, "")
				if code != 200 || json.Unmarshal([]byte(body), v) != nil {
					t.Fatalf("GET %s: %d %s", path, code, body)
				}
			}
			surfaces := map[string]func() map[string]string{
				"MCP tools/list _meta": func() map[string]string {
					_, msg := servertest.Post2026(t, hs.URL, "tools/list", "", "")
					b, _ := json.Marshal(msg["result"])
					var res struct {
						Tools []struct {
							Name string
							Meta map[string]string `json:"_meta"`
						}
					}
					json.Unmarshal(b, &res)
					out := map[string]string{}
					for _, tl := range res.Tools {
						out[tl.Name] = tl.Meta["io.github.toolgen-go/version"]
					}
					return out
				},
				"explorer /tools": func() map[string]string {
					var list []struct{ Name, Version string }
					getJSON("/tools", &list)
					out := map[string]string{}
					for _, tl := range list {
						out[tl.Name] = tl.Version
					}
					return out
				},
				"explorer /tools/{name}": func() map[string]string {
					out := map[string]string{}
					for _, name := range []string{"own", "kit"} {
						var d struct{ Version string }
						getJSON("/tools/"+name, &d)
						out[name] = d.Version
					}
					return out
				},
				"/v1/tools": func() map[string]string {
					var body struct {
						Tools []struct{ Name, Version string }
					}
					getJSON("/v1/tools", &body)
					out := map[string]string{}
					for _, tl := range body.Tools {
						out[tl.Name] = tl.Version
					}
					return out
				},
				"/oxp/tools": func() map[string]string {
					var body struct {
						Tools []struct{ Name, Version string }
					}
					getJSON("/oxp/tools", &body)
					out := map[string]string{}
					for _, tl := range body.Tools {
						out[strings.ToLower(tl.Name[strings.LastIndex(tl.Name, "_")+1:])] = tl.Version
					}
					return out
				},
				"/openapi.json x-tool-version": func() map[string]string {
					var doc struct {
						Paths map[string]map[string]map[string]any
					}
					getJSON("/openapi.json", &doc)
					out := map[string]string{}
					for p, ops := range doc.Paths {
						name, ok := strings.CutPrefix(p, "/v1/tools/")
						if !ok {
							continue
						}
						out[name], _ = ops["post"]["x-tool-version"].(string)
						if call := doc.Paths["/tools/"+name+"/call"]["post"]["x-tool-version"]; call != out[name] {
							t.Errorf("OpenAPI: %s's explorer operation says %v, its /v1 one %s", name, call, out[name])
						}
					}
					return out
				},
			}
			for name, served := range surfaces {
				got := served()
				for tool, want := range tc.want {
					if got[tool] != want {
						t.Errorf("%s: %s's version %q, want %q (all: %v)", name, tool, got[tool], want, got)
					}
				}
			}
		})
	}
}
