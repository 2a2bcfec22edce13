package serve

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
	"github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/ops"
	"github.com/toolgen-go/toolgen/runtime/oxp"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
)

// Options configures the handler [NewHandler] builds: one field per
// surface, each that surface's own options, whose Disable and Prefix (or
// Path) say whether and where NewHandler mounts it. The zero value (and
// nil) mounts every surface at its default path.
type Options struct {
	// MCP is MCP's Streamable HTTP, at /mcp by default (Path), with the
	// older HTTP+SSE transport at /sse (SSEPath, DisableSSE) and, when
	// the server has runtime.Options.OAuth, the OAuth protected resource
	// metadata under /.well-known/oauth-protected-resource.
	MCP mcp.Options
	// Explorer is the Tool Explorer, the page and its REST protocol, at
	// the root by default. NewHandler fills in its Links.
	Explorer explorer.Options
	// OXP is the OXP 1.0 surface, at /oxp by default.
	OXP oxp.Options
	// V1 is qmcp's /v1 API (tools, invocation history, human requests),
	// at /v1 by default.
	V1 qmcp.Options
	// Health, Metrics and OpenAPI are GET /health, GET /metrics (with
	// /metrics/json) and GET /openapi.json.
	Health, Metrics, OpenAPI ops.EndpointOptions
}

// NewHandler returns every surface of srv as one handler, each at its
// default path (or the one its options give): the Tool Explorer at /
// with its REST protocol under /tools, MCP at /mcp (and /sse), OXP under
// /oxp, qmcp's /v1, and /health, /metrics and /openapi.json. A nil opts
// means defaults. It is what [Main] serves; a program that wants one
// surface mounts that surface's own handler instead (oxp.NewHandler,
// explorer.NewHandler, ops.HealthHandler, ...). A path under a surface's
// prefix that it does not serve is answered 404 by that surface, in its
// shape, as when it is mounted alone; a path under none, 404 {"error":
// "Not found: PATH"}.
//
// Metrics count the calls of srv on every surface from the first
// NewHandler (or ops handler) built for it on, and the HTTP requests of
// this handler by route.
func NewHandler(srv *runtime.Server, opts *Options) http.Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	mux := http.NewServeMux()
	var shapes shapes // which surface answers a refusal, by path
	// Where each surface is, "" for nowhere: the explorer page and the
	// OpenAPI document link to them.
	var oxpAt, v1At, openAPIAt string
	if !o.OXP.Disable {
		oxpAt = prefix(o.OXP.Prefix, oxp.DefaultPrefix)
		shapes.mount(mux, oxpAt, oxp.NewHandler(srv, &o.OXP))
	}
	if !o.V1.Disable {
		v1At = prefix(o.V1.Prefix, qmcp.DefaultPrefix)
		shapes.mount(mux, v1At, qmcp.NewHandler(srv, &o.V1))
	}
	explorerAt := strings.TrimSuffix(o.Explorer.Prefix, "/")
	if explorerAt != "" && !strings.HasPrefix(explorerAt, "/") {
		explorerAt = "/" + explorerAt
	}
	if !o.OpenAPI.Disable {
		openAPIAt = path(o.OpenAPI.Path, ops.DefaultOpenAPIPath)
		mux.Handle(openAPIAt, ops.OpenAPIHandler(srv, &ops.OpenAPIOptions{Path: openAPIAt, Explorer: explorerAt, NoExplorer: o.Explorer.Disable, V1: v1At}))
	}
	if !o.Health.Disable {
		mux.Handle(path(o.Health.Path, ops.DefaultHealthPath), ops.HealthHandler(srv))
	}
	if !o.Metrics.Disable {
		p := path(o.Metrics.Path, ops.DefaultMetricsPath)
		mux.Handle(p, ops.MetricsHandler(srv))
		mux.Handle(ops.MetricsJSONPath(p), ops.MetricsJSONHandler(srv))
	}
	if !o.MCP.Disable {
		shapes.mount(mux, path(o.MCP.Path, mcp.DefaultPath), mcp.NewHandler(srv, &o.MCP))
		if !o.MCP.DisableSSE {
			shapes.mount(mux, path(o.MCP.SSEPath, mcp.DefaultSSEPath), mcp.NewSSEHandler(srv, &o.MCP))
		}
	}
	if srv.Options().OAuth != nil {
		h := mcp.NewOAuthMetadataHandler(srv)
		shapes.mount(mux, runtime.ProtectedResourceMetadataPath, h)
		shapes.mount(mux, runtime.ProtectedResourceMetadataPath+"/", h)
	}
	if !o.Explorer.Disable {
		eo := o.Explorer
		eo.Links = explorer.Links{OXP: oxpAt, OpenAPI: openAPIAt, V1: v1At}
		shapes.mount(mux, explorerAt, explorer.NewHandler(srv, &eo))
	}
	if o.Explorer.Disable || explorerAt != "" {
		// A path no surface serves: the explorer's answer, which at the
		// root is its own catch-all.
		mux.Handle("/", http.HandlerFunc(explorer.NotFound))
	}
	shapes.mountBare(mux)
	var h http.Handler = mux
	if !o.Metrics.Disable {
		h = ops.CountRequests(srv, h)
	}
	return surface.WrapShaped(srv, shapes.of, h)
}

