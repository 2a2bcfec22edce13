package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// routeRequests are requests at and near the explorer's call route: a
// tool's call, the paths the mux cleans or redirects, escapes, a wrong
// method, an unknown tool, and other routes.
var routeRequests = []struct{ method, path, body string }{
	{"POST", "/tools/plain/call", `{}`},
	{"POST", "/tools/traced/call", `{}`},
	{"POST", "/tools/plain/call?x=1", `{}`},
	{"POST", "/tools/nope/call", `{}`},
	{"POST", "/tools/pl%61in/call", `{}`},
	{"POST", "/tools/a%2Fb/call", `{}`},
	{"POST", "/tools/../tools/plain/call", `{}`},
	{"POST", "/tools/./call", `{}`},
	{"POST", "/tools//call", `{}`},
	{"POST", "//tools/plain/call", `{}`},
	{"POST", "/tools/plain/call/", `{}`},
	{"POST", "/tools/plain/calls", `{}`},
	{"POST", "/tools/call", `{}`},
	{"GET", "/tools/plain/call", ``},
	{"PUT", "/tools/plain/call", `{}`},
	{"POST", "/tools/plain/validate", `{}`},
	{"GET", "/tools/plain", ``},
	{"POST", "/tools/echo/call", `{}`},
	{"POST", "/tools/peek/call", `{}`},
	{"POST", "/tools/" + strings.Repeat("x", 129) + "/call", `{}`},
}

// routeTools are callTools and peek, which answers with what the request
// it came in on says of its route.
func routeTools() ToolList {
	return append(callTools(), Tool{Name: "peek", Handler: func(ctx context.Context, _ json.RawMessage) (*Result, error) {
		r, _ := RequestFromContext(ctx)
		return TextResult(r.Pattern + " " + r.PathValue("name")), nil
	}})
}

// The call route answers every request as the mux alone does: the same
// status, body and headers (the ids aside), the same route in the request
// metrics, the same pattern and path value for the auth hook and for a
// tool (peek), each request sent three times so that the route has
// learned what it will. It learns only the call paths of tools the mux
// routed to it, never a path some other pattern serves (Metrics.Path
// here, at a tool's call path).
func TestCallRouteAsMux(t *testing.T) {
	var hooked [2][]string
	opts := func(i int) *Options {
		return &Options{AllowExecute: true, Logger: discard(), Metrics: EndpointOptions{Path: "/tools/traced/call"},
			AuthHook: func(r *http.Request) (context.Context, error) {
				hooked[i] = append(hooked[i], r.Pattern+" "+r.PathValue("name"))
				return r.Context(), nil
			}}
	}
	fast := NewServer(routeTools(), opts(0))
	slow := NewServer(routeTools(), opts(1))
	slow.calls = nil
	if fast.calls == nil {
		t.Fatal("no call route")
	}
	for range 3 {
		for _, rq := range routeRequests {
			got := do(t, fast, rq.method, rq.path, rq.body)
			want := do(t, slow, rq.method, rq.path, rq.body)
			for _, h := range []http.Header{got.header, want.header} {
				h.Del(headerRequestID)
				h.Del(headerCorrelationID)
			}
			if got.status != want.status || got.body != want.body || !equalHeaders(got.header, want.header) {
				t.Errorf("%s %s:\n route %d %v %s\n mux   %d %v %s", rq.method, rq.path, got.status, got.header, got.body, want.status, want.header, want.body)
			}
		}
	}
	var learned []string
	fast.calls.names.Range(func(k, _ any) bool {
		learned = append(learned, k.(string))
		return true
	})
	slices.Sort(learned)
	if want := []string{"peek", "plain"}; !slices.Equal(learned, want) {
		t.Errorf("learned %q, want %q", learned, want)
	}
	if !slices.Equal(hooked[0], hooked[1]) {
		t.Errorf("the auth hook saw\n route %q\n mux   %q", hooked[0], hooked[1])
	}
	if got, want := requestLines(t, fast), requestLines(t, slow); got != want {
		t.Errorf("request metrics:\n route %s\n mux   %s", got, want)
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// requestLines are the toolgen_http_requests_total lines of /metrics
// as a test reads them from the registry.
func requestLines(t *testing.T, s *Server) string {
	t.Helper()
	families, err := s.metrics.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, f := range families {
		if f.GetName() != "toolgen_http_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			var l []string
			for _, p := range m.GetLabel() {
				l = append(l, p.GetName()+"="+p.GetValue())
			}
			lines = append(lines, strings.Join(l, ",")+" "+strconv.FormatFloat(m.GetCounter().GetValue(), 'g', -1, 64))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// A pattern that names a host makes the mux's choice depend on the
// request's Host: there is no call route then; with the explorer off
// there is none either; a prefix moves it.
func TestCallRouteWhen(t *testing.T) {
	if s := NewServer(callTools(), &Options{Logger: discard(), Health: EndpointOptions{Path: "example.com/health"}}); s.calls != nil {
		t.Error("a host pattern, and a call route")
	}
	if s := NewServer(callTools(), &Options{Logger: discard(), Health: EndpointOptions{Path: "GET /health"}}); s.calls != nil {
		t.Error("a method pattern, and a call route")
	}
	if s := NewServer(callTools(), &Options{Logger: discard(), Explorer: ExplorerOptions{Disable: true}}); s.calls != nil {
		t.Error("no explorer, and a call route")
	}
	s := NewServer(callTools(), &Options{AllowExecute: true, Logger: discard(), Explorer: ExplorerOptions{Prefix: "/ui/"}})
	for range 2 {
		if r := do(t, s, "POST", "/ui/tools/plain/call", `{}`); r.status != http.StatusOK {
			t.Fatalf("%d %s", r.status, r.body)
		}
	}
	if _, ok := s.calls.names.Load("plain"); !ok || s.calls.pattern != "/ui/tools/{name}/call" {
		t.Errorf("prefix /ui/: pattern %q, plain learned %v", s.calls.pattern, ok)
	}
}

// With a ToolsProvider the route learns any valid tool name the mux
// routed to it, tools that do not exist too, up to maxCallNames, however
// many requests learn at once.
func TestCallRouteBounded(t *testing.T) {
	tools := callTools()
	s := NewServer(ToolsFunc(func(context.Context) ([]Tool, error) { return tools, nil }), &Options{AllowExecute: true, Logger: discard()})
	const workers = 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w / 2; i < maxCallNames+100; i += workers / 2 { // each name by two workers
				do(t, s, "POST", "/tools/t"+strconv.Itoa(i)+"/call", `{}`)
			}
		})
	}
	wg.Wait()
	n := 0
	s.calls.names.Range(func(any, any) bool { n++; return true })
	if got := s.calls.learned.Load(); got != maxCallNames || n != maxCallNames {
		t.Errorf("learned %d names, counted %d, want %d", n, got, maxCallNames)
	}
}

// Behind a router that matched a pattern of its own, the request is
// routed by the server's mux (whose values replace the router's).
func TestCallRouteBehindMux(t *testing.T) {
	s := NewServer(routeTools(), &Options{AllowExecute: true, Logger: discard()})
	outer := http.NewServeMux()
	outer.Handle("/{rest...}", s)
	for range 3 {
		r := do(t, outer, "POST", "/tools/peek/call", `{}`)
		if r.status != http.StatusOK || !strings.Contains(r.body, `"/tools/{name}/call peek"`) {
			t.Fatalf("%d %s", r.status, r.body)
		}
	}
	if _, ok := s.calls.names.Load("peek"); ok {
		t.Error("learned behind a router")
	}
}
