package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
)

func tools() runtime.ToolList {
	return runtime.ToolList{
		{Name: "hello", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return runtime.TextResult("hi"), nil
		}},
		{Name: "slow", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
			select {
			case slowStarted <- struct{}{}:
			default:
			}
			time.Sleep(600 * time.Millisecond)
			if err := ctx.Err(); err != nil {
				// Its request was cut: a body deadline left on the
				// connection ends the request's context with it.
				return runtime.TextResult("cut short: " + err.Error()), nil
			}
			return runtime.TextResult("done"), nil
		}},
	}
}

// slowStarted hears from the slow tool as it starts, for a test that must
// know a call is in flight (rather than sleep and hope it is).
var slowStarted = make(chan struct{}, 1)

var quiet = &runtime.Options{Logger: slog.New(slog.DiscardHandler)}

// start runs the command line in the background and returns the URL it
// printed and a function that stops it and returns run's error.
func start(t *testing.T, args ...string) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), tools(), quiet, nil, pw, io.Discard)
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "Serving on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") || strings.HasSuffix(url, ":0/") {
		t.Fatalf("printed %q", line)
	}
	go io.Copy(io.Discard, pr)
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			return errors.New("run did not return")
		}
	}
	t.Cleanup(func() { stop() })
	return strings.TrimSuffix(url, "/"), stop
}

func post(t *testing.T, url, body string, header ...string) (int, string, http.Header) {
	t.Helper()
	return postVia(t, http.DefaultClient, url, body, header...)
}

// postVia is post with client c.
func postVia(t *testing.T, c *http.Client, url, body string, header ...string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// The command line: it prints the URL with the real port, serves the
// explorer, its REST protocol and MCP, and stops when told.
func TestRun(t *testing.T) {
	url, stop := start(t)
	resp, err := http.Get(url + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("explorer page: %v %v", resp, err)
	}
	resp.Body.Close()
	if code, body, _ := post(t, url+"/tools/hello/call", `{}`); code != 403 {
		t.Errorf("call without -allow-execute: %d %s", code, body)
	}
	code, _, h := post(t, url+"/mcp", initialize, "Accept", "application/json, text/event-stream")
	if code != 200 || h.Get("Mcp-Session-Id") == "" {
		t.Errorf("MCP initialize: %d, session %q", code, h.Get("Mcp-Session-Id"))
	}
	if err := stop(); err != nil {
		t.Errorf("run: %v", err)
	}
	if _, err := http.Get(url + "/"); err == nil {
		t.Error("still serving after stop")
	}
}

func TestRunFlags(t *testing.T) {
	url, _ := start(t, "-allow-execute", "-stateless")
	if code, body, _ := post(t, url+"/tools/hello/call", `{}`); code != 200 || body != `{"content":[{"type":"text","text":"hi"}],"isError":false}` {
		t.Errorf("call with -allow-execute: %d %s", code, body)
	}
	if code, _, h := post(t, url+"/mcp", initialize, "Accept", "application/json, text/event-stream"); code != 200 || h.Get("Mcp-Session-Id") != "" {
		t.Errorf("-stateless initialize: %d, session %q", code, h.Get("Mcp-Session-Id"))
	}

	var stderr bytes.Buffer
	for _, args := range [][]string{{"-nope"}, {"extra"}} {
		err := run(context.Background(), args, tools(), quiet, nil, io.Discard, &stderr)
		if !errors.As(err, new(usageError)) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if !strings.Contains(stderr.String(), "-allow-execute") {
		t.Errorf("no usage printed: %s", stderr.String())
	}
	if err := run(context.Background(), []string{"-addr", "256.0.0.1:0"}, tools(), quiet, nil, io.Discard, io.Discard); err == nil {
		t.Error("a bad address did not fail")
	}
}

// closedWithin reports whether the server closes conn within d, reading
// (and dropping) whatever it answers first.
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return err == nil || !(errors.As(err, &ne) && ne.Timeout())
}

var short = Timeouts{Header: 200 * time.Millisecond, Body: 200 * time.Millisecond, Idle: 300 * time.Millisecond, Shutdown: 2 * time.Second}

// A slow-header, slow-body or idle connection is closed by its timeout,
// exactly when it runs out (the server runs in a synctest bubble, on a
// pipeNet); headers over the limit are refused.
func TestSlowClientsAreCut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := serveInBubble(t, short)
		defer b.stop(t)

		start := time.Now()
		slowHeader := b.conn(t)
		defer slowHeader.Close()
		io.WriteString(slowHeader, "POST /tools/hello/call HTTP/1.1\r\nHost: 127.0.0.1\r\n")
		if !closedWithin(slowHeader, time.Hour) || time.Since(start) != short.Header {
			t.Errorf("a connection that never finished its headers was closed after %v, want the header timeout's %v", time.Since(start), short.Header)
		}

		start = time.Now()
		slowBody := b.conn(t)
		defer slowBody.Close()
		io.WriteString(slowBody, "POST /tools/hello/call HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
		go func() { // a byte every 50ms: the 100 would take 5s
			for {
				time.Sleep(50 * time.Millisecond)
				if _, err := io.WriteString(slowBody, " "); err != nil {
					return
				}
			}
		}()
		if !closedWithin(slowBody, time.Hour) || time.Since(start) != short.Body {
			t.Errorf("a body sent a byte at a time was cut after %v, want the body timeout's %v", time.Since(start), short.Body)
		}

		idle := b.conn(t)
		defer idle.Close()
		io.WriteString(idle, "GET /tools HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("keep-alive request: %v %v", resp, err)
		}
		io.Copy(io.Discard, resp.Body)
		start = time.Now()
		if !closedWithin(idle, time.Hour) || time.Since(start) != short.Idle {
			t.Errorf("an idle keep-alive connection was closed after %v, want the idle timeout's %v", time.Since(start), short.Idle)
		}

		big := b.conn(t)
		defer big.Close()
		// Written aside: the server answers before it has read it all.
		go io.WriteString(big, "GET /tools HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "+strings.Repeat("a", 200<<10)+"\r\n\r\n")
		resp, err = http.ReadResponse(bufio.NewReader(big), nil)
		if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("oversized headers: %v %v", resp, err)
		}
	})
}

