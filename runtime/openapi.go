package runtime

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/toolgen-go/toolgen/internal/openapi"
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

// defaultOpenAPIPath is where the document is served by default.
const defaultOpenAPIPath = "/openapi.json"

// OpenAPI returns the OpenAPI 3.1 document of the server's REST surfaces
// for the tools the provider gives in ctx.
func (s *Server) OpenAPI(ctx context.Context) (json.RawMessage, error) {
	tools, err := s.VisibleTools(ctx)
	if err != nil {
		return nil, err
	}
	// The document's version is what the program set (MCPOptions.Version),
	// not the binary's build version, so that toolgen -openapi, which
	// sees only the source, writes the same document.
	version := s.opts.Version
	if version == "" {
		version = "0.0.0"
	}
	in := make([]openapi.Tool, 0, len(tools))
	for i := range tools {
		t := &tools[i]
		in = append(in, openapi.Tool{Name: t.Name, Description: t.Description, Input: EffectiveInputSchema(t), Output: s.compiled.get(t).output.schema, Version: s.ToolVersion(t)})
	}
	return openapi.Build(in, openapi.Options{
		Title:          pageTitle(&s.opts),
		Version:        version,
		Auth:           s.opts.AuthHook != nil,
		Explorer:       !s.opts.Explorer.Disable,
		ExplorerPrefix: s.opts.Explorer.Prefix,
		V1:             !s.opts.V1.Disable,
		V1Prefix:       pathOr(s.opts.V1.Prefix, defaultV1Prefix),
		ServerURL:      openapi.ServerURL(pathOr(s.opts.OpenAPI.Path, defaultOpenAPIPath)),
	})
}

func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	doc, err := s.OpenAPI(r.Context())
	if err != nil {
		httpkit.WriteError(w, http.StatusInternalServerError, httpkit.MsgProviderFailed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(doc)
}
