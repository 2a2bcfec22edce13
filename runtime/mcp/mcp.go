package mcp

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"sync"
	"time"

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
	// ToolSearch lists two meta-tools instead of the catalog:
	// search_tools, which finds the tools that match a query, and
	// call_tool, which calls one by name (see toolsearch.go). A call of
	// a tool by its own name still works, for clients that know it. With
	// a ToolList, a tool named like a meta-tool is refused: NewHandler
	// panics, and runtime/serve's -tool-search says why and stops
	// ([Options.Check]).
	ToolSearch bool
	// PageSize is the most tools, prompts, resources or templates a page
	// of their list holds (default DefaultPageSize); a longer list pages
	// with cursors (paging.go).
	PageSize int
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
	// tasks are the MCP tasks this server runs (mcptasks.go); remote,
	// the questions of those other replicas run (taskmethods.go).
	tasks  taskTable
	remote remoteQuestions
	// listeners are the open subscriptions/listen streams (listen.go).
	listeners listeners
	// fast is the fast path of MCP 2026-07-28 (mcpfast.go).
	fast fastState
	// impl is the server's identity, as the SDK's server was given it
	// (the fast path's results carry it too); caps the capabilities it
	// was given, before it adds those of what it serves (discover).
	impl *sdk.Implementation
	caps *sdk.ServerCapabilities
	// release takes the server off the core's notifiers and the store's
	// bus: for a server whose clients are gone (ServeIO's, Connect's).
	release func()
}

// newServer builds the MCP side of core. Each constructor of this package
// builds its own, told of the core's changes (NotifyToolsChanged, ...)
// through runtime.Server.AddNotifier: build a handler once, not per
// request.
func newServer(core *runtime.Server, opts *Options) *server {
	return newServerWith(core, opts, nil)
}

// newServerWith is newServer, with sdkOpts adjusting the go-sdk server's
// options before it is made (nil: none).
func newServerWith(core *runtime.Server, opts *Options, sdkOpts func(*sdk.ServerOptions)) *server {
	s := &server{core: core, opts: core.Options(), log: core.Logger(), kit: surface.Kit(core), fixed: core.FixedList()}
	if opts != nil {
		s.mopts = *opts
	}
	if err := s.mopts.Check(core); err != nil {
		panic(err) // a programming error, as runtime.NewServer's duplicate names are
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
		PageSize:     s.pageSize(),
	}
	if len(s.opts.Resources) > 0 || len(s.opts.ResourceTemplates) > 0 || !o.DisableRegistry {
		so.SubscribeHandler = s.subscribe
		so.UnsubscribeHandler = func(context.Context, *sdk.UnsubscribeRequest) error { return nil }
	}
	if s.opts.Complete != nil {
		so.CompletionHandler = s.complete
	}
	s.caps = so.Capabilities
	if sdkOpts != nil {
		sdkOpts(so)
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
	removeNotifier := core.AddNotifier(s)
	stopListening := s.listenTasks()
	s.release = func() {
		removeNotifier()
		stopListening()
	}
	return s
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
	s := newServer(srv, opts)
	ss, err := s.sdk().Connect(ctx, t, nil)
	if err != nil {
		s.release()
		return nil, err
	}
	go func() {
		_ = ss.Wait()
		s.release()
	}()
	return ss, nil
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

// randomKey returns n random bytes.
func randomKey(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b
}