// The body deadline ends with the body: a call answered after it (REST,
// and MCP, whose SDK reads the body to its end) runs with its context
// whole, and an MCP stream open far longer than every timeout goes on.
func TestStreamsOutliveTheTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := serveInBubble(t, short)
		defer b.stop(t)
		if code, body, _ := postVia(t, b.client, bubbleURL+"/tools/slow/call", `{}`); code != 200 || !strings.Contains(body, `"done"`) {
			t.Errorf("a call slower than the body timeout: %d %s", code, body)
		}

		var notices atomic.Int32
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { notices.Add(1) },
		}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: bubbleURL + "/mcp", HTTPClient: b.client}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
		if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "done" {
			t.Fatalf("slow MCP call: %+v %v", res, err)
		}
		time.Sleep(time.Second) // past the header, body and idle timeouts
		b.srv.NotifyToolsChanged()
		synctest.Wait() // the notice is delivered, or never will be
		if notices.Load() != 1 {
			t.Errorf("%d notices: the session's stream did not outlive the timeouts", notices.Load())
		}
	})
}

// On shutdown a call in flight finishes, and an open MCP stream does not
// hold the server up; a subscriptions/listen ends with its result.
func TestGracefulShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A shutdown timeout far longer than the call in flight: if the
		// open stream held the server up, Serve would return only at its
		// end.
		timeouts := short
		timeouts.Shutdown = 30 * time.Second
		b := serveInBubble(t, timeouts)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: bubbleURL + "/mcp", HTTPClient: b.client}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		type answer struct {
			code int
			body string
		}
		inflight := make(chan answer, 1)
		select {
		case <-slowStarted: // an earlier test's
		default:
		}
		go func() {
			code, body, _ := postVia(t, b.client, bubbleURL+"/tools/slow/call", `{}`)
			inflight <- answer{code, body}
		}()
		<-slowStarted
		// A 2026-07-28 subscriptions/listen, open until its client leaves:
		// shutdown ends it with its result.
		listenOpen, listenRest := make(chan string, 1), make(chan string, 1)
		go func() {
			req, _ := http.NewRequest(http.MethodPost, bubbleURL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":"l-1","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"toolsListChanged":true}}}`))
			for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"} {
				req.Header.Set(k, v)
			}
			resp, err := b.client.Do(req)
			if err != nil {
				listenOpen <- err.Error()
				return
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			first, _ := br.ReadString('\n')
			for !strings.HasPrefix(first, "data: ") {
				if first, err = br.ReadString('\n'); err != nil {
					break
				}
			}
			listenOpen <- first
			rest, _ := io.ReadAll(br)
			listenRest <- string(rest)
		}()
		if ack := <-listenOpen; !strings.Contains(ack, "notifications/subscriptions/acknowledged") {
			t.Fatalf("the listen: %s", ack)
		}
		begun := time.Now()
		b.cancel()
		if a := <-inflight; a.code != 200 || !strings.Contains(a.body, `"done"`) {
			t.Errorf("the call in flight: %d %s", a.code, a.body)
		}
		if rest := <-listenRest; !strings.Contains(rest, `"id":"l-1","result":{`) || !strings.Contains(rest, `"resultType":"complete"`) {
			t.Errorf("the listen ended without its result: %q", rest)
		}
		if err := <-b.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		if d := time.Since(begun); d >= timeouts.Shutdown {
			t.Errorf("shutdown took %v, its whole timeout: the open stream held it up", d)
		}
		b.client.CloseIdleConnections()
	})
}

// closingStore notes that serve closed it.
type closingStore struct {
	*history.Memory
	closed chan struct{}
}

func (c *closingStore) Close() error { close(c.closed); return c.Memory.Close() }

// -history opens the store its DSN names (memory by default here: this
// test binary imports no SQLite), records into it, prints it, and closes it
// on the way out; a scheme whose package is not imported says which to
// import.
func TestRunHistory(t *testing.T) {
	store := &closingStore{Memory: history.NewMemory(history.Retention{}), closed: make(chan struct{})}
	var gotDSN string
	var gotRetention history.Retention
	history.Register("testdb", func(_ context.Context, dsn string, r history.Retention) (history.Store, error) {
		gotDSN, gotRetention = dsn, r
		return store, nil
	})
	url, stop := start(t, "-allow-execute", "-history", "testdb:x", "-history-max-rows", "7", "-history-max-age", "1h")
	if gotDSN != "testdb:x" || gotRetention.MaxRows != 7 || gotRetention.MaxAge != time.Hour {
		t.Errorf("opened %q with %+v", gotDSN, gotRetention)
	}
	post(t, url+"/tools/hello/call", `{}`)
	if recs, total, _ := store.List(context.Background(), history.Filter{}); total != 1 || recs[0].Tool != "hello" {
		t.Errorf("recorded %d: %+v", total, recs)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-store.closed:
	case <-time.After(30 * time.Second):
		t.Error("the store was not closed")
	}

	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	pr, pw := io.Pipe()
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, tools(), quiet, nil, pw, io.Discard) }()
	br := bufio.NewReader(pr)
	for range 2 {
		line, _ := br.ReadString('\n')
		out.WriteString(line)
	}
	cancel()
	go io.Copy(io.Discard, pr)
	<-done
	if !strings.HasSuffix(out.String(), "History: memory\n") {
		t.Errorf("printed %q", out.String())
	}

	err := run(context.Background(), []string{"-history", "postgres://localhost/x"}, tools(), quiet, nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "import github.com/toolgen-go/toolgen/runtime/history/postgres") {
		t.Errorf("postgres without its package: %v", err)
	}
}

// The key that seals MCP's input-required state comes from
// -state-key-file, else $TOOLGEN_STATE_KEY, trimmed; a short one is
// refused with what to do.
func TestStateKey(t *testing.T) {
	file := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(file, []byte("  from the file, long enough\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, env, want, err string
	}{
		{"", "", "", ""},
		{"", "from the environment, long enough", "from the environment, long enough", ""},
		{file, "from the environment, long enough", "from the file, long enough", ""},
		{"", "short", "", "$TOOLGEN_STATE_KEY: the state key is 5 bytes, want at least 16"},
		{file + ".missing", "", "", "-state-key-file"},
	} {
		key, err := stateKey(c.file, c.env)
		if string(key) != c.want || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("stateKey(%q, %q) = %q, %v; want %q, %q", c.file, c.env, key, err, c.want, c.err)
		}
	}
	err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-state-key-file", file + ".missing"}, tools(), quiet, nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-state-key-file") {
		t.Errorf("a missing key file: %v", err)
	}
}

// -tool-search lists MCP's meta-tools instead of the catalog, and refuses
// to start on a catalog with a tool named like one of them.
func TestRunToolSearch(t *testing.T) {
	url, _ := start(t, "-tool-search")
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	code, body, _ := post(t, url+"/mcp", list, "Accept", "application/json, text/event-stream", "Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list")
	if code != 200 || !strings.Contains(body, `"name":"search_tools"`) || !strings.Contains(body, `"name":"call_tool"`) || strings.Contains(body, `"name":"hello"`) {
		t.Errorf("tools/list with -tool-search: %d %s", code, body)
	}
	clash := runtime.ToolList{{Name: "search_tools", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(""), nil }}}
	err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-tool-search"}, clash, quiet, nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "meta-tool search_tools") {
		t.Errorf("a tool named search_tools with -tool-search: %v", err)
	}
}
