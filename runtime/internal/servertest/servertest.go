// Package servertest holds what the runtime's tests share, the core's
// and the surface packages': a log buffer, and a request sent to a
// handler in process with its answer checked. It imports nothing of the
// runtime, so that the core's own tests may use it.
package servertest

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// LogBuffer captures a server's logs.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Logger is a text logger, at DEBUG, into l.
func (l *LogBuffer) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Discard is a logger that drops everything.
func Discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Response is what a handler answered.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// Do sends one request to h in process: header is name, value pairs.
func Do(t testing.TB, h http.Handler, method, path, body string, header ...string) Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return Response{rec.Code, rec.Header(), rec.Body.String()}
}

// Is fails t unless r is status with exactly body, as JSON.
func (r Response) Is(t testing.TB, status int, body string) {
	t.Helper()
	if r.Status != status || r.Body != body {
		t.Fatalf("got %d %s\nwant %d %s", r.Status, r.Body, status, body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
}

// Decode decodes r's body into v, failing t when it cannot.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Body), v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}
