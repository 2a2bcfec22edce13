package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// valuesCtx takes its values from values first, and its deadline and
// cancellation from the embedded context.
type valuesCtx struct {
	context.Context
	values context.Context
}

func (c valuesCtx) Value(k any) any {
	if v := c.values.Value(k); v != nil {
		return v
	}
	return c.Context.Value(k)
}

// requestContext is the context a request's handler runs in: the SDK's
// (cancellation, session), with the values of the context the auth hook
// returned for the HTTP request that carried it. In a session, the SDK's
// context belongs to the request that opened the session, so the caller
// is found anew for each request, in its TokenInfo (see withTokenInfo):
// the hook ran once, on the serving path. A request that comes with
// headers but without the serving path's TokenInfo (none does) has its
// headers run through the hook here, so that no request goes unchecked.
//
// Over /sse a message carries no HTTP request of its own: the session's
// context is the authenticated stream's (see serveSSE), and each message
// gets a fresh request state, so that a provider is asked again for each.
func (s *server) requestContext(ctx context.Context, extra *sdk.RequestExtra) (context.Context, error) {
	if extra == nil || extra.Header == nil {
		// A fresh request state for each message, so that the provider
		// is asked once per message: /sse's keep the stream's request and
		// ids; stdio's and in memory's have none (no HTTP, no hook).
		st := &httpkit.State{}
		if old := httpkit.StateFrom(ctx); old != nil {
			st.Req, st.RequestID, st.CorrelationID = old.Req, old.RequestID, old.CorrelationID
		}
		return httpkit.NewContext(ctx, st), nil
	}
	if s.opts.AuthHook == nil {
		return ctx, nil
	}
	if extra.TokenInfo != nil {
		if hctx, ok := extra.TokenInfo.Extra[tokenContextKey].(context.Context); ok {
			return valuesCtx{ctx, hctx}, nil
		}
	}
	r := (&http.Request{Method: http.MethodPost, Header: extra.Header, URL: &url.URL{Path: s.mcpPath()}}).WithContext(ctx)
	r = httpkit.WithState(r)
	hctx, err := s.core.Authenticate(r)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: httpkit.MsgUnauthorized}
	}
	return valuesCtx{ctx, hctx}, nil
}

// mcpPath is where Streamable HTTP is served.
func (s *server) mcpPath() string { return cmp.Or(s.mopts.Path, DefaultPath) }

// mcpMiddleware answers tools/list from the provider, routes tools/call to
// serveToolCall through the SDK, and hands every other method to the SDK.
//
// It is the SDK's only middleware, so it runs outermost and recovers any
// panic below it (a tracer, a hook, toolgen's handlers) into a JSON-RPC
// internal error: the SDK runs it on goroutines of its own, where an
// unrecovered panic would stop the whole process.
func (s *server) mcpMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	h := s.mcpTraced(next)
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		if protocolOf(req) >= protocol20260728 {
			s.fast.sdkServed.Add(1)
		}
		defer func() {
			if v := recover(); v != nil {
				s.logPanic("MCP request", v, "method", method)
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgInternal}
			}
		}()
		return h(ctx, method, req)
	}
}

// logPanic logs a recovered panic with its stack, as an error.
func (s *server) logPanic(where string, v any, args ...any) {
	httpkit.LogPanic(s.log, where, v, args...)
}

// traceRequest starts the tracer's span of an MCP request that is not a
// tools/call (a call is traced as a call, by the pipeline), on either
// path; end ends it. Without a tracer it does nothing.
func (s *server) traceRequest(ctx context.Context, method, name string, req sdk.Request) (_ context.Context, end func(error)) {
	if s.opts.Tracer == nil {
		return ctx, func(error) {}
	}
	return s.opts.Tracer.StartRequest(ctx, mcpInfo(method, name, req))
}

// mcpTraced is mcpServe, traced when the server has a tracer.
func (s *server) mcpTraced(next sdk.MethodHandler) sdk.MethodHandler {
	serve := s.mcpServe(next)
	if s.opts.Tracer == nil {
		return serve
	}
	// MCP's requests but tools/call (traced as a call, by the pipeline)
	// and notifications, traced as requests.
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == "tools/call" || strings.HasPrefix(method, "notifications/") {
			return serve(ctx, method, req)
		}
		name := ""
		switch p := paramsOf(req).(type) {
		case *sdk.GetPromptParams:
			name = p.Name
		case *sdk.ReadResourceParams:
			name = p.URI
		}
		ctx, end := s.traceRequest(ctx, method, name, req)
		res, err := serve(ctx, method, req)
		end(err)
		return res, err
	}
}

// resumable reports whether req's session speaks a revision whose
// clients resume a response stream the server closes (2025-11-25, which
// brought priming events; 2026-07-28 has no such streams).
func resumable(req sdk.Request) bool {
	ss, ok := req.GetSession().(*sdk.ServerSession)
	if !ok || ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= protocol20251125
}

