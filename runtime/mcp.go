package runtime

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	goruntime "runtime"
	"runtime/debug"
	"sync"
	"time"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMCPPath is where the MCP surface is mounted by default.
const DefaultMCPPath = "/mcp"

// MCPOptions configures the MCP surface: Streamable HTTP at /mcp, the older
// HTTP+SSE transport at /sse, and the same server over stdio with
// [Server.ServeStdio]. The protocol itself (JSON-RPC, sessions, transports,
// protocol revisions) is github.com/modelcontextprotocol/go-sdk; tools/list
// and tools/call are answered from the server's [ToolsProvider] through the
// same call pipeline as every other surface.
type MCPOptions struct {
	// Disable turns the HTTP surfaces (/mcp and /sse) off; stdio still
	// works.
	Disable bool
	// Path is where Streamable HTTP is served. Default [DefaultMCPPath].
	Path string
	// Stateless serves Streamable HTTP without sessions: each request
	// stands alone. It is how protocol revision 2026-07-28 is served (older
	// clients are served too, one request at a time). A request of that
	// revision that needs the client (elicitation, sampling, roots) is
	// answered with an input-required result and retried by the client;
	// tools use the same ctx helpers either way (see [Ask]). Older clients
	// of a stateless server cannot be asked anything: the helpers report
	// [ErrUnsupported].
	Stateless bool
	// JSONResponse answers a POST with application/json instead of an SSE
	// stream.
	JSONResponse bool
	// SessionIdleTimeout closes a Streamable HTTP session that has had no
	// request for this long (the SDK's SessionTimeout; a client that keeps
	// a session open sends pings). Zero means
	// [DefaultSessionIdleTimeout]; negative, never.
	SessionIdleTimeout time.Duration
	// MaxSessions bounds the live Streamable HTTP sessions, and apart from
	// them the open /sse streams: a new one past it closes the least
	// recently used. Zero means [DefaultMaxSessions]; negative, no bound.
	MaxSessions int
	// SSEPath is where the HTTP+SSE transport of protocol 2024-11-05 is
	// served, for clients that predate Streamable HTTP. Default
	// [DefaultSSEPath]. DisableSSE turns it off.
	SSEPath    string
	DisableSSE bool
	// Name and Version identify the server to clients (serverInfo).
	// Defaults: the main module's path and version from the build
	// information (debug.ReadBuildInfo). The server's title is
	// Options.Title.
	Name, Version string
	// Instructions tell a client's model how to use the server.
	Instructions string
	// StateKey seals the requestState of input-required results (AES-GCM):
	// the answers a tool already has travel with the client between
	// rounds, encrypted and tamper-proof. Servers behind a load balancer
	// share one key; its SHA-256 is the AES-256 key. Default: a random
	// key, so a state only works on the process that issued it.
	StateKey []byte

	// Prompts and the resources below are served as they are.
	Prompts           []Prompt
	Resources         []Resource
	ResourceTemplates []ResourceTemplate
	// Complete, when set, answers completion requests for prompt arguments
	// and resource template variables (the completions capability).
	Complete func(ctx context.Context, req CompletionRequest) ([]string, error)

	// RegistryScheme is the URI scheme of the tool registry resources,
	// SCHEME://tools and SCHEME://tool/{name}. Default "toolgen".
	RegistryScheme string
	// DisableRegistry leaves the registry resources out.
	DisableRegistry bool
}

// CompletionRequest asks for completions of an argument's value.
type CompletionRequest struct {
	// Ref names what is completed: "prompt" with the prompt's name, or
	// "resource" with the resource template's URI template.
	RefType, Ref string
	// Argument is the argument's name and Value what was typed so far.
	Argument, Value string
	// Context holds the arguments already given.
	Context map[string]string
}

// mcpState is the server's MCP side.
type mcpState struct {
	srv *mcp.Server
	// sessions knows the owner and last use of each HTTP session; sse, of
	// each open /sse stream.
	sessions sessionTable
	sse      sseStreams
	// listed holds, per session (weakly), the fingerprint of the tool list
	// the provider last gave for it, to notice changes.
	listed sync.Map // weak.Pointer[mcp.ServerSession] → uint64
	// inject hands a request's TokenInfo to the SDK's handler.
	inject http.Handler
	// registered names the tools of a fixed list that are in the SDK's
	// registry (see registerTools); every other call goes through
	// dispatchTool.
	registered map[string]bool
	// sealer seals and opens the requestState of input-required results.
	sealer *stateSealer
}

