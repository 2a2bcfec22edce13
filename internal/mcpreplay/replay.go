// Package mcpreplay replays the raw bytes of an MCP tools/call into a
// Streamable HTTP handler's ServeHTTP, with no client and no network, so
// that a benchmark measures the server side alone. It uses nothing but
// net/http: the same replay measures toolgen's server and go-sdk's.
package mcpreplay

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
)

// Protocol revisions: stateful sessions are opened with Session; a request
// of Stateless stands alone (sessions are gone from it).
const (
	Session   = "2025-11-25"
	Stateless = "2026-07-28"
)

// Writer is a reusable http.ResponseWriter (and http.Flusher, for SSE
// responses) that keeps the last response.
type Writer struct {
	header http.Header
	Code   int
	Body   []byte
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer { return &Writer{header: http.Header{}} }

func (w *Writer) Header() http.Header { return w.header }

func (w *Writer) WriteHeader(code int) {
	if w.Code == 0 {
		w.Code = code
	}
}

func (w *Writer) Write(b []byte) (int, error) {
	if w.Code == 0 {
		w.Code = http.StatusOK
	}
	w.Body = append(w.Body, b...)
	return len(b), nil
}

func (w *Writer) Flush() {}

// Reset readies w for the next response, keeping its memory.
func (w *Writer) Reset() {
	clear(w.header)
	w.Code = 0
	w.Body = w.Body[:0]
}

// Message is the JSON-RPC message of the response: the body, or the data
// of its first SSE event that has any (a resumable stream starts with a
// priming event, an id and no data).
func (w *Writer) Message() []byte {
	b := w.Body
	for {
		i := bytes.Index(b, []byte("data:"))
		if i < 0 {
			return bytes.TrimSpace(b)
		}
		b = b[i+len("data:"):]
		line := b
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line
		}
	}
}

// Call is one tools/call, ready to be replayed into a handler.
type Call struct {
	h    http.Handler
	req  *http.Request // its body is set on every Serve
	body []byte
}

// New readies a tools/call of tool with args (a JSON object) at url (the
// handler's, e.g. "http://localhost/mcp"). When stateless, the call is a
// request of protocol Stateless with the _meta and headers that revision
// requires; else New opens a session of protocol Session on h first, with
// raw initialize and notifications/initialized requests, and the call
// carries its Mcp-Session-Id.
func New(h http.Handler, url, tool, args string, stateless bool) (*Call, error) {
	params := `"name":"` + tool + `","arguments":` + args
	var protocol, sid string
	if stateless {
		protocol = Stateless
		params = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + Stateless + `","io.modelcontextprotocol/clientCapabilities":{}},` + params
	} else {
		protocol = Session
		w, err := post(h, url, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+Session+`","capabilities":{},"clientInfo":{"name":"replay","version":"1"}}}`)
		if err != nil {
			return nil, err
		}
		if sid = w.Header().Get("Mcp-Session-Id"); sid == "" {
			return nil, fmt.Errorf("initialize opened no session: %s", w.Body)
		}
		if _, err := post(h, url, protocol, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
			return nil, err
		}
	}
	r := newRequest(url, protocol, sid, nil)
	if stateless {
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", tool)
	}
	return &Call{h: h, req: r, body: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + params + `}}`)}, nil
}

// Serve replays the call into w, which it resets first.
func (c *Call) Serve(w *Writer) {
	w.Reset()
	r := *c.req
	r.Body = io.NopCloser(bytes.NewReader(c.body))
	r.ContentLength = int64(len(c.body))
	c.h.ServeHTTP(w, &r)
}

func newRequest(url, protocol, sid string, body io.Reader) *http.Request {
	r := httptest.NewRequest(http.MethodPost, url, body)
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if protocol != "" {
		r.Header.Set("Mcp-Protocol-Version", protocol)
	}
	if sid != "" {
		r.Header.Set("Mcp-Session-Id", sid)
	}
	return r
}

// post sends one raw JSON-RPC message and returns the response, or an
// error for a status of 300 or more.
func post(h http.Handler, url, protocol, sid, msg string) (*httptest.ResponseRecorder, error) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newRequest(url, protocol, sid, strings.NewReader(msg)))
	if w.Code >= 300 {
		return nil, fmt.Errorf("%s: %d %s", msg, w.Code, w.Body)
	}
	return w, nil
}
