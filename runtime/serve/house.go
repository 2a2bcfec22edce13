package serve

import (
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
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
// explorer.NewHandler, ops.HealthHandler, ...). A path no surface serves
// is answered 404 {"error": "Not found: PATH"}.
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
	// Where each surface is, "" for nowhere: the explorer page and the
	// OpenAPI document link to them.
	var oxpAt, v1At, openAPIAt string
	if !o.OXP.Disable {
		oxpAt = prefix(o.OXP.Prefix, oxp.DefaultPrefix)
		mount(mux, oxpAt, oxp.NewHandler(srv, &o.OXP))
	}
	if !o.V1.Disable {
		v1At = prefix(o.V1.Prefix, qmcp.DefaultPrefix)
		mount(mux, v1At, qmcp.NewHandler(srv, &o.V1))
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
		mount(mux, path(o.MCP.Path, mcp.DefaultPath), mcp.NewHandler(srv, &o.MCP))
		if !o.MCP.DisableSSE {
			mount(mux, path(o.MCP.SSEPath, mcp.DefaultSSEPath), mcp.NewSSEHandler(srv, &o.MCP))
		}
	}
	if srv.Options().OAuth != nil {
		h := mcp.NewOAuthMetadataHandler(srv)
		mount(mux, runtime.ProtectedResourceMetadataPath, h)
		mount(mux, runtime.ProtectedResourceMetadataPath+"/", h)
	}
	notFound := http.HandlerFunc(explorer.NotFound)
	switch {
	case o.Explorer.Disable:
		mux.Handle("/", notFound)
	default:
		eo := o.Explorer
		eo.Links = explorer.Links{OXP: oxpAt, OpenAPI: openAPIAt, V1: v1At}
		mount(mux, explorerAt, explorer.NewHandler(srv, &eo))
		mux.Handle("/", notFound)
	}
	var h http.Handler = mux
	if !o.Metrics.Disable {
		h = ops.CountRequests(srv, h)
	}
	return surface.Wrap(srv, h)
}

// mount registers a surface's routes on mux under prefix ("" for the
// root), so that a request is routed once, by mux, and reaches the
// surface's endpoint with its whole path.
func mount(mux *http.ServeMux, prefix string, h http.Handler) {
	for _, r := range h.(*surface.Handler).Routes() {
		mux.Handle(prefix+r.Pattern, r.Handler)
	}
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
