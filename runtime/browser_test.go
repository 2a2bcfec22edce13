package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// countingTools is one tool that counts its runs.
func countingTools(runs *atomic.Int32) ToolList {
	return ToolList{{Name: "delete_alert", Handler: func(context.Context, json.RawMessage) (*Result, error) {
		runs.Add(1)
		return TextResult("deleted"), nil
	}}}
}

// executing are the requests that can run a tool or change a session, one
// per surface; each must be refused cross-origin, with the refusal in its
// surface's shape (refused gives the body for a message).
var executing = []struct {
	method, path, body string
	refused            func(msg string) string
}{
	{"POST", "/tools/delete_alert/call", `{}`, explorerRefusal},
	{"POST", "/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"delete_alert"}}`, mcpRefusal},
	{"DELETE", "/mcp", ``, mcpRefusal},
	{"POST", "/v1/tools/delete_alert", `{"input":{}}`, func(msg string) string { return `{"detail":"` + msg + `"}` }},
	{"POST", "/oxp/tools/call", `{"request":{"tool_id":"Tools.DeleteAlert","input":{}}}`, func(msg string) string { return `{"message":"` + msg + `"}` }},
}

func explorerRefusal(msg string) string { return `{"error":"` + msg + `"}` }

func mcpRefusal(msg string) string {
	return `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"` + msg + `"}}`
}

// A page on another origin cannot make a browser run a tool: the request
// is refused with a JSON 403 and a WARN log, and nothing runs. Clients that
// are not browsers, same-origin pages and trusted origins go through.
func TestCrossOriginRefused(t *testing.T) {
	var runs atomic.Int32
	var logs logBuffer
	s := NewServer(countingTools(&runs), &Options{AllowExecute: true, TrustedOrigins: []string{"https://trusted.example"}, Logger: logs.Logger()})
	for _, e := range executing {
		for _, h := range [][]string{
			{"Origin", "https://evil.example", "Content-Type", "text/plain"},
			{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"},
			{"Sec-Fetch-Site", "same-site", "Origin", "https://sub.example.com"},
		} {
			do(t, s, e.method, e.path, e.body, h...).is(t, 403, e.refused("Cross-origin request refused."))
		}
	}
	if runs.Load() != 0 {
		t.Fatalf("a refused request ran the tool %d times", runs.Load())
	}
	if l := logs.String(); strings.Count(l, "level=WARN msg=\"cross-origin request refused\"") != 3*len(executing) || !strings.Contains(l, "origin=https://evil.example") {
		t.Errorf("refusals not logged at WARN: %s", l)
	}

	call := "/tools/delete_alert/call"
	do(t, s, "POST", call, `{}`).is(t, 200, `{"content":[{"type":"text","text":"deleted"}],"isError":false}`)                                  // curl
	do(t, s, "POST", call, `{}`, "Sec-Fetch-Site", "same-origin").is(t, 200, `{"content":[{"type":"text","text":"deleted"}],"isError":false}`) // the explorer page
	do(t, s, "POST", call, `{}`, "Origin", "http://example.com").is(t, 200, `{"content":[{"type":"text","text":"deleted"}],"isError":false}`)  // an old browser, same origin
	do(t, s, "POST", call, `{}`, "Sec-Fetch-Site", "cross-site", "Origin", "https://trusted.example").is(t, 200, `{"content":[{"type":"text","text":"deleted"}],"isError":false}`)
	// Reading is not refused: safe methods change nothing.
	if r := do(t, s, "GET", "/tools", "", "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"); r.status != 200 {
		t.Errorf("cross-origin GET /tools: %d", r.status)
	}
	if runs.Load() != 4 {
		t.Errorf("allowed requests ran the tool %d times, want 4", runs.Load())
	}
}

func TestTrustedOriginMustBeAnOrigin(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a malformed trusted origin was accepted")
		}
	}()
	NewServer(ToolList{}, &Options{TrustedOrigins: []string{"https://a.example/path"}})
}

// On a loopback address, a request for a host that is not a loopback name
// is a DNS-rebinding page: refused on every path before anything runs.
func TestDNSRebindingRefused(t *testing.T) {
	var runs atomic.Int32
	var logs logBuffer
	hs := newHTTPTest(NewServer(countingTools(&runs), &Options{AllowExecute: true, AllowedHosts: []string{"tools.example.com"}, Logger: logs.Logger()}))
	defer hs.Close()
	port := hs.URL[strings.LastIndexByte(hs.URL, ':')+1:]
	send := func(method, path, host, body string) (int, string) {
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, readAll(resp)
	}
	reads := []struct {
		method, path, body string
		refused            func(msg string) string
	}{{"GET", "/tools", "", explorerRefusal}, {"GET", "/", "", explorerRefusal}, {"GET", "/health", "", explorerRefusal}}
	for _, e := range append(executing[:len(executing):len(executing)], reads...) {
		for _, host := range []string{"rebind.evil.example", "rebind.evil.example:" + port, "tools.example.com.evil.example", "10.0.0.1:" + port} {
			if code, body := send(e.method, e.path, host, e.body); code != 403 || strings.TrimSpace(body) != e.refused("Host not allowed.") {
				t.Errorf("%s %s Host %s: %d %s", e.method, e.path, host, code, body)
			}
		}
	}
	if runs.Load() != 0 {
		t.Fatalf("a refused request ran the tool %d times", runs.Load())
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "host=rebind.evil.example") {
		t.Errorf("refusal not logged at WARN: %s", logs.String())
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST", "[::1]:" + port, "app.localhost:" + port, "tools.example.com", "tools.example.com:" + port} {
		if code, body := send("POST", "/tools/delete_alert/call", host, `{}`); code != 200 {
			t.Errorf("Host %s: %d %s", host, code, body)
		}
	}
	if code, _ := send("POST", "/mcp", "localhost:"+port, mcpInitialize); code != 200 {
		t.Errorf("MCP initialize for localhost: %d", code)
	}

	anyHost := newHTTPTest(NewServer(countingTools(&runs), &Options{AllowExecute: true, AllowedHosts: []string{"*"}}))
	defer anyHost.Close()
	req, _ := http.NewRequest("POST", anyHost.URL+"/tools/delete_alert/call", strings.NewReader(`{}`))
	req.Host = "anything.example"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf(`AllowedHosts "*": %v %v`, resp, err)
	}
}
