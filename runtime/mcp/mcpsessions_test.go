package mcp

import (
	"context"
	"errors"
	"net/http"
	goruntime "runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// openSession sends an initialize without ever closing the session, as an
// abandoning client does, and returns the session id.
func openSession(t *testing.T, url string, header ...string) string {
	t.Helper()
	code, sid, body := postMCP(t, url, "", mcpInitialize, header...)
	if code != 200 || sid == "" {
		t.Fatalf("initialize: %d %q %s", code, sid, body)
	}
	return sid
}

// postMCP posts one JSON-RPC message, on session sid when it is not empty.
func postMCP(t *testing.T, url, sid, msg string, header ...string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), readAll(resp)
}

const mcpPing = `{"jsonrpc":"2.0","id":7,"method":"ping"}`

// Abandoned sessions go once idle: the goroutines, the memory and the
// server's table of them come back near where they were (the issue's
// 10,000 sessions, scaled down). The idle timeout (an hour) passes in a
// synctest bubble, the requests served in process.
func TestMCPAbandonedSessionsExpire(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a thousand sessions")
	}
	synctest.Test(t, func(t *testing.T) {
		s := newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}, &Options{SessionIdleTimeout: time.Hour, MaxSessions: -1, MaxSessionsPerCaller: -1})
		testClient = &http.Client{Transport: servertest.InProcessTransport{Handler: houseOf(s)}}
		defer func() { testClient = http.DefaultClient }()
		const url = "http://in-process"
		openSession(t, url) // warm up the server's pools
		settle := func() (int, uint64) {
			synctest.Wait()
			goruntime.GC()
			var ms goruntime.MemStats
			goruntime.ReadMemStats(&ms)
			return goruntime.NumGoroutine(), ms.HeapInuse
		}
		baseG, baseHeap := settle()

		const n = 1000
		peak := 0
		for i := range n {
			openSession(t, url)
			if i%100 == 99 {
				peak = max(peak, goruntime.NumGoroutine())
			}
		}
		if peak < baseG+100 {
			t.Fatalf("at most %d goroutines with sessions open (baseline %d): the test does not see sessions", peak, baseG)
		}
		if live := countSessions(s); live < n {
			t.Fatalf("%d sessions open, want %d", live, n+1)
		}
		time.Sleep(time.Hour + time.Minute) // every session idle past its timeout
		g, heap := settle()
		if live := countSessions(s); live != 0 || g > baseG+10 || heap > baseHeap+8<<20 {
			t.Fatalf("after the idle timeout: %d sessions, %d goroutines (baseline %d), heap %d KiB (baseline %d KiB)", live, g, baseG, heap>>10, baseHeap>>10)
		}
		openSession(t, url)
		if size := mcpOf(s).sessions.len(); size > 64 {
			t.Errorf("the session table holds %d entries after the sessions closed", size)
		}
		for ss := range mcpOf(s).sdkSrv.Sessions() {
			ss.Close() // the bubble ends when its goroutines have
		}
	})
}

func countSessions(s *runtime.Server) int {
	n := 0
	for range mcpOf(s).sdkSrv.Sessions() {
		n++
	}
	return n
}

// Past MaxSessions, a new session closes the least recently used one.
func TestMCPMaxSessions(t *testing.T) {
	s := newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}, &Options{MaxSessions: 3})
	hs := newHTTPTest(s)
	defer hs.Close()
	var sids []string
	for range 3 {
		sids = append(sids, openSession(t, hs.URL))
	}
	// The first is used again, so the second is the least recently used.
	if code, _, body := postMCP(t, hs.URL, sids[0], mcpPing); code != 200 {
		t.Fatalf("ping: %d %s", code, body)
	}
	sids = append(sids, openSession(t, hs.URL), openSession(t, hs.URL))
	if n := countSessions(s); n != 3 {
		t.Errorf("%d live sessions, want 3", n)
	}
	for i, want := range []int{200, 404, 404, 200, 200} {
		if code, _, body := postMCP(t, hs.URL, sids[i], mcpPing); code != want {
			t.Errorf("session %d: %d %s, want %d", i, code, body, want)
		}
	}
}

