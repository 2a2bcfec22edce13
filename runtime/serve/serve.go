// Package serve is the whole main of a tool server: the command line every
// toolgen server shares, an HTTP server whose timeouts slow or idle
// clients cannot exhaust, and a graceful shutdown.
//
//	func main() {
//		serve.Main(Tools(), &runtime.Options{Title: "Weather tools"})
//	}
//
// The flags:
//
//	-addr HOST:PORT   where to listen (default 127.0.0.1:8080; port 0 picks one)
//	-allow-execute    let the Tool Explorer page run tools
//	-stdio            speak MCP on standard input and output instead of HTTP
//	-stateless        serve MCP without sessions (protocol revision 2026-07-28)
//	-tool-search      list MCP's meta-tools search_tools and call_tool
//	                  instead of the catalog (progressive discovery)
//	-call-timeout D   bound every tool call (a tool's own timeout wins)
//	-history DSN      where to record invocations: memory, a SQLite file
//	                  (PATH or sqlite:PATH), or a postgres:// URL
//	-history-max-rows N, -history-max-age D   retention of the records
//	-state-key-file F the key that seals MCP's input-required state
//	                  (default: $TOOLGEN_STATE_KEY); replicas share one
//
// By default a program that imports runtime/history/sqlite records into
// a SQLite file in the user's cache directory (printed at start); any
// other records in memory. A postgres:// URL needs runtime/history/postgres
// imported.
//
// It prints "Serving on http://HOST:PORT/" with the real port once it
// listens, and stops on SIGINT or SIGTERM, letting calls in flight finish.
//
// The guide to running a server (flags, SQLite and PostgreSQL, replicas
// behind HAProxy) is https://github.com/toolgen-go/toolgen/blob/main/docs/deploy.md.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

// Main parses the command line (os.Args) and serves p's tools until
// interrupted; it exits the process with status 2 for bad flags and 1 when
// it cannot serve. opts may be nil; the flags set AllowExecute (and the
// MCP surface's Stateless), and a nil Logger becomes a text logger on
// standard error.
// It serves [NewHandler]'s house; each of surfaces, called in order on
// its [Options], configures the surfaces:
//
//	serve.Main(tools, nil, func(o *serve.Options) { o.OXP.PublicListing = true })
func Main(p runtime.ToolsProvider, opts *runtime.Options, surfaces ...func(*Options)) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], p, opts, surfaces, os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, new(usageError)):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// usageError is a command line flag.Parse refused (it has printed why).
type usageError struct{ error }