// mcpServe is mcpTraced without the tracing.
func (s *server) mcpServe(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		ctx, err := s.requestContext(ctx, req.GetExtra())
		if err != nil {
			return nil, err
		}
		if e := req.GetExtra(); e != nil && e.CloseSSEStream != nil && !resumable(req) {
			// A client of a revision before 2025-11-25 has no way to
			// resume a stream the server closes (SEP-1699): it would
			// wait for its answer forever. A handler finds no way to
			// close it (CloseSSEStream is nil, as on transports without
			// streams).
			e.CloseSSEStream = nil
		}
		if !s.fixed && (method == "tools/list" || method == "tools/call") {
			defer s.noticeChanges(ctx, req)
		}
		switch method {
		case "tools/list":
			return s.listMCPTools(ctx, req)
		case "tools/call":
			if r := req.(*sdk.CallToolRequest); s.isMeta(r.Params.Name) {
				// Progressive discovery (toolsearch.go).
				if r.Params.Name == SearchToolsName {
					res, err := s.searchTools(ctx, r.Params.Arguments)
					return markedCall(r, res), err
				}
				if res := s.unwrapCall(r); res != nil {
					return markedCall(r, res), nil
				}
			}
			if res, ok, err := s.taskCall(ctx, req.(*sdk.CallToolRequest)); ok {
				return res, err
			}
			if r := req.(*sdk.CallToolRequest); !s.registered(r.Params.Name) {
				return s.callUnregistered(ctx, r)
			}
		}
		res, err := next(ctx, method, req)
		var we *jsonrpc.Error
		if errors.As(err, &we) && len(we.Data) > 0 && !json.Valid(we.Data) {
			// An error the connection could not encode would close the
			// session: drop the data that is not JSON.
			clean := *we
			clean.Data = nil
			err = &clean
		}
		return res, err
	}
}

// listMCPTools answers tools/list from the provider, in its order, a page
// at a time (Options.PageSize; see pageOf).
func (s *server) listMCPTools(ctx context.Context, req sdk.Request) (sdk.Result, error) {
	ss, _ := req.GetSession().(*sdk.ServerSession)
	tools, err := s.core.VisibleTools(runtime.WithClientSession(ctx, &mcpCall{srv: s, session: ss}))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
	}
	var cursor string
	if p, ok := paramsOf(req).(*sdk.ListToolsParams); ok {
		cursor = p.Cursor
	}
	if s.mopts.ToolSearch {
		tools = nil // the catalog is searched, not listed
	}
	page, next, ok := pageOf(len(tools), s.pageSize(), cursor)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor: give the nextCursor of the page before, as it was"}
	}
	res := &mcpToolList{Tools: make([]mcpTool, 0, page.len())}
	for i := page.from; i < page.to; i++ {
		res.Tools = append(res.Tools, s.mcpTool(&tools[i]))
	}
	res.NextCursor = next
	if s.mopts.ToolSearch {
		res.Tools = metaTools()
	}
	s.setCacheable(ctx, req, &res.Cacheable)
	if !s.fixed {
		// What a function provider lists may depend on the caller.
		res.CacheScope = "private"
	}
	if res.CacheScope == "" {
		res.CacheScope = "public"
	}
	return res, nil
}

// mcpToolList is tools/list's result. It is the SDK's ListToolsResult (so
// that the SDK marks it for the protocol revision: resultType, serverInfo,
// and the caching hints it carries) with toolgen's own tools, which go out
// exactly as described: the schemas as generated, hints only when given.
type mcpToolList struct {
	sdk.ListToolsResult
	Tools []mcpTool `json:"tools"`
}

type mcpTool struct {
	Name         string               `json:"name"`
	Title        string               `json:"title,omitempty"`
	Description  string               `json:"description,omitempty"`
	InputSchema  json.RawMessage      `json:"inputSchema"`
	OutputSchema json.RawMessage      `json:"outputSchema,omitempty"`
	Annotations  *runtime.Annotations `json:"annotations,omitempty"`
	Meta         mcpToolMeta          `json:"_meta"`
}

// mcpToolMeta is a tool's _meta in tools/list: its version, which MCP's
// Tool has no field for, under toolgen's own key.
type mcpToolMeta struct {
	Version string `json:"io.github.toolgen-go/version"`
}

func (s *server) mcpTool(t *runtime.Tool) mcpTool {
	mt := mcpTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: runtime.EffectiveInputSchema(t), Meta: mcpToolMeta{Version: s.core.ToolVersion(t)}}
	if !t.Annotations.IsZero() {
		mt.Annotations = t.Annotations
	}
	mt.OutputSchema = s.core.OutputSchema(t)
	return mt
}
