package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of the MCP sessions of Streamable HTTP, when MCPOptions leaves
// them zero.
const (
	DefaultSessionIdleTimeout = 5 * time.Minute
	DefaultMaxSessions        = 1000
)

// sessionTable knows, for each live Streamable HTTP session, who owns it
// and when it was last used: to refuse it to anyone else, and to close the
// least recently used one when a new session would pass MaxSessions. The
// SDK closes idle sessions itself (StreamableHTTPOptions.SessionTimeout);
// the table forgets them when it next needs room.
type sessionTable struct {
	max     int // <= 0: no limit
	mu      sync.Mutex
	m       map[string]*sessionEntry
	sweepAt int           // the size at which to forget closed sessions next...
	every   time.Duration // ... or the time since the last time (the idle timeout)
	swept   time.Time
}

type sessionEntry struct {
	owner string // "" when the server has no auth hook
	last  time.Time
}

// use notes a request on session sid by owner. It reports false when the
// session belongs to another owner. An unknown sid is the SDK's to refuse.
func (t *sessionTable) use(sid, owner string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.m[sid]
	if e == nil {
		return true
	}
	if e.owner != owner {
		return false
	}
	e.last = time.Now()
	return true
}

func (t *sessionTable) add(sid, owner string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]*sessionEntry)
	}
	t.m[sid] = &sessionEntry{owner: owner, last: time.Now()}
}

func (t *sessionTable) forget(sid string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, sid)
}

func (t *sessionTable) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}

// makeRoom readies the table for one more session. Once it has grown
// enough since it last looked, or an idle timeout has passed since, it
// forgets the sessions the SDK has closed (so that it shrinks with them,
// at a cost spread over the sessions added); and when it is full it
// returns the least recently used session's id, for the caller to close.
func (t *sessionTable) makeRoom(srv *mcp.Server) (evict string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	full := t.max > 0 && len(t.m) >= t.max
	if !full && len(t.m) < t.sweepAt && (t.every <= 0 || time.Since(t.swept) < t.every) {
		return ""
	}
	t.swept = time.Now()
	live := make(map[string]bool, len(t.m))
	for ss := range srv.Sessions() {
		live[ss.ID()] = true
	}
	for sid := range t.m {
		if !live[sid] {
			delete(t.m, sid)
		}
	}
	t.sweepAt = 2*len(t.m) + 64
	if t.max <= 0 || len(t.m) < t.max {
		return ""
	}
	var oldest time.Time
	for sid, e := range t.m {
		if evict == "" || e.last.Before(oldest) {
			evict, oldest = sid, e.last
		}
	}
	delete(t.m, evict)
	return evict
}

// closeSession closes the server's session with the given id.
func closeSession(srv *mcp.Server, sid string) {
	for ss := range srv.Sessions() {
		if ss.ID() == sid {
			_ = ss.Close()
			return
		}
	}
}

// sessionOwner is whom a session opened by an authenticated request
// belongs to: the principal's subject when the auth hook names one, else a
// fingerprint of the credentials the request carried (the headers an auth
// hook reads: Authorization, cookies, and any header whose name speaks of
// a key, token or auth), so that a session is never bound to no one.
func sessionOwner(r *http.Request, p *Principal) string {
	if p != nil && p.Subject != "" {
		return "sub:" + p.Subject
	}
	names := make([]string, 0, len(r.Header))
	for name := range r.Header {
		if credentialHeader(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		for _, v := range r.Header[name] {
			h.Write([]byte(strings.ToLower(name)))
			h.Write([]byte{0})
			h.Write([]byte(v))
			h.Write([]byte{0})
		}
	}
	return "key:" + hex.EncodeToString(h.Sum(nil))
}
