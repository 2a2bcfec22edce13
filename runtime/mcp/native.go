package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/jsonwrite"
)

// MCP 2026-07-28 answered natively, beyond tools/call and tools/list
// (mcpfast.go): the prompts, the resources and their templates, and
// completion. A request of that revision stands alone, so each is one
// JSON-RPC request in and one response out, served from toolgen's own
// registries (what newServer gave the SDK, kept here too) by the same
// handlers the SDK would call, with the results marked for the revision
// as the SDK marks them. Like the rest of the fast path, only what is sure
// to be answered exactly as the SDK answers is answered here: a name the
// Mcp-Name header does not carry as it is, and anything unusual in the
// body go to the SDK. The lists page as the SDK pages them, with cursors
// of the SDK's own form (sdkPage).
// TestMCPFastPathSameAnswers and FuzzMCPFastPath hold the two to the same
// answers.

// nativeMethods are the methods answered here, with the members of params
// each may have besides _meta.
var nativeMethods = map[string][]string{
	"prompts/list":             {"cursor"},
	"resources/list":           {"cursor"},
	"resources/templates/list": {"cursor"},
	"prompts/get":              {"name", "arguments", "inputResponses", "requestState"},
	"resources/read":           {"uri", "inputResponses", "requestState"},
	"completion/complete":      {"ref", "argument", "context"},
	"server/discover":          nil,
	"subscriptions/listen":     {"notifications"}, // listen.go
}

// member is a member of a request's params, raw.
type member struct {
	key string
	val []byte
}

// registeredResource is a resource given to the SDK, with its handler.
type registeredResource struct {
	res *sdk.Resource
	h   sdk.ResourceHandler
}

// registeredTemplate is a resource template given to the SDK, with its
// handler and the template parsed once.
type registeredTemplate struct {
	tmpl *sdk.ResourceTemplate
	h    sdk.ResourceHandler
	re   *uritemplate.Template
}

// addSDKResource gives the SDK a resource, and keeps it for the native
// path.
func (s *server) addSDKResource(r *sdk.Resource, h sdk.ResourceHandler) {
	s.sdkSrv.AddResource(r, h)
	s.registry.mu.Lock()
	defer s.registry.mu.Unlock()
	s.registry.resources = append(s.registry.resources, registeredResource{r, h})
}

// addSDKTemplate gives the SDK a resource template, and keeps it for the
// native path.
func (s *server) addSDKTemplate(t *sdk.ResourceTemplate, h sdk.ResourceHandler) {
	s.sdkSrv.AddResourceTemplate(t, h) // panics on a template that does not parse, as before
	re, _ := uritemplate.New(t.URITemplate)
	s.registry.mu.Lock()
	defer s.registry.mu.Unlock()
	s.registry.templates = append(s.registry.templates, registeredTemplate{t, h, re})
}

// nativeRequest is what serveNative makes of a request: the SDK's request
// value (its handlers' argument), the name a tracer is told, and the
// answer.
type nativeRequest struct {
	req   sdk.Request
	name  string
	serve func(ctx context.Context) (any, error)
}

// serveNative answers fr, a request of one of nativeMethods, and reports
// whether it did; false leaves it, unanswered, to the SDK.
//
// With streams (the request's _meta names a progress token or a log
// level) what a prompt's or a resource's handler reports goes to the
// client as events before the answer, as for a tools/call (stream.go).
func (s *server) serveNative(rq *httpkit.Request, fr *fastRequest, meta sdk.Meta, extra *sdk.RequestExtra, streams bool) bool {
	nr, ok := s.nativeRequest(rq, fr, meta, extra)
	if !ok || !s.fastMetaDecodes(fr.meta, nr.req.(metaRequest)) {
		return false
	}
	s.fast.answered.Add(1)
	ctx := rq.Ctx
	var stream *eventStream
	if streams {
		level, _ := meta[metaLogLevel].(string)
		stream = &eventStream{w: rq.W, drop: s.mopts.JSONResponse, level: level}
		// The handler's signature is the SDK's (ctx, request): the
		// stream reaches the call it makes (newCall) in ctx.
		ctx = context.WithValue(ctx, streamKey{}, stream)
	}
	ctx, end := s.traceRequest(ctx, string(fr.method), nr.name, nr.req)
	res, err := nr.serve(ctx)
	end(err)
	if err != nil {
		s.fastReply(rq.W, stream, fr.id, nil, err)
		return true
	}
	s.fastReply(rq.W, stream, fr.id, s.markNative(res), nil)
	return true
}

