package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// Every tool, listed and called with the SDK's client over Streamable HTTP
// at /mcp and over -stdio, has the schemas and gives the results the REST
// endpoints give.

var mcpCalls = map[string]string{
	"get_weather":         `{"city":"Oslo","days":2}`,
	"convert_temperature": `{"value":21.5,"from":"celsius","to":"fahrenheit"}`,
	"delete_alert":        `{"id":"al-404"}`,
	"weather_map":         `{"city":"Lisbon","size":16}`,
}

func TestMCPMatchesREST(t *testing.T) {
	srv := runtime.NewServer(AllTools(), &runtime.Options{AllowExecute: true})
	hs := httptest.NewServer(serve.NewHandler(srv, nil))
	defer hs.Close()

	// What REST says.
	rest := map[string]map[string]any{}
	restSchemas := map[string]string{}
	for name, args := range mcpCalls {
		resp, err := http.Post(hs.URL+"/tools/"+name+"/call", "application/json", strings.NewReader(args))
		if err != nil {
			t.Fatal(err)
		}
		var r map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		rest[name] = r
		resp, err = http.Get(hs.URL + "/tools/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var d struct{ InputSchema json.RawMessage }
		json.NewDecoder(resp.Body).Decode(&d)
		resp.Body.Close()
		restSchemas[name] = canonical(t, d.InputSchema)
	}

	bin := filepath.Join(t.TempDir(), "weather")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	transports := map[string]mcp.Transport{
		"http":  &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp"},
		"stdio": &mcp.CommandTransport{Command: exec.Command(bin, "-stdio")},
	}
	for name, tr := range transports {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Tools) != len(mcpCalls) {
				t.Fatalf("%d tools, want %d", len(list.Tools), len(mcpCalls))
			}
			for _, tool := range list.Tools {
				if got := canonical(t, mustMarshal(t, tool.InputSchema)); got != restSchemas[tool.Name] {
					t.Errorf("%s input schema over MCP:\n%s\nover REST:\n%s", tool.Name, got, restSchemas[tool.Name])
				}
				if tool.Description == "" {
					t.Errorf("%s has no description", tool.Name)
				}
				var args map[string]any
				json.Unmarshal([]byte(mcpCalls[tool.Name]), &args)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: args})
				if err != nil {
					t.Fatalf("%s: %v", tool.Name, err)
				}
				var got map[string]any
				json.Unmarshal(mustMarshal(t, res), &got)
				want := rest[tool.Name]
				for _, k := range []string{"content", "structuredContent", "isError"} {
					if g, w := canonicalValue(t, got[k]), canonicalValue(t, want[k]); g != w && !(k == "isError" && g == "null" && w == "false") {
						t.Errorf("%s %s over MCP:\n%s\nover REST:\n%s", tool.Name, k, g, w)
					}
				}
			}
		})
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func canonical(t *testing.T, b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return canonicalValue(t, v)
}

func canonicalValue(t *testing.T, v any) string { return string(mustMarshal(t, v)) }
