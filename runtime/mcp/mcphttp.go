package mcp

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
)

// MCP over HTTP: Streamable HTTP at /mcp and HTTP+SSE at /sse. The shared
// serving path (serving.go) runs first (ids, auth, body limit); this
// adapter checks that the body is JSON-RPC, picks the SDK handler that
// serves the request's protocol revision, and hands it over. The protocol
// itself, sessions and streams are the go-sdk's.
//
// One endpoint answers every client, chosen per request:
//
//   - a request of revision 2026-07-28 or later (its MCP-Protocol-Version
//     header, its _meta, or server/discover) stands alone, and a tool's
//     questions to the client become input-required results. It is
//     answered by toolgen's own code, as the SDK's stateless handler
//     would answer it (mcpfast.go, native.go, stream.go, listen.go,
//     revision.go, taskmethods.go). What that code cannot write plainly
//     goes to the handler still (see revision.go);
//   - any other request is served in a session (the SDK's stateful handler)
//     whose streams can be resumed: every event has an id, and a client
//     that reconnects with Last-Event-ID is sent what it missed.
//
// Options.Stateless refuses sessions: every request goes to the
// stateless handler, for replicas without sticky routing.

// metaProtocolVersion is the _meta key in which a request of revision
// 2026-07-28 names its revision (SEP-2575).
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// mcpSurface is MCP over HTTP: a refusal is a JSON-RPC error response.
var mcpSurface = &httpkit.Surface{Name: runtime.SurfaceMCP, WriteError: writeRPCError}

// NewHandler returns MCP's Streamable HTTP for srv's tools, served at
// whatever path it is mounted on (runtime/serve mounts it at
// Options.Path, default [DefaultPath]). A nil opts means defaults. It
// answers every client whatever revision it speaks: 2026-07-28 by
// toolgen's own code, older ones in go-sdk sessions (see the file's
// comment). It serves requests behind the shared serving path: request
// ids, the browser guard, the auth hook (run once per request, its caller
// handed to the session), the body limit.
//
// Each call builds a server of its own (sessions, tasks, the go-sdk's
// server), which srv tells of its changes for as long as srv lives: build
// it once.
func NewHandler(srv *runtime.Server, opts *Options) http.Handler {
	h, _ := newStreamable(srv, opts)
	return h
}

// newStreamable is NewHandler, with the server it built.
func newStreamable(srv *runtime.Server, opts *Options) (http.Handler, *server) {
	return newEndpoint(newServer(srv, opts), (*server).mcpHTTP, (*server).serveMCP, http.MethodPost, http.MethodGet, http.MethodDelete)
}

// NewSSEHandler returns the HTTP+SSE transport of protocol 2024-11-05,
// for clients that predate Streamable HTTP (see serveSSE), served at
// whatever path it is mounted on (runtime/serve mounts it at
// Options.SSEPath, default [DefaultSSEPath]); the stream tells the client
// to POST its messages to the same path. Like NewHandler, it builds a
// server of its own: build it once.
func NewSSEHandler(srv *runtime.Server, opts *Options) http.Handler {
	h, _ := newSSE(srv, opts)
	return h
}

// newSSE is NewSSEHandler, with the server it built.
func newSSE(srv *runtime.Server, opts *Options) (http.Handler, *server) {
	// MCP 2026-07-28 is defined on stdio and Streamable HTTP only: the
	// SDK's server here speaks the revisions before it. (Its SSE session
	// would learn so from its transport, but after it has written the
	// endpoint event, so that a client's server/discover sent at once
	// could be answered as if it spoke 2026-07-28.)
	s := newServerWith(srv, opts, func(so *sdk.ServerOptions) { so.SupportedProtocolVersions = sseVersions() })
	return newEndpoint(s, (*server).sseHTTP, (*server).serveSSE, http.MethodGet, http.MethodPost)
}

// sseVersions are the revisions the HTTP+SSE transport serves: the SDK's,
// before 2026-07-28.
func sseVersions() []string {
	var out []string
	for _, v := range sdk.SupportedProtocolVersions() {
		if v < protocol20260728 {
			out = append(out, v)
		}
	}
	return out
}

// newEndpoint readies the SDK handlers of s with setup, and serves it at
// one endpoint behind the shared serving path.
func newEndpoint(s *server, setup func(*server), serve func(*server, *httpkit.Request) error, methods ...string) (http.Handler, *server) {
	srv := s.core
	setup(s)
	return surface.Endpoint(srv, mcpSurface, s.kit.Handle(httpkit.Endpoint{
		Surface: mcpSurface,
		Methods: methods,
		Auth:    true, Body: true,
		Serve: func(rq *httpkit.Request) error { return serve(s, rq) },
	})), s
}