// streamKey is where ctx carries a native request's event stream to the
// call its prompt or resource handler makes.
type streamKey struct{}

// metaRequest is what fastMetaDecodes asks of a request.
type metaRequest interface {
	ClientCapabilities() *sdk.ClientCapabilities
	ClientInfo() *sdk.Implementation
	GetParams() sdk.Params
}

// nativeRequest reads fr's params into the SDK's request, and says how to
// answer it; false for a request the SDK answers.
func (s *server) nativeRequest(rq *httpkit.Request, fr *fastRequest, meta sdk.Meta, extra *sdk.RequestExtra) (nativeRequest, bool) {
	decode := func(p sdk.Params) bool {
		// The members were checked (known, once each, unescaped keys):
		// encoding/json reads them as the SDK does.
		if json.Unmarshal(fr.params, p) != nil {
			return false
		}
		p.SetMeta(meta)
		return true
	}
	// plain reads the one string member key (written without escapes) of
	// params that have no other but arguments, which argsOK reads: what
	// nearly every prompts/get and resources/read is, read without
	// decoding params whole. false: decode them.
	plain := func(key string, dst *string, args *map[string]string) bool {
		for _, m := range fr.members {
			switch {
			case m.key == key:
				if !plainString(m.val) {
					return false
				}
				*dst = string(m.val[1 : len(m.val)-1])
			case m.key == "arguments" && args != nil:
				if json.Unmarshal(m.val, args) != nil {
					return false
				}
			default:
				return false
			}
		}
		return *dst != ""
	}
	header := rq.R.Header.Get("Mcp-Name")
	switch string(fr.method) {
	case "prompts/list":
		cursor, ok := listCursor(fr)
		if !ok {
			return nativeRequest{}, false
		}
		r := &sdk.ListPromptsRequest{Params: &sdk.ListPromptsParams{Meta: meta, Cursor: cursor}, Extra: extra}
		return nativeRequest{req: r, serve: func(ctx context.Context) (any, error) { return s.listPrompts(ctx, r) }}, true
	case "resources/list":
		cursor, ok := listCursor(fr)
		if !ok {
			return nativeRequest{}, false
		}
		r := &sdk.ListResourcesRequest{Params: &sdk.ListResourcesParams{Meta: meta, Cursor: cursor}, Extra: extra}
		return nativeRequest{req: r, serve: func(ctx context.Context) (any, error) { return s.listResources(ctx, r) }}, true
	case "resources/templates/list":
		cursor, ok := listCursor(fr)
		if !ok {
			return nativeRequest{}, false
		}
		r := &sdk.ListResourceTemplatesRequest{Params: &sdk.ListResourceTemplatesParams{Meta: meta, Cursor: cursor}, Extra: extra}
		return nativeRequest{req: r, serve: func(ctx context.Context) (any, error) { return s.listTemplates(ctx, r) }}, true
	case "prompts/get":
		p := &sdk.GetPromptParams{Meta: meta}
		if !plain("name", &p.Name, &p.Arguments) {
			*p = sdk.GetPromptParams{}
			if !decode(p) {
				return nativeRequest{}, false
			}
		}
		if p.Name == "" || header != p.Name {
			return nativeRequest{}, false
		}
		r := &sdk.GetPromptRequest{Params: p, Extra: extra}
		return nativeRequest{req: r, name: p.Name, serve: func(ctx context.Context) (any, error) { return s.getPrompt(ctx, r) }}, true
	case "resources/read":
		p := &sdk.ReadResourceParams{Meta: meta}
		if !plain("uri", &p.URI, nil) {
			*p = sdk.ReadResourceParams{}
			if !decode(p) {
				return nativeRequest{}, false
			}
		}
		if p.URI == "" || header != p.URI {
			return nativeRequest{}, false
		}
		r := &sdk.ReadResourceRequest{Params: p, Extra: extra}
		return nativeRequest{req: r, name: p.URI, serve: func(ctx context.Context) (any, error) { return s.readResource(ctx, r) }}, true
	case "server/discover":
		r := &sdk.ServerRequest[*sdk.DiscoverParams]{Params: &sdk.DiscoverParams{Meta: meta}, Extra: extra}
		return nativeRequest{req: r, serve: func(ctx context.Context) (any, error) { return s.discover(ctx, r), nil }}, true
	case "completion/complete":
		p := &sdk.CompleteParams{}
		if s.opts.Complete == nil || !decode(p) || p.Ref == nil || p.Argument.Name == "" {
			return nativeRequest{}, false
		}
		r := &sdk.CompleteRequest{Params: p, Extra: extra}
		return nativeRequest{req: r, serve: func(ctx context.Context) (any, error) { return s.complete(ctx, r) }}, true
	}
	return nativeRequest{}, false
}

