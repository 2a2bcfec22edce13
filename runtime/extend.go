package runtime

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// What the packages built on the core (the surfaces, runtime/ops's
// metrics) attach to a server after NewServer: middleware of their own,
// state every handler of one server shares, per-tool state, and what the
// core counts for them to report.

// extensions is the state packages keep with a server (Extension).
type extensions struct {
	mu    sync.Mutex   // guards added
	added []Middleware // AddMiddleware's, the first outermost

	valuesMu sync.Mutex // guards values; held while one is made, which may add middleware
	values   map[any]any
}

// AddMiddleware wraps every call the server runs from now on in mw, as
// Options.Middleware does: inside the recording of the call (history
// keeps what the caller got), outside Options.Middleware, the first
// added outermost. It is how a package that is handed a built server
// counts its calls (runtime/ops's metrics, once per server): the go-sdk's
// Server.AddReceivingMiddleware in this core's terms. It is safe to call
// while the server serves; a call in flight keeps the chain it began
// with.
func (s *Server) AddMiddleware(mw ...Middleware) {
	s.ext.mu.Lock()
	defer s.ext.mu.Unlock()
	s.ext.added = append(s.ext.added, mw...)
	s.buildChain()
}

// buildChain makes the pipeline wrapped in every middleware: the tracer's
// span outermost (it holds the history writes), then the recording, then
// AddMiddleware's, then Options.Middleware. Under s.ext.mu, or in
// NewServer.
func (s *Server) buildChain() {
	mw := make([]Middleware, 0, 1+len(s.ext.added)+len(s.opts.Middleware))
	mw = append(mw, s.record)
	mw = append(mw, s.ext.added...)
	mw = append(mw, s.opts.Middleware...)
	f := chain(s.pipeline, mw)
	if s.opts.Tracer != nil {
		f = s.traced(f)
	}
	s.invoke.Store(&f)
}

// Extension returns the value kept with the server under key, made by
// newV the first time it is asked for (once, under a lock): state that
// every handler built from the server shares, such as the metrics that
// count its calls, however many handlers a program mounts. key should be
// of a type of the caller's own, as a context key is.
func (s *Server) Extension(key any, newV func() any) any {
	s.ext.valuesMu.Lock()
	defer s.ext.valuesMu.Unlock()
	if v, ok := s.ext.values[key]; ok {
		return v
	}
	if s.ext.values == nil {
		s.ext.values = map[any]any{}
	}
	v := newV()
	s.ext.values[key] = v
	return v
}

// ToolSlot names a place that middleware keeps per-tool state in
// (Outcome.ToolValue): a metrics middleware's series of each tool. Make
// one with NewToolSlot, once per middleware.
type ToolSlot struct{ i int }

var toolSlots atomic.Int64

// NewToolSlot returns a new, unused ToolSlot.
func NewToolSlot() ToolSlot { return ToolSlot{int(toolSlots.Add(1))} }

// ToolValue returns the value kept with the outcome's tool in slot, made
// by newV the first time: per-tool state of a middleware (the metrics
// series a tool's calls count in), found with the rest of what a call
// looks up once, without a map lookup or an allocation. It lasts as long
// as the tool's schemas stay the same. newV may be called twice by calls
// racing; one value is kept. Nil when the outcome has no tool the
// pipeline looked up (a middleware's own).
func (o *Outcome) ToolValue(slot ToolSlot, newV func() any) any {
	ct := o.derived()
	if ct == nil {
		return nil
	}
	return ct.values.get(slot.i, newV)
}

// Health reports whether the server can record calls: its history store
// answers a ping, and its last writes did not fail (a store may answer a
// ping and still refuse records: a disk with room for a byte). /health
// answers with it.
func (s *Server) Health(ctx context.Context) error {
	if err := s.history.Ping(ctx); err != nil {
		return err
	}
	if s.writes.failing(time.Now()) {
		return errors.New("the last writes of records failed")
	}
	return nil
}

// HistoryName names the server's history store, for a health report:
// the store's String, else "custom".
func (s *Server) HistoryName() string {
	if n, ok := s.history.(fmt.Stringer); ok {
		return n.String()
	}
	return "custom"
}

// Name is the server's name, as MCP's serverInfo gives it: Options.Name,
// else the main module's path from the build information.
func (s *Server) Name() string {
	if s.opts.Name != "" {
		return s.opts.Name
	}
	n, _ := buildIdentity()
	return n
}

// Version is the server's version, as MCP's serverInfo and /health give
// it: Options.Version, else the main module's from the build information.
func (s *Server) Version() string {
	if s.opts.Version != "" {
		return s.opts.Version
	}
	_, v := buildIdentity()
	return v
}

// StoreErrors are how many history store operations have failed, by
// operation ("start", "finish", "approval request", ...), since the
// server started: runtime/ops's metrics report them.
func (s *Server) StoreErrors() map[string]uint64 {
	out := map[string]uint64{}
	s.storeErrors.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Uint64).Load()
		return true
	})
	return out
}

// storeError counts a failed store operation.
func (s *Server) storeError(op string) {
	v, ok := s.storeErrors.Load(op)
	if !ok {
		v, _ = s.storeErrors.LoadOrStore(op, new(atomic.Uint64))
	}
	v.(*atomic.Uint64).Add(1)
}

// valueList is a short list of values by slot, read without a lock; a new
// entry copies it. A server has a middleware or two that keep per-tool
// state.
type valueList struct {
	mu      sync.Mutex // serialises adding
	entries atomic.Pointer[[]valueItem]
}

type valueItem struct {
	key int
	v   any
}

// get returns the value of key k, made by newV the first time.
func (l *valueList) get(k int, newV func() any) any {
	if v, ok := l.find(k); ok {
		return v
	}
	v := newV()
	l.mu.Lock()
	defer l.mu.Unlock()
	if old, ok := l.find(k); ok {
		return old // a concurrent call added it
	}
	var list []valueItem
	if p := l.entries.Load(); p != nil {
		list = append(list, *p...)
	}
	list = append(list, valueItem{k, v})
	l.entries.Store(&list)
	return v
}

func (l *valueList) find(k int) (any, bool) {
	if p := l.entries.Load(); p != nil {
		for _, it := range *p {
			if it.key == k {
				return it.v, true
			}
		}
	}
	return nil, false
}

// History is the server's history store: Options.History, else the
// in-memory store NewServer made. The surfaces that read the history
// (/v1) read it here.
func (s *Server) History() history.Store { return s.history }

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
