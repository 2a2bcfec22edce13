package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// logBuffer captures a server's logs.
type logBuffer = servertest.LogBuffer

type response struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, hh any, method, path, body string, header ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	h := houseOf(hh)
	req := httptest.NewRequest(method, path, rd)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{rec.Code, rec.Header(), rec.Body.String()}
}

func (r response) is(t *testing.T, status int, body string) {
	t.Helper()
	if r.status != status || r.body != body {
		t.Fatalf("got %d %s\nwant %d %s", r.status, r.body, status, body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
}

func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// F2: a function provider is called on every request, no caching.
func TestToolsFuncCalledPerRequest(t *testing.T) {
	var calls atomic.Int32
	p := ToolsFunc(func(context.Context) ([]Tool, error) {
		n := calls.Add(1)
		return []Tool{{Name: fmt.Sprintf("tool_%d", n), Handler: specTools()[1].Handler}}, nil
	})
	s := NewServer(p, &Options{AllowExecute: true})
	do(t, s, "GET", "/tools", "").is(t, 200, `[{"name":"tool_1","description":"","version":"1.0.0"}]`)
	do(t, s, "GET", "/tools", "").is(t, 200, `[{"name":"tool_2","description":"","version":"1.0.0"}]`)
	do(t, s, "GET", "/tools/tool_3", "").is(t, 200, `{"name":"tool_3","description":"","version":"1.0.0","inputSchema":{"type":"object"}}`)
	do(t, s, "POST", "/tools/tool_4/call", "{}").is(t, 200, `{"content":[{"type":"text","text":"deleted"}],"isError":false}`)
	if got := calls.Load(); got != 4 {
		t.Errorf("provider called %d times, want 4", got)
	}
}

// F2 "async callable": Go has no promises; the equivalent is a provider that
// waits on other goroutines, bounded by the request's context.
func TestToolsFuncAsync(t *testing.T) {
	p := ToolsFunc(func(ctx context.Context) ([]Tool, error) {
		ch := make(chan []Tool, 1)
		go func() {
			time.Sleep(5 * time.Millisecond)
			ch <- specTools()[:1]
		}()
		select {
		case tools := <-ch:
			return tools, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	do(t, NewServer(p, nil), "GET", "/tools", "").is(t, 200,
		`[{"name":"get_weather","description":"Fetch current weather for a city.","version":"1.0.0","annotations":{"readOnlyHint":true,"openWorldHint":true}}]`)
}

func TestProviderError(t *testing.T) {
	var logs logBuffer
	p := ToolsFunc(func(context.Context) ([]Tool, error) { return nil, errors.New("database is down") })
	s := NewServer(p, &Options{AllowExecute: true, Logger: logs.Logger()})
	for _, req := range [][2]string{{"GET", "/tools"}, {"GET", "/tools/x"}, {"POST", "/tools/x/call"}, {"POST", "/tools/x/validate"}} {
		r := do(t, s, req[0], req[1], "{}")
		r.is(t, 500, `{"error":"Failed to list tools."}`)
	}
	if !strings.Contains(logs.String(), "database is down") {
		t.Errorf("provider error not logged: %s", logs.String())
	}
}

// A chunked body (no Content-Length) past the limit is cut off by the reader.
func TestOversizedChunkedBody(t *testing.T) {
	s := NewServer(callTools(), &Options{AllowExecute: true, MaxBodyBytes: 100})
	req := httptest.NewRequest("POST", "/tools/plain/call", io.MultiReader(strings.NewReader(`{"a":"`), strings.NewReader(strings.Repeat("b", 500)), strings.NewReader(`"}`)))
	req.ContentLength = -1
	rec := httptest.NewRecorder()
	houseOf(s).ServeHTTP(rec, req)
	if rec.Code != 413 || rec.Body.String() != `{"error":"Request body too large (limit 100 bytes)."}` {
		t.Fatalf("got %d %s", rec.Code, rec.Body)
	}
}

// The default limit is 1 MiB.
func TestDefaultBodyLimit(t *testing.T) {
	s := NewServer(callTools(), &Options{AllowExecute: true})
	body := `{"x":"` + strings.Repeat("a", DefaultMaxBodyBytes) + `"}`
	do(t, s, "POST", "/tools/plain/call", body).is(t, 413, `{"error":"Request body too large (limit 1048576 bytes)."}`)
	do(t, s, "POST", "/tools/plain/call", `{"x":"`+strings.Repeat("a", DefaultMaxBodyBytes-100)+`"}`).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false}`)
}

func TestNewServerRejectsBadStaticList(t *testing.T) {
	h := callTools()[1].Handler
	for name, list := range map[string]ToolList{
		"empty name":   {{Handler: h}},
		"invalid name": {{Name: "a/b", Handler: h}},
		"no handler":   {{Name: "x"}},
		"duplicate":    {{Name: "x", Handler: h}, {Name: "x", Handler: h}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("NewServer did not panic")
				}
			}()
			NewServer(list, nil)
		})
	}
}

// A function provider's unusable tools are dropped, not fatal.
func TestFuncProviderSkipsBadTools(t *testing.T) {
	h := callTools()[1].Handler
	p := ToolsFunc(func(context.Context) ([]Tool, error) {
		return []Tool{{Name: "a", Handler: h}, {Name: "", Handler: h}, {Name: "b"}, {Name: "a", Description: "second", Handler: h}, {Name: "c d", Handler: h}}, nil
	})
	do(t, NewServer(p, &Options{Logger: slog.New(slog.DiscardHandler)}), "GET", "/tools", "").is(t, 200, `[{"name":"a","description":"","version":"1.0.0"}]`)
}

// The server works mounted under a prefix.
func TestMountedUnderPrefix(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/explorer/", http.StripPrefix("/explorer", houseOf(NewServer(specTools(), &Options{AllowExecute: true}))))
	do(t, mux, "GET", "/explorer/tools/delete_record", "").is(t, 200, `{"name":"delete_record","description":"Delete a record by ID.","version":"1.0.0","inputSchema":{"type":"object"}}`)
	do(t, mux, "POST", "/explorer/tools/get_weather/call", `{"city":"Oslo"}`).is(t, 200, `{"content":[{"type":"text","text":"Sunny in Oslo"}],"isError":false}`)
	if r := do(t, mux, "GET", "/explorer/", ""); r.status != 200 || !strings.Contains(r.body, "<html") {
		t.Errorf("page under prefix: %d", r.status)
	}
}

// A negative body limit means none.
func TestNoBodyLimit(t *testing.T) {
	s := NewServer(callTools(), &Options{AllowExecute: true, MaxBodyBytes: -1})
	do(t, s, "POST", "/tools/plain/call", `{"x":"`+strings.Repeat("a", 2*DefaultMaxBodyBytes)+`"}`).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false}`)
}
