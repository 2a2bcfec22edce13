package runtime

import (
	"context"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
)

// Policy on the tool: what a tool declares (Tool.Scopes, RateLimit,
// Timeout) is enforced here, by the pipeline, so that it is the same on
// every surface, and shows in every listing.

// ScopeError is why a call was refused for a caller's scopes: the tool
// needs Required, and the caller lacks Missing.
type ScopeError struct {
	Tool              string
	Required, Missing []string
}

// Error names the tool and the scopes the caller lacks.
func (e *ScopeError) Error() string {
	return fmt.Sprintf("Tool %s needs the scope %s, which this caller does not have.", e.Tool, strings.Join(e.Missing, " "))
}

// enforcesScopes reports whether scopes are checked: behind an auth hook
// only, as without one there is no caller to ask.
func (s *Server) enforcesScopes() bool { return s.opts.AuthHook != nil }

// checkScopes refuses a call to t by a caller (ctx's principal) that
// lacks one of its scopes.
func (s *Server) checkScopes(ctx context.Context, t *Tool) *ScopeError {
	if len(t.Scopes) == 0 || !s.enforcesScopes() {
		return nil
	}
	p, _ := PrincipalFromContext(ctx)
	var missing []string
	for _, sc := range t.Scopes {
		if p == nil || !slices.Contains(p.Scopes, sc) {
			missing = append(missing, sc)
		}
	}
	if missing == nil {
		return nil
	}
	return &ScopeError{Tool: t.Name, Required: t.Scopes, Missing: missing}
}

// Visible reports whether the caller ctx names may see t listed.
func (s *Server) Visible(ctx context.Context, t *Tool) bool {
	return s.checkScopes(ctx, t) == nil
}

// VisibleTools is what a caller sees of the provider's tools: the ones it
// may call. Every listing goes through it.
func (s *Server) VisibleTools(ctx context.Context) ([]Tool, error) {
	tools, err := s.Tools(ctx)
	if err != nil || !s.enforcesScopes() {
		return tools, err
	}
	var out []Tool
	for i := range tools {
		switch visible := s.Visible(ctx, &tools[i]); {
		case !visible && out == nil:
			out = append(make([]Tool, 0, len(tools)-1), tools[:i]...) // copied on the first one left out
		case visible && out != nil:
			out = append(out, tools[i])
		}
	}
	if out == nil {
		return tools, nil
	}
	return out, nil
}

// CallerKey is whose calls a rate limit counts, and whose sessions
// runtime/mcp's Options.MaxSessionsPerCaller counts: the caller's identity
// (callerID) on a server with an auth hook, else the client's address
// (without its port, which changes with every connection), else "" (a
// call made in process). It is the same key on every surface.
func (s *Server) CallerKey(ctx context.Context) string {
	if id := s.CallerID(ctx); id != "" {
		return "id:" + id
	}
	if r, ok := RequestFromContext(ctx); ok {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		return "addr:" + host
	}
	return ""
}

// DeclaredScopes are the scopes a fixed list's tools declare, each once,
// in the order they first appear.
func (s *Server) DeclaredScopes() []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(s.static)) {
		for _, sc := range s.static[name].Scopes {
			if !slices.Contains(out, sc) {
				out = append(out, sc)
			}
		}
	}
	return out
}

// warnUnenforced logs, once, that the tools' scopes are not enforced when
// the server has no auth hook to know a caller's.
func (s *Server) warnUnenforced() {
	if scopes := s.DeclaredScopes(); len(scopes) > 0 && !s.enforcesScopes() {
		s.log.Warn("tools declare scopes, but the server has no auth hook: scopes are not enforced, every caller may call every tool", "scopes", strings.Join(scopes, " "))
	}
}

// ScopeHistoryRead is the scope that lets a caller read every caller's
// invocations; without it, behind an auth hook, a caller reads its own.
const ScopeHistoryRead = "history:read"
