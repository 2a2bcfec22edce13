package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// A middleware that panics on every call stops no surface: each answers
// in its own error shape, as JSON with no Go text, and the server goes on
// serving (MCP's own methods: TestMCPParamsAbsentNullEmpty in runtime/otel).
func TestPanicOnEverySurface(t *testing.T) {
	tool := runtime.MustNewTool("forecast", "A forecast.", func(_ context.Context, in forecastArgs) (string, error) {
		return "sunny", nil
	})
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{
		AllowExecute: true, Logger: discardLogger(),
		Middleware: []runtime.Middleware{func(runtime.InvokeFunc) runtime.InvokeFunc {
			return func(context.Context, *runtime.Call) *runtime.Outcome { panic("middleware") }
		}},
	})
	hs := httptest.NewServer(house(s))
	t.Cleanup(hs.Close) // after the streams the surfaces opened close
	for _, sf := range append(surfaces(t, hs.URL, goodToken), sseSurface(t, hs.URL, goodToken), stdioSurface(t, s)) {
		t.Run(sf.name, func(t *testing.T) {
			resp, err := sf.do(t, sf.request(t, hs.URL, "forecast", []byte(`{"city":"Paris"}`)))
			if err != nil {
				t.Fatalf("no answer (the connection dropped?): %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := rpcBody(string(b))
			if !json.Valid([]byte(body)) || sf.ran(resp.StatusCode, string(b)) {
				t.Errorf("%d %s, want a JSON error", resp.StatusCode, b)
			}
			if m := goText.FindString(body); m != "" {
				t.Errorf("Go text %q in %s", m, b)
			}
			// Still serving.
			if code, _ := status(t, hs.URL+"/tools", ""); code != 200 {
				t.Errorf("GET /tools after the panic: %d", code)
			}
		})
	}
}
