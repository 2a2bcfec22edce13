package serve

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
)

// A path no route serves is answered by the surface whose prefix it is
// under, in that surface's shape (its own catch-all, as when it is
// mounted alone), the prefix itself too, and by the explorer's under none.
// An explorer mounted under a prefix sends a browser at the bare prefix
// to its page.
func TestNotFoundInTheSurfacesShape(t *testing.T) {
	srv := runtime.NewServer(tools(), quiet)
	for _, tc := range []struct {
		opts         *Options
		method, path string
		status       int
		body         string
	}{
		{nil, "GET", "/v1/nope", 404, `{"detail":"Not Found"}`},
		{nil, "GET", "/v1", 404, `{"detail":"Not Found"}`},
		{nil, "POST", "/v1/tools", 405, `{"detail":"Method not allowed: POST"}`},
		{nil, "GET", "/oxp/nope", 404, `{"message":"Not found: /oxp/nope"}`},
		{nil, "GET", "/oxp", 404, `{"message":"Not found: /oxp"}`},
		{nil, "GET", "/nope", 404, `{"error":"Not found: /nope"}`},
		{nil, "GET", "/mcp/nope", 404, `{"error":"Not found: /mcp/nope"}`},
		{&Options{V1: qmcp.Options{Prefix: "/api/v1"}}, "GET", "/api/v1/nope", 404, `{"detail":"Not Found"}`},
		{&Options{Explorer: explorer.Options{Prefix: "/ui"}}, "GET", "/ui/nope", 404, `{"error":"Not found: /ui/nope"}`},
		{&Options{Explorer: explorer.Options{Prefix: "/ui"}}, "GET", "/ui", 307, ""},
		{&Options{Explorer: explorer.Options{Prefix: "/ui"}}, "GET", "/elsewhere", 404, `{"error":"Not found: /elsewhere"}`},
		{&Options{Explorer: explorer.Options{Disable: true}}, "GET", "/", 404, `{"error":"Not found: /"}`},
	} {
		rec := httptest.NewRecorder()
		NewHandler(srv, tc.opts).ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		body, _ := io.ReadAll(rec.Body)
		if rec.Code != tc.status || (tc.body != "" && strings.TrimSpace(string(body)) != tc.body) {
			t.Errorf("%s %s: %d %s, want %d %s", tc.method, tc.path, rec.Code, body, tc.status, tc.body)
		}
		if rec.Code == 307 && rec.Header().Get("Location") != tc.path+"/" {
			t.Errorf("%s %s: redirected to %q", tc.method, tc.path, rec.Header().Get("Location"))
		}
		if rec.Header().Get("X-Request-ID") == "" {
			t.Errorf("%s %s: no X-Request-ID", tc.method, tc.path)
		}
	}
}

// The guard refuses in the shape of the surface the path belongs to: an
// endpoint's path alone (MCP's /mcp, not /mcp/x, which no MCP route
// serves); and an endpoint mounted at another surface's prefix keeps it.
func TestGuardShapeByRoute(t *testing.T) {
	srv := runtime.NewServer(tools(), quiet)
	h := NewHandler(srv, nil)
	for path, want := range map[string]string{
		"/mcp":       `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Cross-origin request refused."}}`,
		"/mcp/x":     `{"error":"Cross-origin request refused."}`,
		"/v1/tools":  `{"detail":"Cross-origin request refused."}`,
		"/oxp/nope":  `{"message":"Cross-origin request refused."}`,
		"/tools/x/y": `{"error":"Cross-origin request refused."}`,
	} {
		req := httptest.NewRequest("POST", path, strings.NewReader("{}"))
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Origin", "https://evil.example")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if body := strings.TrimSpace(rec.Body.String()); rec.Code != 403 || body != want {
			t.Errorf("POST %s: %d %s, want 403 %s", path, rec.Code, body, want)
		}
	}
	// MCP at /v1, /v1 at its default: the bare /v1 is MCP's.
	h = NewHandler(srv, &Options{MCP: mcp.Options{Path: "/v1"}})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("DELETE", "/v1", nil))
	if !strings.Contains(rec.Body.String(), `"jsonrpc":"2.0"`) {
		t.Errorf("DELETE /v1 with MCP there: %d %s", rec.Code, rec.Body.String())
	}
}
