package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// GET /openapi.json: an OpenAPI 3.1 document of the REST surfaces, for
// Swagger UI and client generators: each tool's explorer call path and
// /v1 path with its own input and output schemas, the auth scheme, and the
// error bodies. Schemas are inlined (no $ref into $defs), since a "#" in
// a schema inside the document would point at the document.

// DefaultOpenAPIPath is where the document is served by default.
const DefaultOpenAPIPath = "/openapi.json"

// OpenAPI returns the OpenAPI 3.1 document of the server's REST surfaces
// for the tools the provider gives in ctx.
func (s *Server) OpenAPI(ctx context.Context) (json.RawMessage, error) {
	tools, err := s.tools(ctx)
	if err != nil {
		return nil, err
	}
	version := s.opts.MCP.Version
	if version == "" {
		version = "0.0.0"
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": s.opts.Title, "version": version},
		"paths":   map[string]any{},
		"components": map[string]any{
			"schemas": map[string]any{
				"ExplorerError": obj(map[string]any{"error": str()}, "error"),
				"V1Error":       obj(map[string]any{"detail": str()}, "detail"),
				"Content": map[string]any{
					"type":        "object",
					"description": "An MCP content block: text, image, audio, resource or resource_link.",
					"properties":  map[string]any{"type": map[string]any{"enum": []string{"text", "image", "audio", "resource", "resource_link"}}},
					"required":    []string{"type"},
				},
			},
		},
	}
	comps := doc["components"].(map[string]any)
	var security []map[string][]string
	if s.opts.AuthHook != nil {
		comps["securitySchemes"] = map[string]any{"bearerAuth": map[string]any{"type": "http", "scheme": "bearer", "description": "The server's auth hook: a bearer token (or its own credentials)."}}
		security = []map[string][]string{{"bearerAuth": {}}}
	}
	paths := doc["paths"].(map[string]any)
	errRef := func(name, desc string) map[string]any {
		return map[string]any{"description": desc, "content": jsonContent(map[string]any{"$ref": "#/components/schemas/" + name})}
	}
	for i := range tools {
		t := &tools[i]
		in, err := typeschema.Inline(inputSchema(t), oxpUnrolled)
		if err != nil {
			continue
		}
		out := json.RawMessage(`{}`)
		if sh := s.compiled.get(t).output.schema; sh != nil {
			if out, err = typeschema.Inline(sh, oxpUnrolled); err != nil {
				continue
			}
		}
		summary := firstLine(t.Description)
		if !s.opts.Explorer.Disable {
			result := obj(map[string]any{
				"content":           map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/Content"}},
				"structuredContent": out,
				"isError":           map[string]any{"type": "boolean"},
				"_meta":             obj(map[string]any{"_trace_id": str()}),
			}, "content", "isError")
			op := map[string]any{
				"operationId": "call_" + t.Name,
				"summary":     summary,
				"description": t.Description,
				"tags":        []string{"explorer"},
				"requestBody": map[string]any{"required": true, "content": jsonContent(in)},
				"responses": map[string]any{
					"200": map[string]any{"description": "The tool's result.", "content": jsonContent(result)},
					"400": map[string]any{"description": "Invalid arguments: an isError result naming each failing path.", "content": jsonContent(result)},
					"401": errRef("ExplorerError", "The auth hook refused the request."),
					"403": errRef("ExplorerError", "Tool execution is disabled (AllowExecute is off), or a cross-origin browser request."),
					"404": errRef("ExplorerError", "No such tool."),
					"413": errRef("ExplorerError", "The body is over the limit."),
					"500": map[string]any{"description": "The tool failed: an isError result.", "content": jsonContent(result)},
					"504": map[string]any{"description": "The call timed out.", "content": jsonContent(result)},
				},
			}
			if security != nil {
				op["security"] = security
			}
			paths[explorerPath(s.opts.Explorer.Prefix)+"/tools/"+t.Name+"/call"] = map[string]any{"post": op}
		}
		if !s.opts.V1.Disable {
			op := map[string]any{
				"operationId": "v1_" + t.Name,
				"summary":     summary,
				"description": t.Description,
				"tags":        []string{"v1"},
				"requestBody": map[string]any{"required": true, "content": jsonContent(obj(map[string]any{"input": in, "correlation_id": str()}, "input"))},
				"responses": map[string]any{
					"200": map[string]any{"description": "The result, or the error of a call that failed (invalid input included), with the invocation's id in history.",
						"content": jsonContent(obj(map[string]any{"result": out, "error": map[string]any{"type": []string{"string", "null"}}, "invocation_id": str()}, "result", "error", "invocation_id"))},
					"401": errRef("V1Error", "The auth hook refused the request."),
					"404": errRef("V1Error", "No such tool."),
					"422": errRef("V1Error", "The body is not an object with input."),
				},
			}
			if security != nil {
				op["security"] = security
			}
			paths[strings.TrimSuffix(pathOr(s.opts.V1.Prefix, DefaultV1Prefix), "/")+"/tools/"+t.Name] = map[string]any{"post": op}
		}
	}
	return marshal(doc)
}

func explorerPath(prefix string) string { return strings.TrimSuffix(prefix, "/") }

func str() map[string]any { return map[string]any{"type": "string"} }

func obj(props map[string]any, required ...string) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func jsonContent(schema any) map[string]any {
	return map[string]any{"application/json": map[string]any{"schema": schema}}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}

func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	doc, err := s.OpenAPI(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, msgProviderFailed)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(doc)
}
