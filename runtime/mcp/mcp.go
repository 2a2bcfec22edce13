package mcp

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/http"
	"net/url"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
)

// DefaultPath is where runtime/serve mounts Streamable HTTP.
const DefaultPath = "/mcp"

// Options configures the MCP surface. The zero value (and a nil *Options)
// is the default: sessions for clients of revisions before 2026-07-28,
// answers in SSE streams, the registry resources, the default bounds.
type Options struct {
	// Disable and Path are read by runtime/serve, which mounts
	// [NewHandler] at Path (default [DefaultPath]) unless Disable is set.
	// NewHandler itself serves whatever path it is mounted on.
	Disable bool
	Path    string
	// Stateless serves Streamable HTTP without sessions: each request
	// stands alone. It is how protocol revision 2026-07-28 is served (older
	// clients are served too, one request at a time). A request of that
	// revision that needs the client (elicitation, sampling, roots) is
	// answered with an input-required result and retried by the client;
	// tools use the same ctx helpers either way (see [Ask]). Older clients
	// of a stateless server cannot be asked anything: the helpers report
	// [runtime.ErrUnsupported].
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
	// MaxSessionsPerCaller bounds the sessions (and apart from them the
	// /sse streams) of one caller: its identity behind an auth hook, else
	// its client address. A caller who opens more loses its own least
	// recently used, never another caller's. Zero means
	// [DefaultMaxSessionsPerCaller], at most MaxSessions; negative, no
	// bound but MaxSessions.
	MaxSessionsPerCaller int
	// SSEPath is where runtime/serve mounts [NewSSEHandler], the HTTP+SSE
	// transport of protocol 2024-11-05 for clients that predate
	// Streamable HTTP. Default [DefaultSSEPath]. DisableSSE leaves it
	// out.
	SSEPath    string
	DisableSSE bool
	// Instructions tell a client's model how to use the server.
	Instructions string
	// StateKey seals the requestState of input-required results (AES-GCM):
	// the answers a tool already has travel with the client between
	// rounds, encrypted and tamper-proof. Servers behind a load balancer
	// share one key; its SHA-256 is the AES-256 key. Default: a random
	// key, so a state only works on the process that issued it.
	StateKey []byte
	// TaskTTL is how long an MCP task can be read after it was created
	// (its ttlMs); a task still running then is stopped. Zero means
	// [DefaultTaskTTL]. TaskPollInterval is how often a client is asked
	// to poll it (pollIntervalMs); zero means [DefaultTaskPollInterval].
	TaskTTL, TaskPollInterval time.Duration

	// RegistryScheme is the URI scheme of the tool registry resources,
	// SCHEME://tools and SCHEME://tool/{name}. Default "toolgen".
	RegistryScheme string
	// DisableRegistry leaves the registry resources out.
	DisableRegistry bool
}

// server is the MCP side of a runtime.Server, as one constructor of this
// package built it: its go-sdk server, sessions, tasks and sealer.
type server struct {
	core  *runtime.Server
	opts  runtime.Options // the core's, as it was built
	mopts Options
	log   *slog.Logger
	kit   *httpkit.Kit
	// fixed reports whether the provider is a runtime.ToolList: the same
	// tools for every request and caller.
	fixed bool

	sdkSrv *sdk.Server
	// sessions knows the owner and last use of each HTTP session; sse, of
	// each open /sse stream.
	sessions sessionTable
	sse      sseStreams
	// listed holds, per session (weakly), the fingerprint of the tool list
	// the provider last gave for it, to notice changes.
	listed sync.Map // weak.Pointer[sdk.ServerSession] → uint64
	// stateless serves the requests of revision 2026-07-28 (and all of
	// them with Options.Stateless); stateful, with sessions, the rest
	// (nil with Options.Stateless). sseHandler serves /sse.
	stateless, stateful, sseHandler http.Handler
	// registry is what the SDK's registry holds (see registerTools),
	// filled once, by the first use of the SDK's server (see sdk).
	registry     registry
	registerOnce sync.Once
	// sealer seals and opens the requestState of input-required results.
	sealer *stateSealer
	// tasks are the MCP tasks this server runs (mcptasks.go).
	tasks taskTable
	// fast is the fast path of MCP 2026-07-28 (mcpfast.go).
	fast fastState
	// impl is the server's identity, as the SDK's server was given it
	// (the fast path's results carry it too).
	impl *sdk.Implementation
}

