package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yosida95/uritemplate/v3"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// DefaultMaxBodyBytes is the request body limit when Options leaves it zero.
const DefaultMaxBodyBytes = 1 << 20

// DefaultTitle is the explorer page's title (and the OpenAPI document's)
// when Options.Title is empty.
const DefaultTitle = "MCP Tool Explorer"

// Options configures a [Server]. The zero value (and a nil *Options) is a
// safe default: execution from the explorer disabled, no auth, 1 MiB bodies,
// no per-call timeout, slog's default logger.
//
// The fields are grouped by what they configure: the server's identity,
// every call on every surface, what the server offers besides its tools,
// the invocation history, then one struct per surface.
type Options struct {
	// Name, Title and Version identify the server: MCP's serverInfo,
	// /health's version, the OpenAPI document's info. Name and Version
	// default to the main module's path and version from the build
	// information (debug.ReadBuildInfo). Title is also the explorer page's
	// title, which defaults to [DefaultTitle].
	Name, Title, Version string
	// ToolVersion is the version every surface serves for a tool that
	// declares none of its own (Tool.Version): MCP's tools/list _meta,
	// the explorer, OXP's ids, /v1 and the OpenAPI document. Default
	// "1.0.0".
	ToolVersion string

	// AllowExecute enables the explorer's POST /tools/{name}/call. Off by
	// default, so that serving the explorer never lets a visitor run a
	// tool by accident. The protocol surfaces (MCP, OXP, /v1) execute when
	// mounted, behind AuthHook.
	AllowExecute bool
	// AuthHook, when set, authenticates every call; see [AuthHook].
	AuthHook AuthHook
	// OAuth, when set, makes the server an OAuth 2.1 resource server as
	// MCP's authorization spec describes: it serves its protected resource
	// metadata at /.well-known/oauth-protected-resource, and unless
	// AuthHook is set, OAuth.Hook() is the auth hook.
	OAuth *OAuthOptions
	// Tracer, when set, traces every tool call on every surface, its
	// steps, and MCP's other requests: runtime/otel's for OpenTelemetry
	// (which serve.Main sets up when a program imports it).
	Tracer Tracer
	// Middleware wraps every tool call on every surface (see
	// [Server.Invoke]), the first outermost: Middleware[0] sees a call
	// first and its outcome last.
	Middleware []Middleware
	// CallTimeout bounds each tool call; when it passes the caller gets an
	// isError result saying so (HTTP 504). Zero means no limit.
	CallTimeout time.Duration
	// MaxBodyBytes limits request bodies; larger ones get 413. Zero means
	// [DefaultMaxBodyBytes]; a negative value means no limit.
	MaxBodyBytes int64
	// Secrets looks up the secrets tools declare (Tool.Secrets) when the
	// call does not carry them itself. Default: the environment
	// ([EnvSecrets]).
	Secrets SecretSource
	// TrustedOrigins are web origins ("https://app.example.com") whose pages
	// may send requests that change state (POST, DELETE: calling a tool)
	// from a browser. By default the server refuses every cross-origin
	// browser request of that kind (Sec-Fetch-Site, else Origin, as
	// http.CrossOriginProtection reads them) with a 403: a page the user
	// visits could otherwise run tools blind. Requests without those
	// headers (curl, SDK clients, servers) are not affected. Trust only
	// origins whose every page you would let call your tools.
	TrustedOrigins []string
	// AllowedHosts are Host header values (a name, or name:port) accepted
	// on requests that arrive on a loopback address, besides loopback
	// names and addresses. By default such a request for any other host is
	// refused with a 403: it is how a DNS-rebinding page reaches a server
	// on 127.0.0.1. Name the public host here when a reverse proxy on the
	// same machine forwards to a loopback listener; "*" turns the check
	// off, which lets any web page reach a loopback server by rebinding.
	AllowedHosts []string
	// Logger receives handler errors, panics and auth rejections. Default
	// slog.Default().
	Logger *slog.Logger

	// Prompts, Resources and ResourceTemplates are served as they are, on
	// MCP and in the explorer's Prompts and Resources tabs.
	Prompts           []Prompt
	Resources         []Resource
	ResourceTemplates []ResourceTemplate
	// Complete, when set, answers completion requests for prompt arguments
	// and resource template variables (MCP's completions capability).
	Complete func(ctx context.Context, req CompletionRequest) ([]string, error)

	// History records every tool call on every surface. Nil means a
	// bounded in-memory store ([history.NewMemory]); see
	// runtime/history/sqlite and runtime/history/postgres for stores that
	// persist. The server does not close it.
	History history.Store
	// RedactHistory, when set, edits each record (its input and result)
	// before it is stored: to drop personal data, say. It gets a copy of
	// the record; replace its Input or Result rather than write into their
	// bytes, which are the call's own.
	RedactHistory func(*history.Record)
	// HistoryTimeout bounds each history write; past it the write is
	// abandoned and logged. Default [DefaultHistoryTimeout]. A pending
	// record that cannot be written refuses the call (history fails
	// closed); a completion is retried until the timeout.
	HistoryTimeout time.Duration
	// HistoryBestEffort serves a call whose pending record cannot be
	// written, unrecorded (logged and counted), instead of refusing it.
	// Off by default: an audit log that misses calls is worse than a
	// call refused with "retry".
	HistoryBestEffort bool

	// ApprovalTimeout bounds how long a call of a tool that needs an
	// operator's approval (Tool.Approval) waits for one; past it the call
	// fails, unrun. Default [DefaultApprovalTimeout]. It is also the
	// approval request's timeout, rounded up to whole seconds.
	ApprovalTimeout time.Duration
	// ApproveDestructive makes every tool whose annotations mark it
	// destructive (DestructiveHint true) need an operator's approval,
	// unless it declares an Approval of its own.
	ApproveDestructive bool
}