// run is Main without the process: flags from args, output to stdout and
// stderr, stopping when ctx is done.
func run(ctx context.Context, args []string, p runtime.ToolsProvider, opts *runtime.Options, surfaces []func(*Options), stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(programName(), flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	allowExecute := fs.Bool("allow-execute", false, "let the Tool Explorer page run tools")
	stdio := fs.Bool("stdio", false, "speak MCP on standard input and output instead of serving HTTP")
	stateless := fs.Bool("stateless", false, "serve MCP without sessions, for replicas without sticky routing (revision 2026-07-28 is served so anyway)")
	toolSearch := fs.Bool("tool-search", false, "list MCP's meta-tools search_tools and call_tool instead of the catalog, for clients that cannot take it whole")
	callTimeout := fs.Duration("call-timeout", 0, "bound every tool call (0: the program's own setting; a tool's own timeout= wins)")
	historyDSN := fs.String("history", "", "where to record invocations: memory, a SQLite file (PATH or sqlite:PATH), or a postgres:// URL (default: a SQLite file in the cache directory when the program imports runtime/history/sqlite, else memory)")
	maxRows := fs.Int("history-max-rows", 0, "keep at most this many invocation records (0: no bound but the store's)")
	maxAge := fs.Duration("history-max-age", 0, "delete invocation records older than this (0: keep them)")
	stateKeyFile := fs.String("state-key-file", "", "read the key that seals MCP's input-required state from this file, the same on every replica (default: $"+EnvStateKey+")")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}

	var o runtime.Options
	if opts != nil {
		o = *opts
	}
	o.AllowExecute = *allowExecute
	if *callTimeout > 0 {
		o.CallTimeout = *callTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	}
	for _, setup := range setups() {
		shutdown, err := setup(ctx, &o)
		if err != nil {
			return err
		}
		if shutdown != nil {
			defer func() {
				// Flush what is buffered (spans, metrics) within a bound.
				sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				defer cancel()
				if err := shutdown(sctx); err != nil {
					o.Logger.Error("shutdown failed", "err", err)
				}
			}()
		}
	}
	key, err := stateKey(*stateKeyFile, os.Getenv(EnvStateKey))
	if err != nil {
		return err
	}
	var historyNote string
	if *historyDSN != "" || o.History == nil {
		dsn := *historyDSN
		if dsn == "" {
			dsn = defaultHistory(fs.Name())
		}
		store, err := history.Open(ctx, dsn, history.Retention{MaxRows: *maxRows, MaxAge: *maxAge})
		if err != nil {
			return fmt.Errorf("-history %s: %w", dsn, err)
		}
		defer store.Close()
		o.History = store
		historyNote = "History: " + dsn + "\n"
	}
	srv := runtime.NewServer(p, &o)
	var so Options
	for _, f := range surfaces {
		f(&so)
	}
	if *stateless {
		so.MCP.Stateless = true
	}
	if *toolSearch {
		so.MCP.ToolSearch = true
	}
	if err := so.MCP.Check(srv); err != nil {
		return err
	}
	if so.MCP.StateKey == nil {
		so.MCP.StateKey = key
	}
	if so.MCP.StateKey == nil && shared(o.History) {
		// A fleet: an input-required round may be retried on another
		// replica, which must open the state this one sealed.
		const msg = "the history store is shared by replicas, but MCP's input-required state is sealed with a key of this process alone: give every replica the same key with -state-key-file or $" + EnvStateKey
		if so.MCP.Stateless {
			return errors.New(msg + " (-stateless serves replicas without sticky routing)")
		}
		o.Logger.Warn(msg)
	}
	if *stdio {
		// Standard output is the protocol's: the logger writes to
		// standard error.
		if err := mcp.ServeStdio(ctx, srv, &so.MCP); err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Serving on http://%s/\n%s", ln.Addr(), historyNote)
	return Serve(ctx, ln, NewHandler(srv, &so), Timeouts{})
}

func programName() string {
	if len(os.Args) == 0 {
		return "server"
	}
	return strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
}

// defaultHistory is where a server records when -history is not given: a
// SQLite file in the user's cache directory, when the program can open
// one, else memory.
func defaultHistory(program string) string {
	if !history.Registered("sqlite") {
		return "memory"
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "memory"
	}
	dir = filepath.Join(dir, "toolgen", program)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "memory"
	}
	return "sqlite:" + filepath.Join(dir, "history.db")
}

// Timeouts bound what a slow or idle client can hold. Zero fields take the
// defaults. There is no bound on writing a response: MCP streams (a GET
// stream, a tool call answered as server-sent events) live as long as they
// need to.
type Timeouts struct {
	// Header bounds reading a request's headers. Default 10 s.
	Header time.Duration
	// Body bounds reading a request's body, from the end of its headers.
	// It ends when the body is read, so that a response streamed after it
	// is not cut. Default 30 s.
	Body time.Duration
	// Idle bounds a keep-alive connection's wait for its next request.
	// Default 2 min.
	Idle time.Duration
	// Shutdown bounds the wait for calls in flight on SIGINT or SIGTERM;
	// the connections still open then are closed. Default 10 s.
	Shutdown time.Duration
	// MaxHeaderBytes bounds the size of a request's headers. Default
	// 64 KiB.
	MaxHeaderBytes int
}

func (t Timeouts) withDefaults() Timeouts {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&t.Header, 10*time.Second)
	def(&t.Body, 30*time.Second)
	def(&t.Idle, 2*time.Minute)
	def(&t.Shutdown, 10*time.Second)
	if t.MaxHeaderBytes <= 0 {
		t.MaxHeaderBytes = 64 << 10
	}
	return t
}

