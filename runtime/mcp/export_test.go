package mcp

import (
	"cmp"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
	"github.com/toolgen-go/toolgen/runtime/ops"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
)

// The tests' house: a core server's MCP surfaces mounted as
// runtime/serve mounts them (this package's tests cannot import serve,
// which imports this package): Streamable HTTP at Options.Path, /sse,
// the OAuth metadata; and qmcp's /v1, /metrics and the Tool Explorer at
// the root, for the tests that compare MCP with another surface.

// testEntry is a core server's MCP side in the tests: its options, and
// the handler and servers built from them once.
type testEntry struct {
	opts *Options
	once sync.Once
	h    http.Handler
	srv  *server // Streamable HTTP's, and the in-memory sessions'
	sse  *server // /sse's
}

var testServers sync.Map // *runtime.Server → *testEntry

// newTestServer is runtime.NewServer, with the MCP options its test house
// serves MCP with.
func newTestServer(p runtime.ToolsProvider, ro *runtime.Options, mo *Options) *runtime.Server {
	s := runtime.NewServer(p, ro)
	testServers.Store(s, &testEntry{opts: mo})
	return s
}

func entryOf(s *runtime.Server) *testEntry {
	v, _ := testServers.LoadOrStore(s, &testEntry{})
	e := v.(*testEntry)
	e.once.Do(func() { e.build(s) })
	return e
}

func (e *testEntry) build(s *runtime.Server) {
	var o Options
	if e.opts != nil {
		o = *e.opts
	}
	mux := http.NewServeMux()
	h, srv := newStreamable(s, &o)
	e.srv = srv
	if !o.Disable {
		mux.Handle(cmp.Or(o.Path, DefaultPath), h)
		if !o.DisableSSE {
			var sh http.Handler
			sh, e.sse = newSSE(s, &o)
			mux.Handle(cmp.Or(o.SSEPath, DefaultSSEPath), sh)
		}
	}
	if s.Options().OAuth != nil {
		m := NewOAuthMetadataHandler(s)
		mux.Handle(runtime.ProtectedResourceMetadataPath, m)
		mux.Handle(runtime.ProtectedResourceMetadataPath+"/", m)
	}
	for _, r := range qmcp.NewHandler(s, nil).(*surface.Handler).Routes() {
		mux.Handle("/v1"+r.Pattern, r.Handler) // as serve mounts it
	}
	mux.Handle("/metrics", ops.MetricsHandler(s))
	mux.Handle("/", explorer.NewHandler(s, nil))
	e.h = mux
}

// houseOf is h, or the test house of h when h is a *runtime.Server: what
// the tests send their requests to.
func houseOf(h any) http.Handler {
	if s, ok := h.(*runtime.Server); ok {
		return entryOf(s).h
	}
	return h.(http.Handler)
}

// mcpOf is the MCP server of s's test house (built on first use), for the
// in-memory sessions and the tests that look inside.
func mcpOf(s *runtime.Server) *server { return entryOf(s).srv }

// sseOf is the /sse server of s's test house.
func sseOf(s *runtime.Server) *server { return entryOf(s).sse }

// newHTTPTest is httptest.NewServer for houseOf(h).
func newHTTPTest(h any) *httptest.Server { return httptest.NewServer(houseOf(h)) }

// testClient is the client postMCP sends with: http.DefaultClient, or an
// in-process one for a test in a synctest bubble.
var testClient = http.DefaultClient
