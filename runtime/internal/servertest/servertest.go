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
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
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

// InProcessTransport is an http.RoundTripper that serves each request
// with Handler, in process: no socket, so that a test may run in a
// synctest bubble, where time passes only when every goroutine waits.
type InProcessTransport struct{ Handler http.Handler }

func (p InProcessTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	p.Handler.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// Post2026 sends one JSON-RPC request of protocol 2026-07-28 to /mcp with
// the standard headers (and extra ones), and returns the status and the
// JSON-RPC response.
func Post2026(t *testing.T, url, method, name, params string, header ...string) (int, map[string]any) {
	t.Helper()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	if params == "" {
		params = "{" + meta + "}"
	} else {
		params = strings.Replace(params, "{", "{"+meta+",", 1)
	}
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	body := string(b)
	if i := strings.Index(body, "data: "); i >= 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		body = strings.TrimSpace(strings.SplitN(body[i+len("data: "):], "\n", 2)[0])
	}
	var msg map[string]any
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatalf("%s: %d %q", method, resp.StatusCode, body)
	}
	return resp.StatusCode, msg
}

// ArgSeeds are argument bodies that reach every branch of the argument
// checks.
var ArgSeeds = []string{
	``, `{}`, `{"city":"Paris","days":3}`, `{"city":"x","days":3.0}`, `{"city":"x","days":1e400}`,
	`{"city":"x","big":99999999999999999999}`, `{"city":5}`, `[1,2]`, `null`, `"str"`, `{"city":`,
	"{\"city\":\"\xff\"}", strings.Repeat("[", 200), `{"city":"x","tags":["a",1]}`, `{"a/b":1}`,
	`{"city":"x","ratio":-0.0e-7}`, `{"city":"x","big":9223372036854775807}`, `{"city":"x","big":-9223372036854775809}`,
	`{"city":"x","big":1e19}`, `{"city":"x","big":-9.223372036854775808e18}`, `{"city":"x","big":[9223372036854775808]}`, `{"city":"\u0000"}`, `{"city":"x"} {}`,
}

// PostgresDSN is the DSN of the test database ($TOOLGEN_TEST_POSTGRES,
// which .ci/postgres sets) with a search_path of a schema of its own,
// prefix and a unique suffix: the store creates it when it opens. Without
// the variable the test is skipped, except in CI, where a missing
// database is a broken setup, not a pass.
func PostgresDSN(t testing.TB, prefix string) string {
	t.Helper()
	dsn := os.Getenv("TOOLGEN_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TOOLGEN_TEST_POSTGRES is not set: CI runs this test under .ci/postgres")
		}
		t.Skip("TOOLGEN_TEST_POSTGRES is not set")
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + prefix + "_" + strconv.FormatInt(time.Now().UnixNano(), 36)
}
