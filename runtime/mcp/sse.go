package mcp

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// DefaultSSEPath is where runtime/serve mounts the HTTP+SSE transport.
const DefaultSSEPath = "/sse"

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
	per int // the bound per caller; <= 0: none
	mu  sync.Mutex
	m   map[string]*sseStream
}

type sseStream struct {
	owner  string
	caller string // whose streams it counts among (callerKey)
	last   time.Time
	close  context.CancelFunc
}

// add records a new stream of caller; past a bound it closes the stream
// evictFor chooses and returns its id.
func (t *sseStreams) add(sid, owner, caller string, closeFn context.CancelFunc) (evicted string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = make(map[string]*sseStream)
	}
	evicted = evictFor(t.m, caller, t.max, t.per, func(st *sseStream) (string, time.Time) { return st.caller, st.last })
	if evicted != "" {
		t.m[evicted].close()
		delete(t.m, evicted)
	}
	t.m[sid] = &sseStream{owner: owner, caller: caller, last: time.Now(), close: closeFn}
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