// shapes are the mounted surfaces by prefix: a request the guard refuses
// is answered in the shape of the surface whose prefix its path is under
// (the longest; for a surface that is one endpoint, its path alone), as
// that surface answers its own errors; under none, as the explorer does.
type shapes struct {
	at []mounted
	// bare are the surfaces' catch-alls for their bare prefixes,
	// registered last, where no route of another surface is.
	bare []surface.Route
}

// mounted is a surface and where it is.
type mounted struct {
	prefix string
	sf     *httpkit.Surface
	exact  bool // one endpoint: no catch-all under it
}

// mount registers a surface's routes on mux under prefix ("" for the
// root), so that a request is routed once, by mux, and reaches the
// surface's endpoint with its whole path. The surface's catch-all "/"
// answers the paths under its prefix that it does not serve, and the
// prefix itself, which ServeMux would otherwise redirect to prefix/
// (unless the surface has a page there, as the explorer does: a browser
// is sent to it); at the root it answers every path no surface serves.
func (s *shapes) mount(mux *http.ServeMux, prefix string, h http.Handler) {
	sh := h.(*surface.Handler)
	routes := sh.Routes()
	page := slices.ContainsFunc(routes, func(r surface.Route) bool { return r.Pattern == "/{$}" })
	catchAll := false
	for _, r := range routes {
		mux.Handle(prefix+r.Pattern, r.Handler)
		if r.Pattern == "/" {
			catchAll = true
			if prefix != "" && !page {
				s.bare = append(s.bare, surface.Route{Pattern: prefix, Handler: r.Handler})
			}
		}
	}
	s.at = append(s.at, mounted{prefix, sh.Surface(), !catchAll})
}

// mountBare registers the catch-alls of the bare prefixes that no route
// has taken (an endpoint mounted at another surface's prefix keeps it).
func (s *shapes) mountBare(mux *http.ServeMux) {
	for _, r := range s.bare {
		if _, pattern := mux.Handler(&http.Request{Method: http.MethodGet, Host: "", URL: &url.URL{Path: r.Pattern}}); pattern != r.Pattern {
			mux.Handle(r.Pattern, r.Handler)
		}
	}
}

// of is the surface whose shape answers a refusal of r.
func (s *shapes) of(r *http.Request) *httpkit.Surface {
	var best *httpkit.Surface
	n := -1
	for _, m := range s.at {
		under := r.URL.Path == m.prefix || !m.exact && (strings.HasPrefix(r.URL.Path, m.prefix+"/") || m.prefix == "")
		if under && len(m.prefix) > n {
			best, n = m.sf, len(m.prefix)
		}
	}
	return best
}

// prefix is a surface's mount point without its trailing slash: p, else
// def.
func prefix(p, def string) string {
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		p = strings.TrimSuffix(def, "/")
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}

// path is an endpoint's path: p, else def.
func path(p, def string) string {
	if p == "" {
		return def
	}
	return p
}
