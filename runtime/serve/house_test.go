package serve

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
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