// Server is the core every surface shares: the tools, the pipeline
// ([Server.Invoke]), policy, identity and the history. It is not an
// [http.Handler]: each surface is one, built from it in a package of its
// own (runtime/oxp, ...), and serve.NewHandler mounts them all.
type Server struct {
	provider ToolsProvider
	opts     Options
	log      *slog.Logger
	compiled toolCache
	invoke   atomic.Pointer[InvokeFunc] // the pipeline wrapped in the middleware (buildChain)
	ext      extensions
	// static indexes a ToolList by name, built once in NewServer; nil for
	// other providers, which are asked on every request.
	static map[string]*Tool
	// notifiers are the surfaces told of changes (AddNotifier).
	notifyMu  sync.Mutex
	notifiers []Notifier

	history     history.Store
	storeErrors sync.Map // op → *atomic.Uint64
	limiter     limiter
	writes      writeHealth
	waiters     approvalWaiters // calls waiting here for an approval
	search      searchIndexes   // SearchTools' indexes
}

// NewServer returns a server for p's tools. A nil opts means defaults.
//
// When p is a [ToolList], NewServer checks its names and handlers once.
// A tool's schemas are read when it is first used (called, listed,
// described), once: a server of a thousand tools starts in under a
// millisecond and pays for each tool when it serves it. A schema that the
// fast checker covers (what toolgen generates) is known to compile, and
// its validator is compiled on the first call with arguments the fast
// checker does not accept; any other schema is compiled at the tool's
// first use, and a schema that does not compile is reported to every call
// of its tool. NewServer panics on a tool without a name or handler, or on
// a duplicate name, as http.ServeMux does for conflicting patterns: these
// are programming errors.
func NewServer(p ToolsProvider, opts *Options) *Server {
	s := &Server{provider: p}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.MaxBodyBytes == 0 {
		s.opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if s.opts.AuthHook == nil && s.opts.OAuth != nil {
		s.opts.AuthHook = s.opts.OAuth.Hook()
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.Default()
	}
	if list, ok := p.(ToolList); ok {
		s.static = make(map[string]*Tool, len(list))
		for i := range list {
			t := &list[i]
			if err := checkTool(t); err != nil {
				panic("runtime.NewServer: " + err.Error())
			}
			if _, dup := s.static[t.Name]; dup {
				panic(fmt.Sprintf("runtime.NewServer: duplicate tool name %q", t.Name))
			}
			s.static[t.Name] = t
		}
	}
	s.warnUnenforced()
	s.history = s.opts.History
	if s.history == nil {
		s.history = history.NewMemory(history.Retention{})
	}
	s.warnUnapprovable()
	s.buildChain()
	s.checkOptions()
	return s
}

func checkTool(t *Tool) error {
	if t.Name == "" {
		return errors.New("tool with an empty name")
	}
	if !ValidToolName(t.Name) {
		return fmt.Errorf("invalid tool name %q: use 1 to 128 letters, digits, '_', '-' or '.'", t.Name)
	}
	if t.Handler == nil {
		return fmt.Errorf("tool %q has no handler", t.Name)
	}
	return nil
}

// checkOptions panics on a trusted origin that is not an origin, and on a
// prompt, resource or resource template that cannot be served:
// programming errors, as a tool without a handler is. (The surfaces would
// find them later, each when it is built.)
func (s *Server) checkOptions() {
	if _, err := httpkit.CrossOriginProtection(s.opts.TrustedOrigins); err != nil {
		panic("runtime.NewServer: " + err.Error())
	}
	for _, p := range s.opts.Prompts {
		if p.Name == "" || p.Handler == nil {
			panic(fmt.Sprintf("runtime.NewServer: prompt %q without a name or a handler", p.Name))
		}
	}
	for _, r := range s.opts.Resources {
		if r.URI == "" || r.Read == nil {
			panic(fmt.Sprintf("runtime.NewServer: resource %q without a URI or a Read function", r.Name))
		}
	}
	for _, t := range s.opts.ResourceTemplates {
		if _, err := uritemplate.New(t.URITemplate); err != nil || t.Read == nil {
			panic(fmt.Sprintf("runtime.NewServer: resource template %q: invalid template or no Read function (%v)", t.URITemplate, err))
		}
	}
}

// FixedList reports whether the server's provider is a [ToolList]: the
// same tools for every request and every caller.
func (s *Server) FixedList() bool { return s.static != nil }

// ToolVersion is the version every surface serves for t: its own, else
// Options.ToolVersion, else "1.0.0".
func (s *Server) ToolVersion(t *Tool) string {
	switch {
	case t.Version != "":
		return t.Version
	case s.opts.ToolVersion != "":
		return s.opts.ToolVersion
	}
	return "1.0.0"
}

// Logger is the logger the server logs to: Options.Logger, else
// slog.Default().
func (s *Server) Logger() *slog.Logger { return s.log }

// Options returns the options the server was built with, defaults filled
// in (MaxBodyBytes, the OAuth hook). A surface reads them once, when it
// is built; changing the copy changes nothing.
func (s *Server) Options() Options { return s.opts }

// Lookup finds a tool by name: nil with a nil error when there is no
// such tool; err is the provider's failure.
func (s *Server) Lookup(ctx context.Context, name string) (*Tool, error) {
	if s.static != nil {
		return s.static[name], nil
	}
	tools, err := s.Tools(ctx)
	if err != nil {
		return nil, err
	}
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i], nil
		}
	}
	return nil, nil
}

