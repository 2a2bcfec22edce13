package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
)

// The HTTP+SSE transport at /sse, for clients that predate Streamable
// HTTP: the same tools through the same pipeline, behind the same auth
// hook and browser guard. Tested with the SDK's SSE client.

func whoamiTool() runtime.Tool {
	return runtime.Tool{Name: "whoami", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		p, _ := runtime.PrincipalFromContext(ctx)
		r, _ := runtime.RequestFromContext(ctx)
		return runtime.TextResult(p.Subject + " " + r.URL.Path), nil
	}}
}

// sseClient connects the SDK's SSE client to url as token.
func sseClient(t *testing.T, url, token string) (*sdk.ClientSession, error) {
	t.Helper()
	client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &sdk.SSEClientTransport{Endpoint: url + "/sse", HTTPClient: client}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func TestSSE(t *testing.T) {
	var listed atomic.Int32
	p := runtime.ToolsFunc(func(context.Context) ([]runtime.Tool, error) {
		listed.Add(1)
		return runtime.ToolList{whoamiTool()}, nil
	})
	s := runtime.NewServer(p, &runtime.Options{AuthHook: runtime.BearerTokens("alpha", "bravo"), Logger: discard()})
	hs := newHTTPTest(s)
	t.Cleanup(hs.Close) // after the clients' cleanups
	ctx := context.Background()

	cs, err := sseClient(t, hs.URL, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("protocol %s", v)
	}
	for range 2 {
		if tools, err := cs.ListTools(ctx, nil); err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "whoami" {
			t.Fatalf("tools/list: %v %v", tools, err)
		}
	}
	if n := listed.Load(); n != 2 {
		t.Errorf("the provider was asked %d times for two lists, want 2", n)
	}
	// The call runs in the context of the stream's GET: its caller, its
	// request.
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "whoami"})
	if err != nil || res.Content[0].(*sdk.TextContent).Text != "token-1 /sse" {
		t.Fatalf("whoami: %v %v", mustJSON(t, res), err)
	}
	// Through the one pipeline: recorded, counted.
	recs, _, _ := s.History().List(ctx, history.Filter{Tool: "whoami"})
	if len(recs) != 1 || recs[0].Surface != runtime.SurfaceMCP || recs[0].Caller == nil || *recs[0].Caller != "token-1" || recs[0].Status != history.Success {
		t.Errorf("history: %+v", recs)
	}
	if r := do(t, s, "GET", "/metrics", ""); !strings.Contains(r.body, `tool="whoami"`) {
		t.Errorf("metrics: %s", r.body)
	}

	// No token: the hook's 401.
	if _, err := sseClient(t, hs.URL, "nope"); err == nil {
		t.Error("connected without a good token")
	}
	resp, err := http.Get(hs.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(resp); resp.StatusCode != 401 || body != rpcUnauthorized {
		t.Errorf("no token: %d %s", resp.StatusCode, body)
	}
}

// openSSE opens a stream by hand and returns the endpoint it names, with
// a function that closes it.
func openSSE(t *testing.T, url, token string) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/sse", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return data, func() { cancel(); resp.Body.Close() }
		}
	}
	t.Fatalf("no endpoint event: %v", sc.Err())
	return "", nil
}

func postSSE(t *testing.T, url, token string, header ...string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A stream belongs to whoever opened it; cross-origin browser requests
// and foreign Hosts are refused as on every surface; the open streams are
// bounded.
func TestSSEGuards(t *testing.T) {
	s := newTestServer(runtime.ToolList{whoamiTool()}, &runtime.Options{AuthHook: runtime.BearerTokens("alpha", "bravo"), Logger: discard()}, &Options{MaxSessions: 2})
	hs := newHTTPTest(s)
	t.Cleanup(hs.Close)

	endpoint, closeStream := openSSE(t, hs.URL, "alpha")
	defer closeStream()
	if !strings.HasPrefix(endpoint, "/sse?sessionid=") {
		t.Fatalf("endpoint %q", endpoint)
	}
	if code := postSSE(t, hs.URL+endpoint, "bravo"); code != 403 {
		t.Errorf("another caller's message: %d", code)
	}
	if code := postSSE(t, hs.URL+endpoint, "alpha", "Sec-Fetch-Site", "cross-site"); code != 403 {
		t.Errorf("a cross-origin browser request: %d", code)
	}
	if code := postSSE(t, hs.URL+endpoint, "alpha"); code != 202 {
		t.Errorf("the owner's message: %d", code)
	}
	req, _ := http.NewRequest("GET", hs.URL+"/sse", nil)
	req.Host = "evil.example.com"
	req.Header.Set("Authorization", "Bearer alpha")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("foreign Host: %v %v", resp.StatusCode, err)
	}

	// Past MaxSessions the least recently used stream is closed.
	_, close2 := openSSE(t, hs.URL, "alpha")
	defer close2()
	_, close3 := openSSE(t, hs.URL, "alpha")
	defer close3()
	deadline := time.Now().Add(30 * time.Second)
	for postSSE(t, hs.URL+endpoint, "alpha") != 404 {
		if time.Now().After(deadline) {
			t.Fatal("the oldest stream is still open")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := sseOf(s).sse.len(); n != 2 {
		t.Errorf("%d streams known, want 2", n)
	}

	off := newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}, &Options{DisableSSE: true})
	if r := do(t, off, "GET", "/sse", ""); r.status != 404 {
		t.Errorf("/sse disabled: %d", r.status)
	}
	moved := newTestServer(runtime.ToolList{}, &runtime.Options{Logger: discard()}, &Options{SSEPath: "/events"})
	if r := do(t, moved, "PUT", "/events", ""); r.status != 405 {
		t.Errorf("/events: %d", r.status)
	}
}

// On /sse too the auth hook runs once per HTTP request: each message is a
// POST of its own, authenticated once on the serving path, and the
// session answers it in the stream's context, without running the hook
// again.
func TestSSEAuthOncePerRequest(t *testing.T) {
	var runs atomic.Int32
	tokens := runtime.BearerTokens("alpha")
	s := runtime.NewServer(runtime.ToolList{whoamiTool()}, &runtime.Options{AuthHook: func(r *http.Request) (context.Context, error) {
		runs.Add(1)
		return tokens(r)
	}, Logger: discard()})
	hs := newHTTPTest(s)
	t.Cleanup(hs.Close)
	cs, err := sseClient(t, hs.URL, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, step := range []struct {
		name string
		do   func() error
	}{
		{"tools/list", func() error { _, err := cs.ListTools(ctx, nil); return err }},
		{"tools/call", func() error { _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "whoami"}); return err }},
	} {
		before := runs.Load()
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if n := runs.Load() - before; n != 1 {
			t.Errorf("%s: the auth hook ran %d times for one POST", step.name, n)
		}
	}
}
