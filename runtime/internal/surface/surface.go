// Package surface holds what the surface packages (runtime/oxp,
// runtime/explorer, ...) need of the core beyond its exported API: the
// serving path ([httpkit.Kit]) built from a [runtime.Server], the
// wrapping every surface mounted alone needs, and the HTTP statuses of
// the outcomes the policy stops a call with, which every REST surface
// answers alike.
package surface

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// Kit returns the serving path of srv: its auth hook, body limit and
// logger.
func Kit(srv *runtime.Server) *httpkit.Kit {
	o := srv.Options()
	log := srv.Logger()
	return &httpkit.Kit{
		Authenticate: srv.Authenticate,
		HasHook:      o.AuthHook != nil,
		MaxBodyBytes: o.MaxBodyBytes,
		Log:          log,
		LogPanic: func(where string, v any, args ...any) {
			httpkit.LogPanic(log, where, v, args...)
		},
		Traced: o.Tracer != nil,
	}
}

// Wrap gives h, the handler of surface sf, what a surface needs to be
// mounted alone: X-Request-ID and X-Correlation-ID on every response, and
// the browser guard, whose refusals are in sf's shape (nil: {"error":
// message}). Mounted inside another surface's handler (serve.NewHandler),
// it does neither twice.
func Wrap(srv *runtime.Server, sf *httpkit.Surface, h http.Handler) http.Handler {
	return WrapShaped(srv, func(*http.Request) *httpkit.Surface { return sf }, h)
}

// WrapShaped is Wrap for a handler of several surfaces (serve.NewHandler):
// shape gives the surface a refused request was for.
func WrapShaped(srv *runtime.Server, shape func(*http.Request) *httpkit.Surface, h http.Handler) http.Handler {
	o := srv.Options()
	return httpkit.WithIDs(httpkit.Guard(h, srv.Logger(), o.TrustedOrigins, o.AllowedHosts, shape))
}

// PolicyError is the HTTP refusal of a call the policy stopped, for the
// surfaces that answer one with a status of its own: 403 with the
// insufficient_scope challenge (RFC 6750), 409 for an idempotency key
// reused, 503 with Retry-After when the history could not record it, 429
// with Retry-After. Nil for any other outcome.
func PolicyError(out *runtime.Outcome) *httpkit.Error {
	switch out.Status {
	case runtime.StatusForbidden:
		e, _ := out.Err.(*runtime.ScopeError)
		challenge := `Bearer error="insufficient_scope"`
		if e != nil {
			challenge += `, scope="` + strings.Join(e.Required, " ") + `"`
		}
		return &httpkit.Error{Status: http.StatusForbidden, Msg: out.Err.Error(), Header: map[string]string{"WWW-Authenticate": challenge}}
	case runtime.StatusConflict:
		return &httpkit.Error{Status: http.StatusConflict, Msg: out.Err.Error()}
	case runtime.StatusUnrecorded:
		return &httpkit.Error{Status: http.StatusServiceUnavailable, Msg: out.Err.Error(), Header: map[string]string{"Retry-After": "1"}}
	case runtime.StatusRateLimited:
		wait := time.Second
		if te, ok := out.Err.(*runtime.ToolError); ok && te.RetryAfter > 0 {
			wait = te.RetryAfter
		}
		secs := int((wait + time.Second - 1) / time.Second)
		return &httpkit.Error{Status: http.StatusTooManyRequests, Msg: out.Err.Error(), Header: map[string]string{"Retry-After": strconv.Itoa(secs)}}
	}
	return nil
}

// Mux is a surface's routes: an http.ServeMux that remembers the patterns
// it was given, so that serve.NewHandler can register the same routes on
// its own mux (under the surface's prefix) and route each request once,
// rather than through a mux of its own and then the surface's.
type Mux struct {
	mux    *http.ServeMux
	sf     *httpkit.Surface
	routes []Route
}

// Route is one pattern of a surface and its handler.
type Route struct {
	Pattern string
	Handler http.Handler
}

// NewMux returns an empty Mux of surface sf.
func NewMux(sf *httpkit.Surface) *Mux { return &Mux{mux: http.NewServeMux(), sf: sf} }

// Handle registers h for pattern, as http.ServeMux.Handle does.
func (m *Mux) Handle(pattern string, h http.Handler) {
	m.mux.Handle(pattern, h)
	m.routes = append(m.routes, Route{pattern, h})
}

// HandleFunc registers f for pattern.
func (m *Mux) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	m.Handle(pattern, http.HandlerFunc(f))
}

// Handler is the surface mounted alone (the mux behind Wrap), which
// remembers its routes for serve.
func (m *Mux) Handler(srv *runtime.Server) http.Handler {
	return &Handler{Handler: Wrap(srv, m.sf, m.mux), sf: m.sf, routes: m.routes}
}

// Endpoint is a surface that is one endpoint, served at whatever path it
// is mounted on (MCP's Streamable HTTP), mounted alone: h behind Wrap. Its
// one route has the empty pattern: the mount point itself.
func Endpoint(srv *runtime.Server, sf *httpkit.Surface, h http.Handler) http.Handler {
	return &Handler{Handler: Wrap(srv, sf, h), sf: sf, routes: []Route{{"", h}}}
}

// Handler is a surface's handler, as its package's NewHandler returns it.
type Handler struct {
	http.Handler
	sf     *httpkit.Surface
	routes []Route
}

// Routes are the surface's routes, its catch-all "/" among them, for a
// mux that mounts the surface (serve.NewHandler) to register under the
// surface's prefix. A request routed to them must have passed through
// Wrap's ids and guard already: the mounting mux is behind them.
func (h *Handler) Routes() []Route { return h.routes }

// Surface is the surface whose shape its errors have.
func (h *Handler) Surface() *httpkit.Surface { return h.sf }

// Search limits of the lists' ?search= (ToolsAsked): how many tools a
// search answers by default, and at most.
const (
	DefaultListSearchLimit = 20
	MaxListSearchLimit     = 100
)

// ToolsAsked is what a GET of a surface's tool list asks for: every tool
// the caller may see, or with ?search=QUERY the tools that best match it,
// best first (runtime.Server.SearchTools), at most ?limit=N of them
// (default DefaultListSearchLimit, at most MaxListSearchLimit). A limit
// that is not a number in range is refused with badQuery, the status the
// surface refuses a bad query with; a provider that fails, a 500.
func ToolsAsked(srv *runtime.Server, rq *httpkit.Request, badQuery int) ([]runtime.Tool, error) {
	q, err := httpkit.Query(rq.R, badQuery)
	if err != nil {
		return nil, err
	}
	if !q.Has("search") {
		tools, err := srv.VisibleTools(rq.Ctx)
		if err != nil {
			return nil, httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
		}
		return tools, nil
	}
	limit := DefaultListSearchLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxListSearchLimit {
			return nil, httpkit.Refuse(badQuery, "limit is a number from 1 to "+strconv.Itoa(MaxListSearchLimit))
		}
		limit = n
	}
	tools, err := srv.SearchTools(rq.Ctx, q.Get("search"), limit)
	if err != nil {
		return nil, httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	return tools, nil
}