// mcpHTTP makes the SDK's two Streamable HTTP handlers.
func (s *server) mcpHTTP() {
	o := &s.mopts
	idle := o.SessionIdleTimeout
	if idle == 0 {
		idle = DefaultSessionIdleTimeout
	}
	getServer := func(*http.Request) *sdk.Server { return s.sdk() }
	common := sdk.StreamableHTTPOptions{
		JSONResponse: o.JSONResponse,
		// The serving path checks the Host header (browser.go) and bounds
		// the body before the SDK sees the request.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        -1,
		Logger:                     s.log,
	}
	stateless := common
	stateless.Stateless = true
	s.stateless = s.withTokenInfo(sdk.NewStreamableHTTPHandler(getServer, &stateless))
	if !o.Stateless {
		stateful := common
		stateful.SessionTimeout = max(idle, 0)
		// Resumable streams: every event gets an id, and a client that
		// reconnects with Last-Event-ID is sent what it missed. The
		// store forgets a session's events when it closes, and holds at
		// most 10 MiB in all.
		stateful.EventStore = sdk.NewMemoryEventStore(nil)
		s.stateful = s.withTokenInfo(sdk.NewStreamableHTTPHandler(getServer, &stateful))
	}
	s.sessions.every = idle
}

// sseHTTP makes the SDK's HTTP+SSE handler.
func (s *server) sseHTTP() {
	getServer := func(*http.Request) *sdk.Server { return s.sdk() }
	s.sseHandler = sdk.NewSSEHandler(getServer, &sdk.SSEOptions{
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        -1,
	})
}

// serveMCP is the Streamable HTTP adapter.
func (s *server) serveMCP(rq *httpkit.Request) error {
	r := rq.R
	newProtocol := r.Header.Get("MCP-Protocol-Version") >= protocol20260728
	var info rpcInfo // a POST's
	if r.Method == http.MethodPost {
		if newProtocol && s.serveMCPFast(rq) {
			return nil // a plain tools/call or tools/list (mcpfast.go)
		}
		var err error
		if info, err = inspectRPC(rq.Body); err != nil {
			return err
		}
		newProtocol = newProtocol || info.newProtocol
		status := http.StatusOK // in a session, as the SDK answers errors
		if newProtocol || info.badID == nil {
			// As 2026-07-28 maps -32602; and a notification that cannot
			// be taken is refused with an HTTP error, its body an error
			// without an id (Streamable HTTP): it has no answer.
			status = http.StatusBadRequest
		}
		if err := info.paramsError(status); err != nil {
			return err
		}
		if newProtocol && s.serveTaskMethod(rq, &info) {
			return nil // tasks/get, tasks/update, tasks/cancel (mcptasks.go)
		}
		if newProtocol && (s.stateful == nil || r.Header.Get("Mcp-Session-Id") == "") && s.serveRevision(rq, &info) {
			return nil // the rest of the revision (revision.go)
		}
		r.Header = s.sdkHeader(rq, info.id)
		r.Body = io.NopCloser(bytes.NewReader(rq.Body))
		r.ContentLength = int64(len(rq.Body))
	}
	sid := r.Header.Get("Mcp-Session-Id")
	if r.Method != http.MethodPost && newProtocol && (s.stateful == nil || sid == "") && !s.fast.off {
		// The revision has only POST: refused as the SDK's stateless
		// handler refuses a GET or DELETE, without it.
		s.fast.answered.Add(1)
		rq.W.Header().Set("Allow", http.MethodPost)
		writeRPCError(rq.W, &httpkit.Error{Status: http.StatusMethodNotAllowed, Msg: sdkMessage(http.StatusMethodNotAllowed, r)})
		return nil
	}
	h := s.stateless
	w := rq.W
	if s.stateful != nil && (sid != "" || !newProtocol) {
		h = s.stateful
		var err error
		if w, err = s.sessionWriter(rq, sid); err != nil {
			return err
		}
		if sid != "" && r.Method == http.MethodDelete {
			defer s.sessions.forget(sid)
		}
	}
	// The writer keeps a copy: a pointer to info would move it to the
	// heap on every call, the fast path's too (TestAllocsPerCall).
	ew := &rpcErrorWriter{ResponseWriter: w, req: r, info: info}
	h.ServeHTTP(ew, r.WithContext(rq.Ctx))
	ew.finish()
	return nil
}

