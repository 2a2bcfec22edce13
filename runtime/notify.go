package runtime

import (
	"context"
	"errors"
	"slices"
)

// Notifier is told of changes to what a server offers, to pass on to the
// clients of a surface that pushes them: runtime/mcp adds one for each
// handler it builds, which tells that handler's sessions. Its methods may
// be called concurrently.
type Notifier interface {
	// ToolsChanged: the tool list changed.
	ToolsChanged()
	// PromptsChanged: the prompt list changed.
	PromptsChanged()
	// ResourceUpdated: the resource at uri changed.
	ResourceUpdated(ctx context.Context, uri string) error
}

// AddNotifier adds n to those the server tells of its changes, until
// remove is called (a surface whose clients are gone: runtime/mcp's
// ServeIO when its input ends).
func (s *Server) AddNotifier(n Notifier) (remove func()) {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.notifiers = append(s.notifiers, n)
	return func() {
		s.notifyMu.Lock()
		defer s.notifyMu.Unlock()
		// A new slice: notifyAll's callers range over the old one.
		s.notifiers = slices.DeleteFunc(slices.Clone(s.notifiers), func(m Notifier) bool { return m == n })
	}
}

func (s *Server) notifyAll() []Notifier {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	return s.notifiers
}

// NotifyToolsChanged tells the clients of every surface that pushes
// changes (MCP's sessions) that the tool list changed. A function
// provider's changes are noticed on their own when a session next lists
// its tools; call this to tell clients at once.
func (s *Server) NotifyToolsChanged() {
	for _, n := range s.notifyAll() {
		n.ToolsChanged()
	}
}

// NotifyPromptsChanged tells the clients of every surface that pushes
// changes that the prompt list changed.
func (s *Server) NotifyPromptsChanged() {
	for _, n := range s.notifyAll() {
		n.PromptsChanged()
	}
}

// NotifyResourceUpdated tells the clients subscribed to uri that the
// resource changed.
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	var errs []error
	for _, n := range s.notifyAll() {
		errs = append(errs, n.ResourceUpdated(ctx, uri))
	}
	return errors.Join(errs...)
}
