package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolgen-go/toolgen/internal/typeschema"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// addResource serves r (runtime.NewServer checked it).
func (s *server) addResource(r *runtime.Resource) {
	name := r.Name
	if name == "" {
		name = r.URI
	}
	s.addSDKResource(&sdk.Resource{URI: r.URI, Name: name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size},
		s.resourceHandler(r.MIMEType, func(ctx context.Context, uri string) ([]runtime.ResourceContents, error) {
			return r.Read(ctx, uri, nil)
		}))
}

// addResourceTemplate serves t (runtime.NewServer checked it).
func (s *server) addResourceTemplate(t *runtime.ResourceTemplate) {
	name := t.Name
	if name == "" {
		name = t.URITemplate
	}
	s.addSDKTemplate(&sdk.ResourceTemplate{URITemplate: t.URITemplate, Name: name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType},
		s.resourceHandler(t.MIMEType, func(ctx context.Context, uri string) ([]runtime.ResourceContents, error) {
			vars, _ := t.Match(uri)
			return t.Read(ctx, uri, vars)
		}))
}

func (s *server) resourceHandler(mime string, read func(context.Context, string) ([]runtime.ResourceContents, error)) sdk.ResourceHandler {
	return func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		uri := req.Params.URI
		ctx, c, err := s.newCall(ctx, req, "resource", uri, nil, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		contents, err := read(ctx, uri)
		if ir, ok := c.inputRequired(ctx); ok {
			return &sdk.ReadResourceResult{InputRequests: ir.requests, RequestState: ir.state}, nil
		}
		if err := c.missingCapability(err); err != nil {
			return nil, err
		}
		if err != nil {
			if errors.Is(err, runtime.ErrResourceNotFound) {
				return nil, resourceNotFound(uri)
			}
			s.log.ErrorContext(ctx, "resource read failed", "uri", uri, "err", err)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		res := &sdk.ReadResourceResult{Contents: make([]*sdk.ResourceContents, len(contents))}
		for i, c := range contents {
			if c.URI == "" {
				c.URI = uri
			}
			if c.MIMEType == "" {
				c.MIMEType = mime
			}
			res.Contents[i] = &sdk.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Blob}
		}
		return res, nil
	}
}

// subscribe accepts a subscription to a resource the server has (a fixed
// one, a template's, or the registry's).
func (s *server) subscribe(ctx context.Context, req *sdk.SubscribeRequest) error {
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

func (s *server) complete(ctx context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
	p := req.Params
	cr := runtime.CompletionRequest{RefType: strings.TrimPrefix(p.Ref.Type, "ref/"), Argument: p.Argument.Name, Value: p.Argument.Value}
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
	return &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: vals, Total: len(vals)}}, nil
}

// The tool registry: SCHEME://tools lists every tool with its signature,
// SCHEME://tool/{name} describes one, for clients that browse resources
// rather than tools.

func (s *server) registryURI(path string) string {
	scheme := s.mopts.RegistryScheme
	if scheme == "" {
		scheme = "toolgen"
	}
	return scheme + "://" + path
}

// registryTool returns the tool name in a SCHEME://tool/{name} URI, or "".
func (s *server) registryTool(uri string) string {
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

func signatureOf(t *runtime.Tool) string {
	if t.Signature != "" {
		return t.Signature
	}
	return typeschema.Signature(t.Name, t.InputSchema, t.OutputSchema, "content")
}

func (s *server) addRegistry() {
	s.addSDKResource(&sdk.Resource{
		URI: s.registryURI("tools"), Name: "tools", Title: "Tools",
		Description: "Every tool of this server with its signature.", MIMEType: "application/json",
	}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		tools, err := s.core.VisibleTools(ctx)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
		}
		list := make([]registryEntry, len(tools))
		for i := range tools {
			list[i] = registryEntry{Name: tools[i].Name, Signature: signatureOf(&tools[i])}
		}
		return jsonResource(req.Params.URI, list)
	})
	s.addSDKTemplate(&sdk.ResourceTemplate{
		URITemplate: s.registryURI("tool/{name}"), Name: "tool", Title: "Tool",
		Description: "One tool: its signature, description, arguments and examples.", MIMEType: "application/json",
	}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		name := s.registryTool(req.Params.URI)
		t, err := s.core.Lookup(ctx, name)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
		}
		if t == nil || !s.core.Visible(ctx, t) {
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

func jsonResource(uri string, v any) (*sdk.ReadResourceResult, error) {
	b, err := httpkit.Marshal(v)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// resourceNotFound is MCP's "resource not found" error. (The SDK's own
// writes its data with Go's %q, which is not JSON for every URI.)
func resourceNotFound(uri string) *jsonrpc.Error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Resource not found", Data: data}
}