// listCursor is the cursor of a list request, a string written without
// escapes ("" for none); false for any other.
func listCursor(fr *fastRequest) (string, bool) {
	cursor := ""
	for _, m := range fr.members {
		if m.key != "cursor" || !plainString(m.val) {
			return "", false
		}
		cursor = string(m.val[1 : len(m.val)-1])
	}
	return cursor, true
}

// getPrompt is prompts/get: the prompt's handler, as the SDK calls it.
func (s *server) getPrompt(ctx context.Context, req *sdk.GetPromptRequest) (any, error) {
	reg := &s.registry
	var h sdk.PromptHandler
	reg.mu.Lock()
	for i, p := range reg.prompts {
		if p.Name == req.Params.Name {
			h = reg.handler[i] // the last given of the name, as the SDK keeps it
		}
	}
	reg.mu.Unlock()
	if h == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", req.Params.Name)}
	}
	res, err := h(ctx, req)
	if err != nil {
		return nil, err
	}
	return typedResult{res: res, inputRequired: res.InputRequests != nil}, nil
}

// readResource is resources/read: the handler of the resource of that
// URI, else of the first template (by URI template) that matches it.
func (s *server) readResource(ctx context.Context, req *sdk.ReadResourceRequest) (any, error) {
	uri := req.Params.URI
	var h sdk.ResourceHandler
	var mime string
	reg := &s.registry
	reg.mu.Lock()
	for _, r := range reg.resources {
		if r.res.URI == uri {
			h, mime = r.h, r.res.MIMEType
		}
	}
	reg.mu.Unlock()
	if h == nil {
		for _, t := range s.templatesSorted() {
			if t.re != nil && t.re.Regexp().MatchString(uri) {
				h, mime = t.h, t.tmpl.MIMEType
				break
			}
		}
	}
	if h == nil {
		return nil, resourceNotFound(uri)
	}
	res, err := h(ctx, req)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "reading resource " + uri + ": read handler returned nil information"}
	}
	s.cacheable(ctx, req, &res.Cacheable)
	if res.InputRequests == nil {
		for _, c := range res.Contents {
			if c.URI == "" {
				c.URI = uri
			}
			if c.MIMEType == "" {
				c.MIMEType = mime
			}
		}
	}
	return typedResult{res: res, inputRequired: res.InputRequests != nil}, nil
}

