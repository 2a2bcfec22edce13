package gen

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/toolgen-go/toolgen/internal/openapi"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// OpenAPI writes the OpenAPI 3.1 document of the generated tools' REST
// surfaces (toolgen -openapi): the document a server of those tools
// answers at GET /openapi.json, built by the same code
// (internal/openapi) from the generator's model instead of the running
// server's tools.

// DefaultOpenAPITitle is the document's title unless told otherwise: the
// runtime's default Options.Title (runtime.DefaultTitle), which a server
// without a title of its own puts there.
const DefaultOpenAPITitle = "MCP Tool Explorer"

// DefaultOpenAPIVersion is the document's version unless told otherwise:
// the one a server puts there when its Options.Version is empty.
const DefaultOpenAPIVersion = "0.0.0"

// OpenAPIConfig says what the document describes besides the tools. Each
// field stands for the runtime.Options of the server it describes; the
// zero value is a server started with nil options.
type OpenAPIConfig struct {
	// Path is the file to write, relative to Config.Dir.
	Path string
	// Title is info.title (a server's Options.Title). Empty means
	// DefaultOpenAPITitle.
	Title string
	// Version is info.version (a server's Options.Version). Empty
	// means DefaultOpenAPIVersion.
	Version string
	// Auth declares the bearer scheme on every call, as a server with an
	// Options.AuthHook does.
	Auth bool
}

// openAPIFile builds the document of every tool of units. The explorer's
// call paths and /v1's are at their default prefixes (/tools/{name}/call,
// /v1/tools/{name}); a tool's output schema is shaped as the server shapes
// it (typeschema.ObjectOutput). Tool names must be unique across the
// units, as in one server.
func (g *generator) openAPIFile(units []*unit, oc *OpenAPIConfig) *File {
	title, version := oc.Title, oc.Version
	if title == "" {
		title = DefaultOpenAPITitle
	}
	if version == "" {
		version = DefaultOpenAPIVersion
	}
	var tools []openapi.Tool
	first := map[string]*tool{}
	for _, u := range units {
		for _, t := range u.tools {
			if other := first[t.name]; other != nil {
				g.errs.add(t.pos, "-openapi: tool %s is also at %s: a server's tools (and the document's paths) need unique names", t.name, g.errs.rel(other.pos))
				continue
			}
			first[t.name] = t
			out, _ := typeschema.ObjectOutput(t.output)
			version := t.version
			if version == "" {
				version = "1.0.0" // the server's default (runtime.Tool.Version)
			}
			tools = append(tools, openapi.Tool{Name: t.name, Description: t.description, Input: t.input, Output: out, Version: version})
		}
	}
	doc, err := openapi.Build(tools, openapi.Options{
		Title:    title,
		Version:  version,
		Auth:     oc.Auth,
		Explorer: true,
		V1:       true,
		V1Prefix: "/v1",
	})
	if err != nil {
		g.errs.add(tokenPosition(""), "-openapi: %v", err)
		return nil
	}
	// Indented for review; the same JSON as the server's once compacted.
	var b bytes.Buffer
	if err := json.Indent(&b, doc, "", "  "); err != nil {
		g.errs.add(tokenPosition(""), "-openapi: %v", err)
		return nil
	}
	b.WriteByte('\n')
	path := oc.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(g.cfg.Dir, path)
	}
	return &File{Path: path, Content: b.Bytes()}
}
