package mcp

//lint:file-ignore SA1019 logging is deprecated as of 2026-07-28 but supported (see session.go)

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The response stream of a native 2026-07-28 tools/call (mcpfast.go): what
// the tool reports while it runs, progress (the request named a progress
// token) and log messages (the request named a log level), goes to the
// client as events on the response, before the result, as the SDK's
// stateless transport sends them. The stream starts with the first event;
// a call that sends none is answered as any other. With
// Options.JSONResponse the answer is one JSON body and events have
// nowhere to go: they are dropped, and the tool's report fails, as on the
// SDK's path.

// logLevels ranks MCP's log levels (RFC 5424's, least severe first); a
// level MCP does not name ranks as debug, as the SDK ranks it.
var logLevels = map[string]int{"debug": 0, "info": 1, "notice": 2, "warning": 3, "error": 4, "critical": 5, "alert": 6, "emergency": 7}

// errUndelivered is what a report returns when the response is one JSON
// body and it has nowhere to go: the SDK's words for it, so that a tool
// is told the same on either path.
var errUndelivered = errors.New("rejected by transport: undelivered message: stream not connected or already closed")

// eventStream is the response of one call, as a stream of events.
type eventStream struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	drop    bool   // one JSON body: events go nowhere
	level   string // the request's log level; "" sends no log message
	started bool   // the stream's header is written
	done    bool   // the result is written: later events go nowhere
}

// notify sends a notification on the stream: method's, with params (the
// SDK's type, encoded as the SDK encodes it).
func (e *eventStream) notify(method string, params any) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.drop {
		return errUndelivered
	}
	if e.done {
		return nil
	}
	var buf bytes.Buffer
	buf.WriteString(`{"jsonrpc":"2.0","method":"`)
	buf.WriteString(method)
	buf.WriteString(`","params":`)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(params); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	buf.WriteByte('}')
	e.start()
	e.event(buf.Bytes())
	return nil
}

// log sends a log message at level, unless the request set no level or a
// more severe one.
func (e *eventStream) log(level string, data any) error {
	if e.level == "" || logLevels[level] < logLevels[e.level] {
		return nil
	}
	return e.notify("notifications/message", &sdk.LoggingMessageParams{Level: sdk.LoggingLevel(level), Data: data})
}

// start writes the stream's header, once.
func (e *eventStream) start() {
	if e.started {
		return
	}
	e.started = true
	h := e.w.Header()
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Connection", "keep-alive")
	h.Set("Content-Type", "text/event-stream")
	e.w.WriteHeader(http.StatusOK)
}

// event writes one event and flushes it to the client.
func (e *eventStream) event(msg []byte) {
	_, _ = e.w.Write([]byte("event: message\ndata: "))
	_, _ = e.w.Write(msg)
	_, _ = e.w.Write([]byte("\n\n"))
	_ = http.NewResponseController(e.w).Flush()
}

// finish ends the stream. It reports whether the stream had started, in
// which case the answer, msg, went out as its last event; otherwise the
// caller answers as it would without a stream.
func (e *eventStream) finish(msg []byte) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.done = true
	if !e.started {
		return false
	}
	e.event(msg)
	return true
}