// markNative marks a result for the revision, as the SDK marks its own:
// its type, and the server's identity in its _meta.
func (s *server) markNative(res any) any {
	switch r := res.(type) {
	case *sdk.ListPromptsResult:
		r.ResultType = "complete"
		r.Meta = s.fastServerInfo(r.Meta)
	case *sdk.ListResourcesResult:
		r.ResultType = "complete"
		r.Meta = s.fastServerInfo(r.Meta)
	case *sdk.ListResourceTemplatesResult:
		r.ResultType = "complete"
		r.Meta = s.fastServerInfo(r.Meta)
	case *sdk.CompleteResult:
		r.ResultType = "complete"
		r.Meta = s.fastServerInfo(r.Meta)
	case *sdk.DiscoverResult:
		r.ResultType = "complete"
		r.Meta = s.fastServerInfo(r.Meta)
	case typedResult:
		if rr, ok := r.res.(*sdk.ReadResourceResult); ok && rr.Meta == nil {
			// Written by hand (readResultJSON), the server's identity
			// from its JSON made once.
			r.info = s.serverInfoJSON()
			return r
		}
		r.res.SetMeta(s.fastServerInfo(sdk.Meta(r.res.GetMeta())))
		return r
	}
	return res
}

// serverInfoJSON is the server's identity as the SDK writes it in a
// result's _meta, encoded once.
func (s *server) serverInfoJSON() []byte {
	f := &s.fast
	f.infoOnce.Do(func() {
		f.info, _ = json.Marshal(s.impl)
	})
	return f.info
}

// typedResult is a result whose type the SDK keeps in an unexported field
// (a prompt's, a resource's): its JSON with the type added.
type typedResult struct {
	res interface {
		sdk.Result
		json.Marshaler
	}
	inputRequired bool
	// info is the server's identity's JSON, for a result MarshalJSON
	// writes by hand (readResultJSON), whose _meta it is.
	info []byte
}

func (r typedResult) MarshalJSON() ([]byte, error) {
	rt := "complete"
	if r.inputRequired {
		rt = "input_required"
	}
	if rr, ok := r.res.(*sdk.ReadResourceResult); ok && r.info != nil {
		if b, ok := readResultJSON(rr, r.info); ok {
			return b, nil
		}
		rr.SetMeta(sdk.Meta{sdk.MetaKeyServerInfo: json.RawMessage(r.info)})
	}
	b, err := r.res.MarshalJSON()
	return withResultType(b, err, rt)
}

// readResultJSON writes a resources/read result as the SDK's
// MarshalJSON writes it, marked complete and with the server's identity,
// info, as its _meta, without reflection: the read's contents are what
// it is, and the SDK's encoding of them (a result type marshalled twice,
// then copied to add the result type) was a fifth of a read's time. It
// reports false for a result it does not write: one asking for input, or
// with _meta of its own on a content.
func readResultJSON(r *sdk.ReadResourceResult, info []byte) ([]byte, bool) {
	if r.InputRequests != nil || r.RequestState != "" {
		return nil, false
	}
	b := make([]byte, 0, 160+len(info))
	b = append(b, `{"_meta":{"`+sdk.MetaKeyServerInfo+`":`...)
	b = append(b, info...)
	b = append(b, `},"ttlMs":`...)
	b = strconv.AppendInt(b, int64(r.TTLMs), 10)
	b = append(b, `,"cacheScope":`...)
	b = jsonwrite.AppendString(b, r.CacheScope, true)
	b = append(b, `,"contents":`...)
	if r.Contents == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range r.Contents {
			if c == nil || c.Meta != nil {
				return nil, false
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"uri":`...)
			b = jsonwrite.AppendString(b, c.URI, true)
			if c.MIMEType != "" {
				b = append(b, `,"mimeType":`...)
				b = jsonwrite.AppendString(b, c.MIMEType, true)
			}
			if c.Text != "" {
				b = append(b, `,"text":`...)
				b = jsonwrite.AppendString(b, c.Text, true)
			}
			if c.Blob != nil {
				b = append(b, `,"blob":"`...)
				b = base64.StdEncoding.AppendEncode(b, c.Blob)
				b = append(b, '"')
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"resultType":"complete"}`...)
	return b, true
}