// sessionWriter checks that the session sid, when the request names one,
// is the caller's (a session belongs to whoever opened it), and for a
// POST that opens one makes room for it and returns the writer that
// records it. It is not inlined, so that its log lines do not make
// serveMCP's frame large (see refuseCrossOrigin).
//
//go:noinline
func (s *server) sessionWriter(rq *httpkit.Request, sid string) (http.ResponseWriter, error) {
	r := rq.R
	owner := s.owner(rq.Ctx)
	if sid != "" {
		if !s.sessions.use(sid, owner) {
			s.log.WarnContext(rq.Ctx, "MCP session used by another caller", "session", sid, "remote", r.RemoteAddr)
			return nil, httpkit.Refuse(http.StatusForbidden, "Forbidden")
		}
		return rq.W, nil
	}
	if r.Method != http.MethodPost {
		return rq.W, nil
	}
	caller := s.core.CallerKey(rq.Ctx)
	if old := s.sessions.makeRoom(s.sdkSrv, caller); old != "" {
		s.log.InfoContext(rq.Ctx, "MCP session closed to make room for a new one", "session", old, "max", s.sessions.max, "max_per_caller", s.sessions.per)
		closeSession(s.sdkSrv, old)
	}
	return &sessionRecorder{ResponseWriter: rq.W, record: func(sid string) { s.sessions.add(sid, owner, caller) }}, nil
}

// serveSSE is the HTTP+SSE adapter (protocol 2024-11-05, for clients that
// predate Streamable HTTP), through the SDK's SSEHandler: a GET opens a
// session and its event stream, and the client POSTs its messages to the
// endpoint the stream names (?sessionid=...).
//
// A session runs in the context of the GET that opened it (the caller's
// identity, the request for RequestFromContext), and belongs to that
// caller: a POST by anyone else is refused (403). Like Streamable HTTP's
// sessions, the open streams are bounded by Options.MaxSessions, the
// least recently used one closed to make room.
func (s *server) serveSSE(rq *httpkit.Request) error {
	owner := s.owner(rq.Ctx)
	w := rq.W
	r := rq.R.WithContext(rq.Ctx)
	switch r.Method {
	case http.MethodGet:
		ctx, cancel := context.WithCancel(rq.Ctx)
		defer cancel()
		var sid string
		defer func() { s.sse.forget(sid) }()
		w = &endpointRecorder{ResponseWriter: w, record: func(id string) {
			sid = id
			if old := s.sse.add(id, owner, s.core.CallerKey(ctx), cancel); old != "" {
				s.log.InfoContext(ctx, "SSE stream closed to make room for a new one", "session", old, "max", s.sse.max)
			}
		}}
		r = r.WithContext(ctx)
	case http.MethodPost:
		if sid := r.URL.Query().Get("sessionid"); sid != "" && !s.sse.use(sid, owner) {
			s.log.WarnContext(rq.Ctx, "SSE session used by another caller", "session", sid, "remote", r.RemoteAddr)
			return httpkit.Refuse(http.StatusForbidden, "Forbidden")
		}
		info, err := inspectRPC(rq.Body)
		if err != nil {
			return err
		}
		if err := info.paramsError(http.StatusBadRequest); err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(rq.Body))
		r.ContentLength = int64(len(rq.Body))
	}
	ew := &rpcErrorWriter{ResponseWriter: w, req: r, sse: true}
	s.sseHandler.ServeHTTP(ew, r)
	ew.finish()
	return nil
}

// sdkHeader is the header an MCP handler is given (RequestExtra.Header): a
// copy of the client's with the request's correlation id and, for the
// trace, its JSON-RPC id. The SDK gives a handler neither, nor the
// request's state: it carries a request's headers to it (a session's
// handlers run in the session's context, not the request's).
func (s *server) sdkHeader(rq *httpkit.Request, rpcID []byte) http.Header {
	h := rq.R.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	s.settleHeader(h, rq, rpcID)
	return h
}

// settleHeader makes h, a request's header or a copy, what an MCP handler
// is given: the request's correlation id, and its JSON-RPC id for the
// trace.
func (s *server) settleHeader(h http.Header, rq *httpkit.Request, rpcID []byte) {
	h[httpkit.HeaderCorrelationID] = []string{rq.St.CorrelationID}
	delete(h, headerRPCID)                    // a client's own is not believed
	if s.opts.Tracer != nil && rpcID != nil { // only a tracer reads it
		h[headerRPCID] = []string{string(rpcID)}
	}
}

