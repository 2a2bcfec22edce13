package mcp

import (
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of the MCP sessions of Streamable HTTP, when Options leaves
// them zero.
const (
	DefaultSessionIdleTimeout   = 5 * time.Minute
	DefaultMaxSessions          = 1000
	DefaultMaxSessionsPerCaller = 100
)

// sessionTable knows, for each live Streamable HTTP session, who owns it
// and when it was last used: to refuse it to anyone else, and to close the
// least recently used one when a new session would pass MaxSessions. The
// SDK closes idle sessions itself (StreamableHTTPOptions.SessionTimeout);
// the table forgets them when it next needs room.
type sessionTable struct {
	max     int // <= 0: no limit
	per     int // the bound per caller; <= 0: none
	mu      sync.Mutex
	m       map[string]*sessionEntry
	sweepAt int           // the size at which to forget closed sessions next...
	every   time.Duration // ... or the time since the last time (the idle timeout)
	swept   time.Time
}

type sessionEntry struct {
	owner  string // "" when the server has no auth hook
	caller string // whose sessions it counts among (callerKey)
	last   time.Time
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

func (t *sessionTable) add(sid, owner, caller string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]*sessionEntry)
	}
	t.m[sid] = &sessionEntry{owner: owner, caller: caller, last: time.Now()}
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

// makeRoom readies the table for one more session of caller. Once it
// has grown enough since it last looked, or an idle timeout has passed
// since, it forgets the sessions the SDK has closed (so that it shrinks
// with them, at a cost spread over the sessions added); and it returns the
// id of the session to close to make room (see evictFor), if any.
func (t *sessionTable) makeRoom(srv *sdk.Server, caller string) (evict string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	full := t.max > 0 && len(t.m) >= t.max
	if !full && len(t.m) < t.sweepAt && (t.every <= 0 || time.Since(t.swept) < t.every) {
		if evict = t.evict(caller); evict != "" {
			delete(t.m, evict)
		}
		return evict
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
	if evict = t.evict(caller); evict != "" {
		delete(t.m, evict)
	}
	return evict
}

func (t *sessionTable) evict(caller string) string {
	return evictFor(t.m, caller, t.max, t.per, func(e *sessionEntry) (string, time.Time) { return e.caller, e.last })
}

// evictFor chooses the session of m to close so that one more of caller's
// fits: the caller's own least recently used once it has per of them, so
// that one caller who opens many loses its own and never another's; else
// the least recently used of all once m holds max. "" when there is room.
// (A scan of the table: it runs only when a session is opened.)
func evictFor[E any](m map[string]E, caller string, max, per int, of func(E) (caller string, last time.Time)) string {
	var own, lru string
	var ownLast, lruLast time.Time
	n := 0
	for sid, e := range m {
		c, last := of(e)
		if lru == "" || last.Before(lruLast) {
			lru, lruLast = sid, last
		}
		if c == caller {
			n++
			if own == "" || last.Before(ownLast) {
				own, ownLast = sid, last
			}
		}
	}
	switch {
	case per > 0 && n >= per:
		return own
	case max > 0 && len(m) >= max:
		return lru
	}
	return ""
}

// closeSession closes the server's session with the given id.
func closeSession(srv *sdk.Server, sid string) {
	for ss := range srv.Sessions() {
		if ss.ID() == sid {
			_ = ss.Close()
			return
		}
	}
}