// changeProbe is added to the SDK's registry and removed again at once to
// make it send notifications/tools/list_changed: the SDK has no other way
// to send one, and tools/list is answered by middleware, from the
// provider.
var changeProbe = &mcp.Tool{Name: "toolgen.list-changed", InputSchema: json.RawMessage(`{"type":"object"}`)}

func changeProbeHandler(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, errors.New("not a tool")
}

// promptProbe does for notifications/prompts/list_changed what changeProbe
// does for tools.
var promptProbe = &mcp.Prompt{Name: "toolgen.list-changed"}

func promptProbeHandler(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return nil, errors.New("not a prompt")
}

// dispatchTool is the SDK registry's entry for the calls of tools that are
// not in the registry themselves: those of a provider that is not a fixed
// list, whose tools can change with every request. The middleware renames
// such a call to it and keeps the real name in the context.
var dispatchTool = &mcp.Tool{Name: "toolgen.call", InputSchema: json.RawMessage(`{"type":"object"}`)}

type dispatchKey struct{}

func (s *Server) buildMCP() {
	o := &s.opts.MCP
	name, version := buildIdentity()
	impl := &mcp.Implementation{Name: o.Name, Title: s.opts.Title, Version: o.Version}
	if impl.Name == "" {
		impl.Name = name
	}
	if impl.Version == "" {
		impl.Version = version
	}
	so := &mcp.ServerOptions{
		Instructions: o.Instructions,
		// The tools capability is declared here as the registry may be
		// empty (a provider that is not a fixed list); logging is the
		// SDK's default, which setting Capabilities replaces.
		Capabilities: &mcp.ServerCapabilities{
			//lint:ignore SA1019 deprecated in MCP 2026-07-28 but supported (see session.go)
			Logging: &mcp.LoggingCapabilities{},
			Tools:   &mcp.ToolCapabilities{ListChanged: true},
		},
		SetCacheable: s.setCacheable,
	}
	if len(o.Resources) > 0 || len(o.ResourceTemplates) > 0 || !o.DisableRegistry {
		so.SubscribeHandler = s.subscribe
		so.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
	}
	if o.Complete != nil {
		so.CompletionHandler = s.complete
	}
	m := mcp.NewServer(impl, so)
	m.AddReceivingMiddleware(s.mcpMiddleware)
	s.mcp = &mcpState{srv: m, sealer: newStateSealer(o.StateKey)}
	s.mcp.sessions.max = o.MaxSessions
	if o.MaxSessions == 0 {
		s.mcp.sessions.max = DefaultMaxSessions
	}
	s.mcp.sse.max = s.mcp.sessions.max
	s.registerTools()
	for i := range o.Prompts {
		s.addPrompt(&o.Prompts[i])
	}
	for i := range o.Resources {
		s.addResource(&o.Resources[i])
	}
	for i := range o.ResourceTemplates {
		s.addResourceTemplate(&o.ResourceTemplates[i])
	}
	if !o.DisableRegistry {
		s.addRegistry()
	}
}

// buildIdentity is the server's default name and version: the main
// module's path and version, as the build recorded them.
func buildIdentity() (name, version string) {
	name, version = "toolgen", "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			name = bi.Main.Path
		}
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
	}
	return name, version
}