// ownHeader is sdkHeader without the copy: the request's own header,
// made what sdkHeader makes of a copy, for a native request whose
// handler is done when the request is (a prompt, a resource, a list):
// the copy was a tenth of a native resources/read's time
// (BenchmarkMCPMethods), and no one reads the request's header after.
// It is the map runtime.RequestFromContext's request has too: a handler
// sees the correlation id there as the server settled it.
func (s *server) ownHeader(rq *httpkit.Request, rpcID []byte) http.Header {
	h := rq.R.Header
	if h == nil {
		h = http.Header{}
		rq.R.Header = h
	}
	s.settleHeader(h, rq, rpcID)
	return h
}

// headerRPCID is where serveMCP leaves a request's JSON-RPC id for the
// MCP handlers (see RPCInfo.RequestID); a client's own is dropped.
const headerRPCID = "Toolgen-Jsonrpc-Id"

// mcpInfo describes an MCP request for Options.Tracer.
func mcpInfo(method, name string, req sdk.Request) *runtime.RPCInfo {
	info := &runtime.RPCInfo{Protocol: runtime.SurfaceMCP, Method: method, Name: name, ProtocolVersion: protocolOf(req)}
	if ss, ok := req.GetSession().(*sdk.ServerSession); ok && ss != nil {
		info.SessionID = ss.ID()
	}
	if e := req.GetExtra(); e != nil {
		info.RequestID = e.Header.Get(headerRPCID)
	}
	if p := paramsOf(req); p != nil {
		info.TraceContext = traceMeta(p.GetMeta())
	}
	if info.TraceContext == nil {
		if e := req.GetExtra(); e != nil {
			info.TraceContext = httpkit.TraceHeaders(e.Header)
		}
	}
	return info
}

// paramsOf returns req's params, or nil when the request had none. For a
// request without params (absent or null) the SDK hands its handlers a
// typed nil pointer, through which the promoted GetMeta, or any field,
// would dereference nil: every read of a request's params goes through
// here.
func paramsOf(req sdk.Request) sdk.Params {
	p := req.GetParams()
	if p == nil {
		return nil
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return p
}

// withTokenInfo hands the caller the serving path authenticated to the
// SDK, so that its session binding (RequestExtra.TokenInfo) and each
// request of a session know who calls without running the auth hook
// again: the hook runs once per HTTP request, on the serving path, and
// the request reaches h in the context it returned. The SDK's only setter
// of TokenInfo is its bearer-token middleware, so every request goes
// through it, with a verifier that reads the caller from the request's
// context rather than from the token. A request whose credentials are not
// one bearer token (an API key, a cookie) passes it on a copy that
// carries a placeholder token, and h gets the request's own headers back.
func (s *server) withTokenInfo(h http.Handler) http.Handler {
	if s.opts.AuthHook == nil {
		return h
	}
	opts := &auth.RequireBearerTokenOptions{AllowMissingExpiration: true}
	bearer := auth.RequireBearerToken(s.tokenInfo, opts)(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := strings.Fields(r.Header.Get("Authorization")); len(f) == 2 && strings.EqualFold(f[0], "bearer") {
			bearer.ServeHTTP(w, r) // the SDK's own reading of a bearer token
			return
		}
		own := r.Header
		r2 := new(http.Request)
		*r2 = *r
		r2.Header = own.Clone()
		r2.Header.Set("Authorization", "Bearer authenticated-by-toolgen")
		auth.RequireBearerToken(s.tokenInfo, opts)(http.HandlerFunc(func(w http.ResponseWriter, r3 *http.Request) {
			r3.Header = own
			h.ServeHTTP(w, r3)
		})).ServeHTTP(w, r2)
	})
}

// tokenContextKey is where a TokenInfo's Extra holds the context the auth
// hook returned, which the call runs in.
const tokenContextKey = "toolgen.context"

// tokenInfo is the SDK's token verifier: the caller the serving path
// authenticated, from the request's context (the auth hook's), whatever
// the token. UserID binds a session to the caller; Extra carries the
// hook's context for each request (requestContext). No Expiration: the
// hook checked it (with its leeway), and a static token has none.
func (s *server) tokenInfo(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
	return &auth.TokenInfo{UserID: s.owner(ctx), Extra: map[string]any{tokenContextKey: ctx}}, nil
}

// traceMeta is the W3C trace context in an MCP request's _meta, or nil.
func traceMeta(meta map[string]any) map[string]string {
	var m map[string]string
	for _, k := range httpkit.TraceKeys {
		if v, ok := meta[k].(string); ok && v != "" {
			if m == nil {
				m = make(map[string]string, len(httpkit.TraceKeys))
			}
			m[k] = v
		}
	}
	return m
}
