package runtime

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultSSEPath is where the HTTP+SSE transport is mounted by default.
const DefaultSSEPath = "/sse"

// sseHandler serves MCP's HTTP+SSE transport (protocol 2024-11-05, for
// clients that predate Streamable HTTP) through the SDK's SSEHandler: a GET
// opens a session and its event stream, and the client POSTs its messages
// to the endpoint the stream names (?sessionid=...).
//
// The auth hook runs on every request, the GET and each POST. A session
// runs in the context of the GET that opened it (the caller's identity,
// the request for RequestFromContext), and belongs to that caller: a POST
// by anyone else is refused (403). Like Streamable HTTP's sessions, the
// open streams are bounded by MCPOptions.MaxSessions, the least recently
// used one closed to make room.
func (s *Server) sseHandler() http.Handler {
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s.mcp.srv }, &mcp.SSEOptions{
		// The server's own browser guard checks the Host header.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        s.opts.MaxBodyBytes,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, ok := s.authenticate(w, r, writeError)
		if !ok {
			return
		}
		owner := s.owner(ctx, r)
		switch r.Method {
		case http.MethodGet:
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			var sid string
			defer func() { s.mcp.sse.forget(sid) }()
			w = &endpointRecorder{ResponseWriter: w, record: func(id string) {
				sid = id
				if old := s.mcp.sse.add(id, owner, cancel); old != "" {
					s.log.InfoContext(ctx, "SSE stream closed to make room for a new one", "session", old, "max", s.mcp.sse.max)
				}
			}}
			h.ServeHTTP(w, r.WithContext(ctx))
		case http.MethodPost:
			if sid := r.URL.Query().Get("sessionid"); sid != "" && !s.mcp.sse.use(sid, owner) {
				s.log.WarnContext(ctx, "SSE session used by another caller", "session", sid, "remote", r.RemoteAddr)
				writeError(w, http.StatusForbidden, "Forbidden")
				return
			}
			h.ServeHTTP(w, r)
		default:
			w.Header().Set("Allow", "GET, POST")
			writeError(w, http.StatusMethodNotAllowed, "Method not allowed: "+r.Method)
		}
	})
}

// endpointRecorder notes the session id of the endpoint event that opens
// an SSE stream, before the client can read it.
type endpointRecorder struct {
	http.ResponseWriter
	record func(sid string)
	done   bool
}

func (e *endpointRecorder) Write(b []byte) (int, error) {
	if !e.done {
		e.done = true
		// event: endpoint\ndata: /sse?sessionid=ID\n\n
		if _, data, ok := bytes.Cut(b, []byte("data: ")); ok {
			data, _, _ = bytes.Cut(data, []byte("\n"))
			if u, err := url.Parse(string(data)); err == nil {
				if sid := u.Query().Get("sessionid"); sid != "" {
					e.record(sid)
				}
			}
		}
	}
	return e.ResponseWriter.Write(b)
}

func (e *endpointRecorder) Flush() {
	if f, ok := e.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (e *endpointRecorder) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// sseStreams knows, for each open /sse stream, who owns it and when it was
// last used, and how to close it.
type sseStreams struct {
	max int // <= 0: no limit
	mu  sync.Mutex
	m   map[string]*sseStream
}

type sseStream struct {
	owner string
	last  time.Time
	close context.CancelFunc
}

// add records a new stream; past the bound it closes the least recently
// used one and returns its id.
func (t *sseStreams) add(sid, owner string, closeFn context.CancelFunc) (evicted string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]*sseStream)
	}
	if t.max > 0 && len(t.m) >= t.max {
		var oldest time.Time
		for id, st := range t.m {
			if evicted == "" || st.last.Before(oldest) {
				evicted, oldest = id, st.last
			}
		}
		t.m[evicted].close()
		delete(t.m, evicted)
	}
	t.m[sid] = &sseStream{owner: owner, last: time.Now(), close: closeFn}
	return evicted
}

// use notes a message on stream sid by owner, and reports false when the
// stream belongs to another owner. An unknown sid is the SDK's to refuse.
func (t *sseStreams) use(sid, owner string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.m[sid]
	if st == nil {
		return true
	}
	if st.owner != owner {
		return false
	}
	st.last = time.Now()
	return true
}

func (t *sseStreams) forget(sid string) {
	if sid == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, sid)
}

func (t *sseStreams) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