// registerTools puts in the SDK's registry the tools of a fixed list whose
// schema asks for Mcp-Param-* headers (x-mcp-header), so that the SDK
// checks those headers on their calls as it does for its own tools. Every
// other call goes through dispatchTool, which the SDK serves the same way
// (it marks the result for the protocol revision, carries input-required
// results): for a tool without x-mcp-header the SDK has nothing to check,
// yet on every call of protocol 2026-07-28 to a tool it finds in its
// registry it decodes the tool's whole input schema again to look for
// them. tools/list stays toolgen's (schemas and hints exactly as
// generated). A provider that is not a fixed list has only dispatchTool
// there: registering its tools as they come and go would tell every client
// its list changed.
func (s *Server) registerTools() {
	s.mcp.srv.AddTool(dispatchTool, s.serveToolCall)
	if s.static == nil {
		return
	}
	s.mcp.registered = make(map[string]bool)
	for name, t := range s.static {
		if name == dispatchTool.Name || name == changeProbe.Name {
			continue // the runtime's own names: such a tool goes through dispatchTool
		}
		if !bytes.Contains(inputSchema(t), []byte("x-mcp-header")) {
			continue
		}
		mt := &mcp.Tool{Name: name, InputSchema: inputSchema(t)}
		err := func() (err error) {
			defer func() {
				if v := recover(); v != nil {
					err = fmt.Errorf("%v", v)
				}
			}()
			s.mcp.srv.AddTool(mt, s.serveToolCall)
			return nil
		}()
		if err != nil {
			// Served through dispatchTool all the same; only the SDK's
			// checks of Mcp-Param-* headers are lost.
			s.log.Error("tool served without the SDK's Mcp-Param header checks", "tool", name, "err", err)
			continue
		}
		s.mcp.registered[name] = true
	}
}

// setCacheable decides the caching hints (ttlMs, cacheScope) of every
// result that carries them. Results are never cached (ttlMs 0: the
// provider may change at any time); they are private to the caller when a
// hook authenticates the requests, public otherwise.
func (s *Server) setCacheable(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
	if s.opts.AuthHook != nil {
		c.CacheScope = "private"
	}
}

// MCP returns the server's go-sdk server, for what the options do not
// cover. Its tools are the provider's: tools added to it directly are not
// served.
func (s *Server) MCP() *mcp.Server { return s.mcp.srv }

// ServeStdio serves MCP on standard input and output until the client
// disconnects or ctx is done. The auth hook does not apply: the client is
// the process that started this one. Log to standard error.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.mcp.srv.Run(ctx, &mcp.StdioTransport{})
}

// NotifyToolsChanged tells every MCP session that the tool list changed.
// A function provider's changes are noticed on their own when the server
// next lists its tools; call this to tell clients at once.
func (s *Server) NotifyToolsChanged() {
	// The two changes are sent as one notification (the SDK debounces).
	s.mcp.srv.AddTool(changeProbe, changeProbeHandler)
	s.mcp.srv.RemoveTools(changeProbe.Name)
	if !s.opts.MCP.DisableRegistry {
		// The registry's list of tools changed with them.
		_ = s.mcp.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: s.registryURI("tools")})
	}
}

// NotifyPromptsChanged tells every MCP session that the prompt list
// changed.
func (s *Server) NotifyPromptsChanged() {
	s.mcp.srv.AddPrompt(promptProbe, promptProbeHandler)
	s.mcp.srv.RemovePrompts(promptProbe.Name)
}

// NotifyResourceUpdated tells the sessions subscribed to uri that the
// resource changed.
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	return s.mcp.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
}

// noticeToolChanges compares the tools a provider that is not a fixed list
// gave for an MCP session with what it gave for the same session before:
// when they changed, that session's client (and any other) is told to list
// them again. Comparing per session keeps a provider whose tools depend on
// the caller from looking like one that keeps changing.
func (s *Server) noticeToolChanges(ctx context.Context, tools []Tool) {
	c, _ := ctx.Value(mcpCallKey{}).(*mcpCall)
	if c == nil || c.session == nil {
		return
	}
	key := weak.Make(c.session)
	sum := fingerprint(tools)
	old, seen := s.mcp.listed.Swap(key, sum)
	if !seen {
		goruntime.AddCleanup(c.session, func(k weak.Pointer[mcp.ServerSession]) { s.mcp.listed.Delete(k) }, key)
	} else if old.(uint64) != sum {
		s.NotifyToolsChanged()
	}
}

// fingerprint hashes what a client sees of a tool list.
func fingerprint(tools []Tool) uint64 {
	h := fnv.New64a()
	for i := range tools {
		t := &tools[i]
		for _, part := range [][]byte{[]byte(t.Name), []byte(t.Title), []byte(t.Description), t.InputSchema, t.OutputSchema} {
			h.Write(part)
			h.Write([]byte{0})
		}
		if !t.Annotations.IsZero() {
			a, _ := json.Marshal(t.Annotations)
			h.Write(a)
		}
		h.Write([]byte{1})
	}
	return h.Sum64()
}

