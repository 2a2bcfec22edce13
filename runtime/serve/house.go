package serve

import (
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/legacy"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
	"github.com/toolgen-go/toolgen/runtime/oxp"
)

// Options configures the handler [NewHandler] builds: one field per
// surface, each that surface's own options, whose Disable and Prefix say
// whether and where NewHandler mounts it. The zero value (and nil) mounts
// every surface at its default path.
type Options struct {
	// OXP is the OXP 1.0 surface, at /oxp by default.
	OXP oxp.Options
}

// NewHandler returns every surface of srv as one handler, each at its
// default path (or the one its options give): the Tool Explorer at /
// with its REST protocol under /tools, MCP at /mcp (and /sse), OXP under
// /oxp, qmcp's /v1, and /health, /metrics and /openapi.json. A nil opts
// means defaults. It is what [Main] serves; a program that wants one
// surface mounts that surface's own handler instead (mcp.NewHandler,
// oxp.NewHandler).
//
// The surfaces not yet in packages of their own (issue #40 moves them one
// at a time) are served by srv's own handler, mounted at the root.
func NewHandler(srv *runtime.Server, opts *Options) http.Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	mux := http.NewServeMux()
	if !o.OXP.Disable {
		p := prefix(o.OXP.Prefix, oxp.DefaultPrefix)
		mux.Handle(p+"/", http.StripPrefix(p, oxp.NewHandler(srv, &o.OXP)))
	}
	mux.Handle("/", legacy.Handler(srv))
	return surface.Wrap(srv, mux)
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