// newServer builds the MCP side of core. Each constructor of this package
// builds its own, told of the core's changes (NotifyToolsChanged, ...)
// through runtime.Server.AddNotifier: build a handler once, not per
// request.
func newServer(core *runtime.Server, opts *Options) *server {
	s := &server{core: core, opts: core.Options(), log: core.Logger(), kit: surface.Kit(core), fixed: core.FixedList()}
	if opts != nil {
		s.mopts = *opts
	}
	o := &s.mopts
	impl := &sdk.Implementation{Name: core.Name(), Title: s.opts.Title, Version: core.Version()}
	so := &sdk.ServerOptions{
		Instructions: o.Instructions,
		// The tools capability is declared here as the registry may be
		// empty (a provider that is not a fixed list); logging is the
		// SDK's default, which setting Capabilities replaces.
		Capabilities: &sdk.ServerCapabilities{
			//lint:ignore SA1019 deprecated in MCP 2026-07-28 but supported (see session.go)
			Logging: &sdk.LoggingCapabilities{},
			Tools:   &sdk.ToolCapabilities{ListChanged: true},
			// MCP tasks at protocol 2026-07-28 (mcptasks.go).
			Extensions: map[string]any{tasksExtension: map[string]any{}},
		},
		SetCacheable: s.setCacheable,
	}
	if len(s.opts.Resources) > 0 || len(s.opts.ResourceTemplates) > 0 || !o.DisableRegistry {
		so.SubscribeHandler = s.subscribe
		so.UnsubscribeHandler = func(context.Context, *sdk.UnsubscribeRequest) error { return nil }
	}
	if s.opts.Complete != nil {
		so.CompletionHandler = s.complete
	}
	m := sdk.NewServer(impl, so)
	m.AddReceivingMiddleware(s.mcpMiddleware)
	s.sdkSrv, s.impl, s.sealer = m, impl, newStateSealer(o.StateKey)
	s.sessions.max = o.MaxSessions
	if o.MaxSessions == 0 {
		s.sessions.max = DefaultMaxSessions
	}
	s.sessions.per = o.MaxSessionsPerCaller
	if o.MaxSessionsPerCaller == 0 {
		s.sessions.per = DefaultMaxSessionsPerCaller
		if m := s.sessions.max; m > 0 && m < s.sessions.per {
			s.sessions.per = m
		}
	}
	s.sse.max = s.sessions.max
	s.sse.per = s.sessions.per
	for i := range s.opts.Prompts {
		s.addPrompt(&s.opts.Prompts[i])
	}
	for i := range s.opts.Resources {
		s.addResource(&s.opts.Resources[i])
	}
	for i := range s.opts.ResourceTemplates {
		s.addResourceTemplate(&s.opts.ResourceTemplates[i])
	}
	if !o.DisableRegistry {
		s.addRegistry()
	}
	core.AddNotifier(s)
	return s
}

// registry is what the SDK's registry holds: each tool registered, by
// the fingerprint of its descriptor, and the prompts, so that a change can
// be announced by registering one again.
type registry struct {
	mu      sync.Mutex
	tools   map[string]uint64
	last    *sdk.Tool // the tool registered last, registered again to announce a change
	prompts []*sdk.Prompt
	handler []sdk.PromptHandler
}

// registered reports whether the SDK's registry has a tool of that name.
func (s *server) registered(name string) bool {
	s.sdk()
	reg := &s.registry
	reg.mu.Lock()
	defer reg.mu.Unlock()
	_, ok := reg.tools[name]
	return ok
}

// callUnregistered answers a tools/call for a tool that is not in the
// SDK's registry: a tool of a provider that is not a fixed list, whose
// tools may differ with every request and every caller. Registering them
// as they come would tell every session that the list changed. The SDK
// marks the results of its own tools for the protocol revision; an
// input-required result is marked here.
func (s *server) callUnregistered(ctx context.Context, req *sdk.CallToolRequest) (sdk.Result, error) {
	res, err := s.serveToolCall(ctx, req)
	if err != nil || len(res.InputRequests) == 0 {
		return res, err
	}
	return inputRequiredResult{res}, nil
}