// mcpHandler serves MCP over Streamable HTTP. The auth hook runs on every
// request (401 JSON when it rejects); the context it returns, with the
// request, is what the tool's ctx carries, even in a stateful session whose
// transport context belongs to the request that opened it. It reaches the
// tool as the SDK carries a request's identity: in the TokenInfo of the
// request's RequestExtra.
func (s *Server) mcpHandler() http.Handler {
	o := &s.opts.MCP
	idle := o.SessionIdleTimeout
	if idle == 0 {
		idle = DefaultSessionIdleTimeout
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp.srv }, &mcp.StreamableHTTPOptions{
		Stateless:    o.Stateless,
		JSONResponse: o.JSONResponse,
		// The server's own browser guard checks the Host header for
		// every surface, with Options.AllowedHosts (see browser.go).
		DisableLocalhostProtection: true,
		SessionTimeout:             max(idle, 0),
		MaxRequestBodyBytes:        s.opts.MaxBodyBytes,
		Logger:                     s.log,
	})
	s.mcp.inject = tokenInjector(h)
	s.mcp.sessions.every = idle
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, ok := s.authenticate(w, r, writeError)
		if !ok {
			return
		}
		owner := s.owner(ctx, r)
		if sid := r.Header.Get("Mcp-Session-Id"); sid != "" {
			// A session belongs to whoever opened it.
			if !s.mcp.sessions.use(sid, owner) {
				s.log.WarnContext(ctx, "MCP session used by another caller", "session", sid, "remote", r.RemoteAddr)
				writeError(w, http.StatusForbidden, "Forbidden")
				return
			}
			if r.Method == http.MethodDelete {
				defer s.mcp.sessions.forget(sid)
			}
		} else if !o.Stateless && r.Method == http.MethodPost {
			if old := s.mcp.sessions.makeRoom(s.mcp.srv); old != "" {
				s.log.InfoContext(ctx, "MCP session closed to make room for a new one", "session", old, "max", s.mcp.sessions.max)
				closeSession(s.mcp.srv, old)
			}
			w = &sessionRecorder{ResponseWriter: w, record: func(sid string) { s.mcp.sessions.add(sid, owner) }}
		}
		// UserID also has the SDK refuse the session to anyone else.
		serveWithToken(s.mcp.inject, w, r, &auth.TokenInfo{UserID: owner, Extra: map[string]any{tokenContextKey: ctx}})
	})
}

// owner is whom a session or a requestState opened by r belongs to: ""
// when the server has no auth hook.
func (s *Server) owner(ctx context.Context, r *http.Request) string {
	if s.opts.AuthHook == nil {
		return ""
	}
	p, _ := PrincipalFrom(ctx)
	return sessionOwner(r, p)
}

// tokenContextKey is where a TokenInfo's Extra holds the context the auth
// hook returned.
const tokenContextKey = "toolgen.context"

// tokenHandoff takes a TokenInfo and the request's own header through the
// SDK's bearer-token middleware.
type tokenHandoff struct {
	info   *auth.TokenInfo
	header http.Header
}

type tokenHandoffKey struct{}

// tokenInjector returns h behind the SDK's auth.RequireBearerToken, the
// only way the SDK offers to put a TokenInfo in a request's context. Its
// verifier does not verify anything: the auth hook did, and the TokenInfo
// comes from serveWithToken.
func tokenInjector(h http.Handler) http.Handler {
	verifier := func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		if ho, ok := ctx.Value(tokenHandoffKey{}).(*tokenHandoff); ok {
			return ho.info, nil
		}
		return nil, auth.ErrInvalidToken
	}
	return auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Header = r.Context().Value(tokenHandoffKey{}).(*tokenHandoff).header
			h.ServeHTTP(w, r)
		}))
}

