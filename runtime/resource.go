package runtime

import (
	"context"
	"errors"

	"github.com/yosida95/uritemplate/v3"
)

// Resource is an MCP resource at a fixed URI.
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	Size        int64
	// Read returns the resource's contents: text or binary (Blob).
	Read ResourceHandler
}

// ResourceTemplate is a family of MCP resources named by an RFC 6570 URI
// template, such as "file:///logs/{day}".
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MIMEType    string
	// Read returns the contents of the resource at uri, whose template
	// variables are in vars.
	Read ResourceHandler
}

// ResourceHandler reads a resource. vars holds a template's variables (nil
// for a fixed resource). A content's empty URI or MIME type is filled in
// from the request and the resource. Return [ErrResourceNotFound] (wrapped
// or not) for a resource that does not exist.
type ResourceHandler func(ctx context.Context, uri string, vars map[string]string) ([]ResourceContents, error)

// ErrResourceNotFound marks a read of a resource that does not exist.
var ErrResourceNotFound = errors.New("resource not found")

// Match reports whether uri matches the template, with the values of its
// variables.
func (t *ResourceTemplate) Match(uri string) (map[string]string, bool) {
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil || tmpl.Match(uri) == nil {
		return nil, false
	}
	return templateVars(tmpl, uri), true
}

// CompletionRequest asks for completions of an argument's value
// (Options.Complete).
type CompletionRequest struct {
	// RefType names what is completed: "prompt" with the prompt's name in
	// Ref, or "resource" with the resource template's URI template.
	RefType, Ref string
	// Argument is the argument's name and Value what was typed so far.
	Argument, Value string
	// Context holds the arguments already given.
	Context map[string]string
}

func templateVars(t *uritemplate.Template, uri string) map[string]string {
	vals := t.Match(uri)
	vars := make(map[string]string, len(vals))
	for k, v := range vals {
		vars[k] = v.String()
	}
	return vars
}

// The tool registry: SCHEME://tools lists every tool with its signature,
// SCHEME://tool/{name} describes one, for clients that browse resources
// rather than tools.

// FindResource finds what reads uri: a resource of that URI
// (Options.Resources), else the first template that matches it
// (Options.ResourceTemplates). The function it returns reads it, each
// content's URI and MIME type filled in when the reader left them out;
// nil when nothing serves uri.
func (s *Server) FindResource(uri string) func(context.Context) ([]ResourceContents, error) {
	o := &s.opts
	read := func(h ResourceHandler, vars map[string]string, mime string) func(context.Context) ([]ResourceContents, error) {
		return func(ctx context.Context) ([]ResourceContents, error) {
			contents, err := h(ctx, uri, vars)
			if err != nil {
				return nil, err
			}
			for i := range contents {
				if contents[i].URI == "" {
					contents[i].URI = uri
				}
				if contents[i].MIMEType == "" {
					contents[i].MIMEType = mime
				}
			}
			return contents, nil
		}
	}
	for i := range o.Resources {
		if o.Resources[i].URI == uri {
			return read(o.Resources[i].Read, nil, o.Resources[i].MIMEType)
		}
	}
	for i := range o.ResourceTemplates {
		t, err := uritemplate.New(o.ResourceTemplates[i].URITemplate)
		if err != nil {
			continue
		}
		if t.Match(uri) != nil {
			return read(o.ResourceTemplates[i].Read, templateVars(t, uri), o.ResourceTemplates[i].MIMEType)
		}
	}
	return nil
}