// HTTPServer returns an http.Server for h with t's bounds, for a program
// that listens itself. Serve uses it.
func HTTPServer(h http.Handler, t Timeouts) *http.Server {
	t = t.withDefaults()
	return &http.Server{
		Handler:           bodyDeadline(h, t.Body),
		ReadHeaderTimeout: t.Header,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    t.MaxHeaderBytes,
	}
}

// Serve serves h on ln with t's bounds until ctx is done, then shuts down
// gracefully: it stops accepting, ends the event streams that clients hold
// open (their requests' contexts are cancelled), waits up to t.Shutdown
// for calls in flight, and closes what is left.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, t Timeouts) error {
	t = t.withDefaults()
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	hs := HTTPServer(endOnShutdown(h, streams), t)
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		endStreams()
		sctx, cancel := context.WithTimeout(context.Background(), t.Shutdown)
		defer cancel()
		err := hs.Shutdown(sctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = hs.Close()
		}
		done <- err
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-done
}

// endOnShutdown cancels the context of every GET for an event stream
// (MCP's standalone stream, which lasts as long as the session) and of
// every MCP subscriptions/listen (which lasts until its client leaves)
// once shutdown has begun, so that shutdown does not wait for them; the
// cause, http.ErrServerClosed, lets a listen end with its result. Calls,
// which end on their own, keep their context.
func endOnShutdown(h http.Handler, shutdown context.Context) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stream := r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/event-stream")
		listen := r.Method == http.MethodPost && r.Header.Get("Mcp-Method") == "subscriptions/listen"
		if !stream && !listen {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancelCause(r.Context())
		defer cancel(nil)
		stop := context.AfterFunc(shutdown, func() { cancel(http.ErrServerClosed) })
		defer stop()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// bodyDeadline gives each request with a body d to send it: a read
// deadline from when the handler starts, lifted once the body has been
// read to its end, so that it never cuts the response that follows.
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
			h.ServeHTTP(w, r)
			return
		}
		r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		h.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// Setup is what a package registers (with [Register]) to run when [Main]
// starts, after the flags are parsed and before the server is built: it
// may change opts (runtime/otel sets a Tracer and wraps the Logger), and
// returns what to run when Main returns (flush and stop), or nil.
type Setup func(ctx context.Context, opts *runtime.Options) (shutdown func(context.Context) error, err error)

var (
	setupMu  sync.Mutex
	setupFns []Setup
)

// Register adds a setup that Main runs, in the order registered. A
// package that configures servers when imported (runtime/otel) calls it
// from its init function, so that a program that does not import it
// links none of it.
func Register(s Setup) {
	setupMu.Lock()
	defer setupMu.Unlock()
	setupFns = append(setupFns, s)
}

func setups() []Setup {
	setupMu.Lock()
	defer setupMu.Unlock()
	return slices.Clone(setupFns)
}

// EnvStateKey is the environment variable that gives the key that seals
// MCP's input-required state (mcp.Options.StateKey) when -state-key-file
// does not: the same on every replica of a fleet, at least 16 bytes (say
// 32 random bytes in base64). Leading and trailing white space is not
// part of it.
const EnvStateKey = "TOOLGEN_STATE_KEY"

// stateKey is the key from file, else from env; nil for none.
func stateKey(file, env string) ([]byte, error) {
	from, key := "$"+EnvStateKey, []byte(env)
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("-state-key-file: %w", err)
		}
		from, key = "-state-key-file "+file, b
	}
	key = []byte(strings.TrimSpace(string(key)))
	switch {
	case len(key) == 0 && file == "":
		return nil, nil
	case len(key) < 16:
		return nil, fmt.Errorf("%s: the state key is %d bytes, want at least 16 (for example: openssl rand -base64 32)", from, len(key))
	}
	return key, nil
}

// shared reports whether a history store is one replicas share: one
// through which they signal each other (the PostgreSQL store).
func shared(st history.Store) bool {
	_, ok := st.(history.Bus)
	return ok
}