// Tools asks the provider for its Tools, once per HTTP request however
// often the request's handling asks, dropping (and logging) any that could
// not be served. A provider's failure is logged here, once; the surfaces
// only answer it.
func (s *Server) Tools(ctx context.Context) ([]Tool, error) {
	if s.static != nil {
		return s.provider.Tools(ctx)
	}
	st := httpkit.StateFrom(ctx)
	if st == nil {
		return s.listProvider(ctx)
	}
	// A batch of MCP messages in one request may be handled at once.
	st.Mu.Lock()
	defer st.Mu.Unlock()
	if !st.Listed {
		st.Tools, st.Err = s.listProvider(ctx)
		st.Listed = true
	}
	tools, _ := st.Tools.([]Tool)
	return tools, st.Err
}

func (s *Server) listProvider(ctx context.Context) ([]Tool, error) {
	tools, err := s.provider.Tools(ctx)
	if err != nil {
		s.log.ErrorContext(ctx, "tools provider failed", "err", err)
		return nil, fmt.Errorf("list tools: %w", err)
	}
	seen := make(map[string]bool, len(tools))
	out := tools[:0:0]
	for i := range tools {
		t := &tools[i]
		if err := checkTool(t); err != nil {
			s.log.ErrorContext(ctx, "provider returned an unusable tool", "err", err)
			continue
		}
		if seen[t.Name] {
			s.log.ErrorContext(ctx, "provider returned a duplicate tool; the first one is served", "tool", t.Name)
			continue
		}
		seen[t.Name] = true
		out = append(out, *t)
	}
	s.compiled.prune(out)
	return out, nil
}

// RequestFromContext returns the HTTP request a tool call came in on, when
// it came over HTTP.
func RequestFromContext(ctx context.Context) (*http.Request, bool) {
	if st := httpkit.StateFrom(ctx); st != nil && st.Req != nil {
		return st.Req, true
	}
	return nil, false
}