// serveWithToken serves r through an injector from tokenInjector with ti
// as its TokenInfo. The middleware reads a bearer token from the
// Authorization header before it calls the verifier, but the auth hook may
// have used another header or none: it is shown a header with nothing but
// a placeholder token (the middleware reads no other), and the SDK's
// handler gets the request's own.
func serveWithToken(inject http.Handler, w http.ResponseWriter, r *http.Request, ti *auth.TokenInfo) {
	r = r.WithContext(context.WithValue(r.Context(), tokenHandoffKey{}, &tokenHandoff{info: ti, header: r.Header}))
	r.Header = http.Header{"Authorization": placeholderToken}
	inject.ServeHTTP(w, r)
}

// placeholderToken is the Authorization header serveWithToken shows the
// SDK's bearer-token middleware. It is never changed.
var placeholderToken = []string{"Bearer toolgen"}

// sessionRecorder notes the session id a response opens, before the
// client can see it.
type sessionRecorder struct {
	http.ResponseWriter
	record func(sid string)
	done   bool
}

func (r *sessionRecorder) WriteHeader(code int) {
	if !r.done {
		r.done = true
		if sid := r.Header().Get("Mcp-Session-Id"); sid != "" {
			r.record(sid)
		}
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *sessionRecorder) Write(b []byte) (int, error) {
	if !r.done {
		r.WriteHeader(http.StatusOK)
	}
	return r.ResponseWriter.Write(b)
}

func (r *sessionRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *sessionRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

type mcpCallKey struct{}

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
// (cancellation, session), with the values of the HTTP request's context
// after the auth hook when the request came over HTTP. A request over HTTP
// whose context cannot be found is refused when there is an auth hook,
// rather than run without the caller's identity.
//
// Over /sse a message carries no HTTP request of its own: the session's
// context is the authenticated stream's (see sseHandler), and each message
// gets a fresh request state, so that a provider is asked again for each.
func (s *Server) requestContext(ctx context.Context, extra *mcp.RequestExtra) (context.Context, error) {
	if extra == nil || extra.Header == nil {
		if st := stateFrom(ctx); st != nil {
			return context.WithValue(ctx, requestKey{}, &requestState{req: st.req}), nil
		}
		return ctx, nil // stdio, in memory: no HTTP, no hook
	}
	if extra.TokenInfo != nil {
		if hctx, ok := extra.TokenInfo.Extra[tokenContextKey].(context.Context); ok {
			return valuesCtx{ctx, hctx}, nil
		}
	}
	if s.opts.AuthHook != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Unauthorized"}
	}
	return ctx, nil
}

// mcpMiddleware answers tools/list from the provider, routes tools/call to
// serveToolCall through the SDK, and hands every other method to the SDK.
func (s *Server) mcpMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctx, err := s.requestContext(ctx, req.GetExtra())
		if err != nil {
			return nil, err
		}
		switch method {
		case "tools/list":
			return s.listMCPTools(ctx, req)
		case "tools/call":
			r := req.(*mcp.CallToolRequest)
			if !s.mcp.registered[r.Params.Name] {
				p := *r.Params
				p.Name = dispatchTool.Name
				ctx = context.WithValue(ctx, dispatchKey{}, r.Params.Name)
				req = &mcp.CallToolRequest{Session: r.Session, Params: &p, Extra: r.Extra}
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

// listMCPTools answers tools/list from the provider, in its order.
func (s *Server) listMCPTools(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	tools, err := s.tools(context.WithValue(ctx, mcpCallKey{}, &mcpCall{srv: s, session: ss}))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgProviderFailed}
	}
	res := &mcpToolList{Tools: make([]mcpTool, len(tools))}
	for i := range tools {
		res.Tools[i] = s.mcpTool(&tools[i])
	}
	s.setCacheable(ctx, req, &res.Cacheable)
	if s.static == nil {
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
	mcp.ListToolsResult
	Tools []mcpTool `json:"tools"`
}

type mcpTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
}

func (s *Server) mcpTool(t *Tool) mcpTool {
	mt := mcpTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: inputSchema(t)}
	if !t.Annotations.IsZero() {
		mt.Annotations = t.Annotations
	}
	mt.OutputSchema = s.compiled.get(t).output.schema
	return mt
}

// randomKey returns n random bytes.
func randomKey(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b
}