// inputRequiredResult is a CallToolResult marked "input_required".
type inputRequiredResult struct{ *sdk.CallToolResult }

func (r inputRequiredResult) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(r.CallToolResult)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["resultType"] = json.RawMessage(`"input_required"`)
	return json.Marshal(m)
}

// registerTools puts every tool of a fixed list in the SDK's registry,
// served by serveToolCall, so that the SDK does for them what it does for
// its own: dispatch tools/call, check Mcp-Param-* headers (x-mcp-header),
// mark results for the protocol revision, carry input-required results.
// tools/list stays toolgen's (see listMCPTools): schemas and hints exactly
// as generated, and only what the caller may see. The tools of a provider
// that is not a fixed list are not registered (see callUnregistered).
func (s *server) registerTools() {
	if !s.fixed {
		return
	}
	tools, _ := s.core.Tools(context.Background()) // a ToolList's, which cannot fail
	tools = slices.Clone(tools)
	slices.SortFunc(tools, func(a, b runtime.Tool) int { return strings.Compare(a.Name, b.Name) })
	for i := range tools {
		s.register(&tools[i])
	}
}

// register puts t in the SDK's registry unless it is there as it is, which
// makes the SDK tell every session that the list changed. It reports
// whether it did.
func (s *server) register(t *runtime.Tool) bool {
	reg := &s.registry
	sum := fingerprint([]runtime.Tool{*t})
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if old, ok := reg.tools[t.Name]; ok && old == sum {
		return false
	}
	mt := &sdk.Tool{Name: t.Name, InputSchema: runtime.EffectiveInputSchema(t)}
	err := func() (err error) {
		// The SDK panics on an input schema that is not an object's.
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("%v", v)
			}
		}()
		s.sdkSrv.AddTool(mt, s.serveToolCall)
		return nil
	}()
	if err != nil {
		s.log.Warn("tool served over MCP outside the SDK's registry, which refuses its input schema", "tool", t.Name, "err", err)
		return false
	}
	if reg.tools == nil {
		reg.tools = map[string]uint64{}
	}
	reg.tools[t.Name] = sum
	reg.last = mt
	return true
}

// setCacheable decides the caching hints (ttlMs, cacheScope) of every
// result that carries them. Results are never cached (ttlMs 0: the
// provider may change at any time); they are private to the caller when a
// hook authenticates the requests, public otherwise.
func (s *server) setCacheable(_ context.Context, _ sdk.Request, c *sdk.Cacheable) {
	if s.opts.AuthHook != nil {
		c.CacheScope = "private"
	}
}

// sdk is the SDK's server with the fixed list's tools in its registry.
// They are registered on first use rather than by NewServer: the SDK
// decodes each tool's input schema as it adds it (twice, into 32 KiB
// buffers), which made NewServer with 1,000 tools 10 to 20 times slower
// (BenchmarkNewServer), though most servers never serve MCP from many of
// them, and a REST-only server never from any.
func (s *server) sdk() *sdk.Server {
	s.registerOnce.Do(s.registerTools)
	return s.sdkSrv
}

// Connect serves MCP over t, any of the go-sdk's transports (an in-memory
// one in tests, a pipe), and returns the session it opened; the session
// ends when the client closes it. ServeStdio is Connect over standard
// input and output, waited for.
func Connect(ctx context.Context, srv *runtime.Server, opts *Options, t sdk.Transport) (*sdk.ServerSession, error) {
	return newServer(srv, opts).sdk().Connect(ctx, t, nil)
}

