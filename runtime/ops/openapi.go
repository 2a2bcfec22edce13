package ops

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/internal/openapi"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// GET /openapi.json: an OpenAPI 3.1 document of the REST surfaces, for
// Swagger UI and client generators: each tool's explorer call path and
// /v1 path with its own input and output schemas, the auth scheme, and the
// error bodies. Schemas are inlined (no $ref into $defs), since a "#" in
// a schema inside the document would point at the document.
//
// It declares what the server does, so that linters (Redocly's
// recommended rules, Spectral's) find nothing to add: one server, the
// server's root as a URL relative to the document's own (see
// [openapi.ServerURL]); security on the document and on every operation,
// the bearer scheme when there is an auth hook and an explicit [] (open)
// when there is none; and a top-level tag for each surface the
// operations are tagged with (explorer, v1).

// DefaultOpenAPIPath is where serve.NewHandler serves the document unless
// its options move it.
const DefaultOpenAPIPath = "/openapi.json"

// OpenAPIOptions says where the surfaces the document describes are
// mounted; serve.NewHandler fills it in.
type OpenAPIOptions struct {
	// Path is where the document itself is served (default
	// [DefaultOpenAPIPath]): its server URL is the root relative to it.
	Path string
	// Explorer is where the Tool Explorer's REST protocol is mounted
	// ("/" or "" for the root, "/ui"); NoExplorer leaves it out.
	Explorer   string
	NoExplorer bool
	// V1 is where qmcp's /v1 API is mounted ("/v1"); "" leaves it out.
	V1 string
}

// OpenAPI returns the OpenAPI 3.1 document of srv's REST surfaces for the
// tools the caller ctx names may see. A nil opts describes the explorer
// at the root and no /v1.
func OpenAPI(ctx context.Context, srv *runtime.Server, opts *OpenAPIOptions) (json.RawMessage, error) {
	var o OpenAPIOptions
	if opts != nil {
		o = *opts
	}
	tools, err := srv.VisibleTools(ctx)
	if err != nil {
		return nil, err
	}
	so := srv.Options()
	// The document's version is what the program set (Options.Version),
	// not the binary's build version, so that toolgen -openapi, which
	// sees only the source, writes the same document.
	version := so.Version
	if version == "" {
		version = "0.0.0"
	}
	title := so.Title
	if title == "" {
		title = runtime.DefaultTitle
	}
	in := make([]openapi.Tool, 0, len(tools))
	for i := range tools {
		t := &tools[i]
		in = append(in, openapi.Tool{Name: t.Name, Description: t.Description, Input: runtime.EffectiveInputSchema(t), Output: srv.OutputSchema(t), Version: srv.ToolVersion(t)})
	}
	path := o.Path
	if path == "" {
		path = DefaultOpenAPIPath
	}
	return openapi.Build(in, openapi.Options{
		Title:          title,
		Version:        version,
		Auth:           so.AuthHook != nil,
		Explorer:       !o.NoExplorer,
		ExplorerPrefix: strings.TrimSuffix(o.Explorer, "/"),
		V1:             o.V1 != "",
		V1Prefix:       o.V1,
		ServerURL:      openapi.ServerURL(path),
	})
}

// OpenAPIHandler serves [OpenAPI]'s document: like the explorer's
// listing, each caller sees the tools it may call (the auth hook runs for
// a caller that sent credentials).
func OpenAPIHandler(srv *runtime.Server, opts *OpenAPIOptions) http.Handler {
	var o OpenAPIOptions
	if opts != nil {
		o = *opts
	}
	return get(srv, func(w http.ResponseWriter, r *http.Request) {
		doc, err := OpenAPI(r.Context(), srv, &o)
		if err != nil {
			httpkit.WriteError(w, http.StatusInternalServerError, httpkit.MsgProviderFailed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(doc)
	}, true)
}
