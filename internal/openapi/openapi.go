// Package openapi writes the OpenAPI 3.1 document of a toolgen server's
// REST surfaces (the explorer's call path and /v1's for each tool), for
// the runtime's GET /openapi.json and the generator's -openapi flag alike.
package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// Tool is what the document says of a tool: its name, description, input
// schema, and output schema as MCP shapes it (an object; see
// typeschema.ObjectOutput), or nil.
type Tool struct {
	Name, Description string
	Input, Output     json.RawMessage
	// Version is the tool's version, given on each of its operations as
	// x-tool-version (OpenAPI has no field for an operation's version).
	Version string
}

// Options are the server's: its title and version, whether it has an auth
// hook, and where its surfaces are.
type Options struct {
	Title, Version string
	Auth           bool
	Explorer       bool
	ExplorerPrefix string
	V1             bool
	V1Prefix       string // e.g. "/v1"
	// ServerURL is the document's one server: the server's root as a URL
	// reference relative to where the document is served (see
	// [ServerURL]). Empty means ".", the root of a document served at
	// /openapi.json.
	ServerURL string
}

// ServerURL is the URL of the server's root relative to a document served
// at docPath (a path of the server: "/openapi.json", "/docs/api.json"):
// "." for a document at the root, ".." one directory down, and so on.
// A relative URL is resolved against the URL the document was fetched
// from, so it stays right behind a proxy, whatever the public host and
// scheme and whatever path prefix the proxy serves the server under
// (https://example.com/tools-api/openapi.json → https://example.com/tools-api);
// an absolute one ("/" or one built from the request's Host) would be
// wrong under a prefix, or name a host the client cannot reach.
func ServerURL(docPath string) string {
	if i := strings.Index(docPath, "/"); i > 0 {
		docPath = docPath[i:] // a ServeMux pattern may start with a host
	}
	dir := docPath[:max(strings.LastIndex(docPath, "/"), 0)]
	depth := strings.Count(dir, "/")
	if depth == 0 {
		return "."
	}
	return strings.TrimSuffix(strings.Repeat("../", depth), "/")
}

// unrolled is how many times a recursive type is unrolled: a schema in an
// OpenAPI document cannot refer to its own $defs with "#", which would
// point at the document.
const unrolled = 3

// Build returns the document for tools.
func Build(tools []Tool, o Options) (json.RawMessage, error) {
	serverURL := o.ServerURL
	if serverURL == "" {
		serverURL = "."
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": o.Title, "version": o.Version},
		"servers": []map[string]any{{"url": serverURL, "description": "This server: its root, relative to where this document is served."}},
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
	// Every call goes through the auth hook when the server has one, and
	// is open otherwise: an explicit empty requirement, not a missing one.
	security := []map[string][]string{}
	if o.Auth {
		comps["securitySchemes"] = map[string]any{"bearerAuth": map[string]any{"type": "http", "scheme": "bearer", "description": "The server's auth hook: a bearer token (or its own credentials)."}}
		security = []map[string][]string{{"bearerAuth": {}}}
	}
	doc["security"] = security
	tags := []map[string]any{}
	if o.Explorer {
		tags = append(tags, map[string]any{"name": "explorer", "description": "The Tool Explorer's execution endpoint: POST a tool's arguments, get its MCP result."})
	}
	if o.V1 {
		tags = append(tags, map[string]any{"name": "v1", "description": "qmcp's tools API: POST a tool's input, get its result and the id of the call's record in the invocation history."})
	}
	doc["tags"] = tags
	paths := doc["paths"].(map[string]any)
	errRef := func(name, desc string) map[string]any {
		return map[string]any{"description": desc, "content": jsonContent(map[string]any{"$ref": "#/components/schemas/" + name})}
	}
	for _, t := range tools {
		in, err := typeschema.Inline(t.Input, unrolled)
		if err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
		out := json.RawMessage(`{}`)
		if len(t.Output) > 0 {
			if out, err = typeschema.Inline(t.Output, unrolled); err != nil {
				return nil, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
			}
		}
		summary := firstLine(t.Description)
		if o.Explorer {
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
				"security":    security,
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
			if t.Version != "" {
				op["x-tool-version"] = t.Version
			}
			paths[strings.TrimSuffix(o.ExplorerPrefix, "/")+"/tools/"+t.Name+"/call"] = map[string]any{"post": op}
		}
		if o.V1 {
			op := map[string]any{
				"operationId": "v1_" + t.Name,
				"summary":     summary,
				"description": t.Description,
				"tags":        []string{"v1"},
				"security":    security,
				"requestBody": map[string]any{"required": true, "content": jsonContent(obj(map[string]any{"input": in, "correlation_id": str()}, "input"))},
				"responses": map[string]any{
					"200": map[string]any{"description": "The result, or the error of a call that failed (invalid input included), with the invocation's id in history.",
						"content": jsonContent(obj(map[string]any{"result": out, "error": map[string]any{"type": []string{"string", "null"}}, "invocation_id": str()}, "result", "error", "invocation_id"))},
					"401": errRef("V1Error", "The auth hook refused the request."),
					"404": errRef("V1Error", "No such tool."),
					"422": errRef("V1Error", "The body is not an object with input."),
				},
			}
			if t.Version != "" {
				op["x-tool-version"] = t.Version
			}
			paths[strings.TrimSuffix(o.V1Prefix, "/")+"/tools/"+t.Name] = map[string]any{"post": op}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

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