// ToolsChanged tells every session that the tool list changed
// (runtime.Server.NotifyToolsChanged).
func (s *server) ToolsChanged() {
	// The SDK sends notifications/tools/list_changed when its registry
	// changes and has no call to send one otherwise (an
	// sdk.Server.NotifyToolListChanged is missing): a tool is registered
	// again, as it is. A function provider's registry starts empty: one
	// of its tools is registered then (calls to it go through the SDK,
	// to serveToolCall, as the others' go through callUnregistered).
	s.sdk()
	reg := &s.registry
	reg.mu.Lock()
	last := reg.last
	reg.mu.Unlock()
	if last != nil {
		s.sdkSrv.AddTool(last, s.serveToolCall)
	} else if tools, err := s.core.Tools(context.Background()); err == nil && len(tools) > 0 {
		s.register(&tools[0])
	} else {
		s.log.Debug("tool list change not announced: no tool to register", "err", err)
	}
	if !s.mopts.DisableRegistry {
		// The registry's list of tools changed with them.
		_ = s.sdkSrv.ResourceUpdated(context.Background(), &sdk.ResourceUpdatedNotificationParams{URI: s.registryURI("tools")})
	}
}

// PromptsChanged tells every session that the prompt list changed
// (runtime.Server.NotifyPromptsChanged). Like ToolsChanged, it registers a
// prompt again (the SDK has no Server.NotifyPromptListChanged); a server
// without prompts has no list to change.
func (s *server) PromptsChanged() {
	reg := &s.registry
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if n := len(reg.prompts); n > 0 {
		s.sdkSrv.AddPrompt(reg.prompts[n-1], reg.handler[n-1])
	}
}

// ResourceUpdated tells the sessions subscribed to uri that the resource
// changed (runtime.Server.NotifyResourceUpdated).
func (s *server) ResourceUpdated(ctx context.Context, uri string) error {
	return s.sdkSrv.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: uri})
}

// noticeToolChanges compares the tools a provider that is not a fixed list
// gave for an MCP session with what it gave for the same session before:
// when they changed, that session's client (and any other) is told to list
// them again. Comparing per session keeps a provider whose tools depend on
// the caller from looking like one that keeps changing.
func (s *server) noticeToolChanges(ss *sdk.ServerSession, tools []runtime.Tool) {
	if s.fixed || ss == nil || ss == s.fast.session {
		return // the fast path's one session stands for a request's own
	}
	key := weak.Make(ss)
	sum := fingerprint(tools)
	old, seen := s.listed.Swap(key, sum)
	if !seen {
		goruntime.AddCleanup(ss, func(k weak.Pointer[sdk.ServerSession]) { s.listed.Delete(k) }, key)
	} else if old.(uint64) != sum {
		s.ToolsChanged()
	}
}

// noticeChanges notices, after a request of a session that listed or
// called tools, whether the provider's tools changed for that session
// (noticeToolChanges). Over HTTP the provider is not asked again: a
// request asks it once (runtime.Server.Tools).
func (s *server) noticeChanges(ctx context.Context, req sdk.Request) {
	ss, _ := req.GetSession().(*sdk.ServerSession)
	if ss == nil || ss == s.fast.session {
		return
	}
	if tools, err := s.core.Tools(ctx); err == nil {
		s.noticeToolChanges(ss, tools)
	}
}

// fingerprint hashes what a client sees of a tool list.
func fingerprint(tools []runtime.Tool) uint64 {
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

// owner is whom a session or a requestState opened in ctx belongs to: its
// caller's identity (callerID), "" when the server has no auth hook.
func (s *server) owner(ctx context.Context) string {
	if s.opts.AuthHook == nil {
		return ""
	}
	return s.core.CallerID(ctx)
}

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
		if st := httpkit.StateFrom(ctx); st != nil {
			return httpkit.NewContext(ctx, &httpkit.State{Req: st.Req, RequestID: st.RequestID, CorrelationID: st.CorrelationID}), nil
		}
		return ctx, nil // stdio, in memory: no HTTP, no hook
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
		ctx, end := s.opts.Tracer.StartRequest(ctx, mcpInfo(method, name, req))
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

// listMCPTools answers tools/list from the provider, in its order.
func (s *server) listMCPTools(ctx context.Context, req sdk.Request) (sdk.Result, error) {
	ss, _ := req.GetSession().(*sdk.ServerSession)
	tools, err := s.core.VisibleTools(runtime.WithClientSession(ctx, &mcpCall{srv: s, session: ss}))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
	}
	res := &mcpToolList{Tools: make([]mcpTool, len(tools))}
	for i := range tools {
		res.Tools[i] = s.mcpTool(&tools[i])
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

// randomKey returns n random bytes.
func randomKey(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b
}
