package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/internal/testcatalog"
	"github.com/toolgen-go/toolgen/runtime"
)

// BenchmarkToolsListPage: one page of tools/list (the first 1,000, the
// default page) at 2026-07-28, answered natively, from catalogs of 1,000
// and 10,000 tools (internal/testcatalog), through the serving path as a
// client's request goes.
//
//	go test -run '^$' -bench BenchmarkToolsListPage -benchmem ./runtime/mcp
func BenchmarkToolsListPage(b *testing.B) {
	h := func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(""), nil }
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + fastMeta2026 + `}}`
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			var tools runtime.ToolList
			for _, t := range testcatalog.Catalog(n) {
				tools = append(tools, runtime.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Handler: h})
			}
			house := houseOf(newTestServer(tools, &runtime.Options{Logger: discard()}, &Options{JSONResponse: true}))
			send := func() *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
				for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"} {
					req.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				house.ServeHTTP(w, req)
				return w
			}
			w := send()
			if w.Code != 200 || strings.Count(w.Body.String(), `"inputSchema"`) != min(n, DefaultPageSize) || (n > DefaultPageSize) != strings.Contains(w.Body.String(), `"nextCursor"`) {
				b.Fatalf("%d %.300s", w.Code, w.Body)
			}
			b.ReportAllocs()
			for b.Loop() {
				send()
			}
		})
	}
}
