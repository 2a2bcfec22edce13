package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolgen-go/toolgen/internal/typeschema"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
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

func (s *Server) addResource(r *Resource) {
	if r.URI == "" || r.Read == nil {
		panic(fmt.Sprintf("runtime.NewServer: resource %q without a URI or a Read function", r.Name))
	}
	name := r.Name
	if name == "" {
		name = r.URI
	}
	s.mcp.srv.AddResource(&mcp.Resource{URI: r.URI, Name: name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size},
		s.resourceHandler(r.MIMEType, func(ctx context.Context, uri string) ([]ResourceContents, error) { return r.Read(ctx, uri, nil) }))
}

func (s *Server) addResourceTemplate(t *ResourceTemplate) {
	tmpl, err := uritemplate.New(t.URITemplate)
	if err != nil || t.Read == nil {
		panic(fmt.Sprintf("runtime.NewServer: resource template %q: invalid template or no Read function (%v)", t.URITemplate, err))
	}
	name := t.Name
	if name == "" {
		name = t.URITemplate
	}
	s.mcp.srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: t.URITemplate, Name: name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType},
		s.resourceHandler(t.MIMEType, func(ctx context.Context, uri string) ([]ResourceContents, error) {
			return t.Read(ctx, uri, templateVars(tmpl, uri))
		}))
}

func templateVars(t *uritemplate.Template, uri string) map[string]string {
	vals := t.Match(uri)
	vars := make(map[string]string, len(vals))
	for k, v := range vals {
		vars[k] = v.String()
	}
	return vars
}

func (s *Server) resourceHandler(mime string, read func(context.Context, string) ([]ResourceContents, error)) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		ctx, c, err := s.newCall(ctx, req, "resource", uri, nil, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		contents, err := read(ctx, uri)
		if ir, ok := c.inputRequired(ctx); ok {
			return &mcp.ReadResourceResult{InputRequests: ir.requests, RequestState: ir.state}, nil
		}
		if err := c.missingCapability(err); err != nil {
			return nil, err
		}
		if err != nil {
			if errors.Is(err, ErrResourceNotFound) {
				return nil, resourceNotFound(uri)
			}
			s.log.ErrorContext(ctx, "resource read failed", "uri", uri, "err", err)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		res := &mcp.ReadResourceResult{Contents: make([]*mcp.ResourceContents, len(contents))}
		for i, c := range contents {
			if c.URI == "" {
				c.URI = uri
			}
			if c.MIMEType == "" {
				c.MIMEType = mime
			}
			res.Contents[i] = &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Blob}
		}
		return res, nil
	}
}

// subscribe accepts a subscription to a resource the server has (a fixed
// one, a template's, or the registry's).
func (s *Server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	for _, r := range s.opts.Resources {
		if r.URI == uri {
			return nil
		}
	}
	for _, t := range s.opts.ResourceTemplates {
		if tmpl, err := uritemplate.New(t.URITemplate); err == nil && tmpl.Regexp().MatchString(uri) {
			return nil
		}
	}
	if s.registryTool(uri) != "" || uri == s.registryURI("tools") {
		return nil
	}
	return resourceNotFound(uri)
}

func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	cr := CompletionRequest{RefType: strings.TrimPrefix(p.Ref.Type, "ref/"), Argument: p.Argument.Name, Value: p.Argument.Value}
	if cr.RefType == "prompt" {
		cr.Ref = p.Ref.Name
	} else {
		cr.Ref = p.Ref.URI
	}
	if p.Context != nil {
		cr.Context = p.Context.Arguments
	}
	vals, err := s.opts.Complete(ctx, cr)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	if vals == nil {
		vals = []string{}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: vals, Total: len(vals)}}, nil
}

// The tool registry: SCHEME://tools lists every tool with its signature,
// SCHEME://tool/{name} describes one, for clients that browse resources
// rather than tools.

func (s *Server) registryURI(path string) string {
	scheme := s.opts.MCP.RegistryScheme
	if scheme == "" {
		scheme = "toolgen"
	}
	return scheme + "://" + path
}

// registryTool returns the tool name in a SCHEME://tool/{name} URI, or "".
func (s *Server) registryTool(uri string) string {
	name, ok := strings.CutPrefix(uri, s.registryURI("tool/"))
	if !ok || name == "" || strings.Contains(name, "/") {
		return ""
	}
	return name
}

type registryEntry struct {
	Name      string `json:"name"`
	Signature string `json:"signature"`
}

type registryTool struct {
	Name        string                `json:"name"`
	Signature   string                `json:"signature"`
	Description string                `json:"description"`
	Args        []typeschema.Argument `json:"args"`
	Examples    []json.RawMessage     `json:"examples"`
}

func signatureOf(t *Tool) string {
	if t.Signature != "" {
		return t.Signature
	}
	return typeschema.Signature(t.Name, t.InputSchema, t.OutputSchema, "content")
}

func (s *Server) addRegistry() {
	s.mcp.srv.AddResource(&mcp.Resource{
		URI: s.registryURI("tools"), Name: "tools", Title: "Tools",
		Description: "Every tool of this server with its signature.", MIMEType: "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		tools, err := s.VisibleTools(ctx)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
		}
		list := make([]registryEntry, len(tools))
		for i := range tools {
			list[i] = registryEntry{Name: tools[i].Name, Signature: signatureOf(&tools[i])}
		}
		return jsonResource(req.Params.URI, list)
	})
	s.mcp.srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: s.registryURI("tool/{name}"), Name: "tool", Title: "Tool",
		Description: "One tool: its signature, description, arguments and examples.", MIMEType: "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		name := s.registryTool(req.Params.URI)
		t, err := s.Lookup(ctx, name)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
		}
		if t == nil || !s.Visible(ctx, t) {
			e := resourceNotFound(req.Params.URI)
			e.Message = "Tool not found: " + name
			return nil, e
		}
		examples := t.Examples
		if examples == nil {
			examples = []json.RawMessage{}
		}
		return jsonResource(req.Params.URI, registryTool{
			Name: t.Name, Signature: signatureOf(t), Description: t.Description,
			Args: typeschema.Arguments(t.InputSchema), Examples: examples,
		})
	})
}

func jsonResource(uri string, v any) (*mcp.ReadResourceResult, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// resourceNotFound is MCP's "resource not found" error. (The SDK's own
// writes its data with Go's %q, which is not JSON for every URI.)
func resourceNotFound(uri string) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found", Data: data}
}

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