// A hook that names no subject still binds a session: to the credentials
// that opened it, so another caller's valid token cannot use it.
func TestMCPSessionBindingWithoutSubject(t *testing.T) {
	hook := func(r *http.Request) (context.Context, error) {
		switch r.Header.Get("X-Api-Key") {
		case "alice-key", "bob-key":
			return runtime.WithPrincipal(r.Context(), &runtime.Principal{}), nil
		}
		return nil, errors.New("bad key")
	}
	s := runtime.NewServer(runtime.ToolList{}, &runtime.Options{AuthHook: hook, Logger: discard()})
	hs := newHTTPTest(s)
	defer hs.Close()
	sid := openSession(t, hs.URL, "X-Api-Key", "alice-key")
	if code, _, body := postMCP(t, hs.URL, sid, mcpPing, "X-Api-Key", "bob-key"); code != 403 || body != `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden"}}` {
		t.Errorf("another key on the session: %d %s", code, body)
	}
	if code, _, body := postMCP(t, hs.URL, sid, mcpPing, "X-Api-Key", "alice-key"); code != 200 {
		t.Errorf("the owner: %d %s", code, body)
	}
	// DELETE ends the session and its entry.
	req, _ := http.NewRequest("DELETE", hs.URL+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("X-Api-Key", "alice-key")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	if n := mcpOf(s).sessions.len(); n != 0 {
		t.Errorf("%d table entries after DELETE", n)
	}
}

// One caller who opens many sessions loses its own oldest, never another
// caller's (the global cap is one pool): by identity behind an auth hook,
// by client address (whatever the port) without one. /sse streams count
// the same way.
func TestMCPSessionsPerCaller(t *testing.T) {
	s := newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard(),
		AuthHook: runtime.BearerCredentials(runtime.Credential{Secret: "a", Subject: "alice"}, runtime.Credential{Secret: "b", Subject: "bob"})},
		&Options{MaxSessions: 10, MaxSessionsPerCaller: 3})
	hs := newHTTPTest(s)
	defer hs.Close()
	bob := openSession(t, hs.URL, "Authorization", "Bearer b")
	var alice []string
	for range 25 { // past both caps
		alice = append(alice, openSession(t, hs.URL, "Authorization", "Bearer a"))
	}
	if code, _, body := postMCP(t, hs.URL, bob, mcpPing, "Authorization", "Bearer b"); code != 200 {
		t.Errorf("another caller's session after alice's flood: %d %s", code, body)
	}
	for i, sid := range alice {
		want := 404
		if i >= len(alice)-3 {
			want = 200 // her three newest
		}
		if code, _, body := postMCP(t, hs.URL, sid, mcpPing, "Authorization", "Bearer a"); code != want {
			t.Errorf("alice's session %d: %d %s, want %d", i, code, body, want)
		}
	}
	if n := countSessions(s); n != 4 {
		t.Errorf("%d live sessions, want 4", n)
	}

	// Without a hook, the client's address is the caller, not its port.
	open := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard()})
	for _, tc := range []struct{ a, b string }{{"192.0.2.1:1000", "192.0.2.1:2000"}, {"[2001:db8::1]:1", "[2001:db8::1]:2"}} {
		ra := httpkit.WithState(&http.Request{RemoteAddr: tc.a}).Context()
		rb := httpkit.WithState(&http.Request{RemoteAddr: tc.b}).Context()
		if open.CallerKey(ra) != open.CallerKey(rb) {
			t.Errorf("%s and %s counted as two callers", tc.a, tc.b)
		}
	}
	if open.CallerKey(httpkit.WithState(&http.Request{RemoteAddr: "192.0.2.1:1"}).Context()) == open.CallerKey(httpkit.WithState(&http.Request{RemoteAddr: "192.0.2.2:1"}).Context()) {
		t.Error("two addresses counted as one caller")
	}

	// /sse streams: the same rule, through the same choice.
	var streams sseStreams
	streams.max, streams.per = 10, 2
	closed := map[string]bool{}
	for _, st := range []struct{ sid, caller string }{{"b1", "bob"}, {"a1", "alice"}, {"a2", "alice"}, {"a3", "alice"}, {"a4", "alice"}} {
		streams.add(st.sid, st.caller, st.caller, func() { closed[st.sid] = true })
	}
	if !closed["a1"] || !closed["a2"] || closed["b1"] || closed["a3"] || closed["a4"] {
		t.Errorf("closed streams %v, want alice's two oldest", closed)
	}
}
