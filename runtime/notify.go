package runtime

import (
	"context"
	"errors"
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

// AddNotifier adds n to those the server tells of its changes, for as
// long as the server lives.
func (s *Server) AddNotifier(n Notifier) {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.notifiers = append(s.notifiers, n)
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
