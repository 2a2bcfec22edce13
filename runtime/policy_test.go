package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/toolgen-go/toolgen/runtime"
)

// Policy on the tool, once for every surface: scopes decide what a caller
// sees in every listing and may call; a rate limit refuses a caller past
// it, with the surface's way of saying when to retry, and not another
// caller; a window later the caller is served again.

var jwtSecret = []byte("policy-test-secret-0123456789abcdef")

// token signs a JWT for sub with claims (scope, scp).
func token(t *testing.T, sub string, claims jwt.MapClaims) string {
	t.Helper()
	c := jwt.MapClaims{"sub": sub, "exp": time.Now().Add(time.Hour).Unix()}
	for k, v := range claims {
		c[k] = v
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(jwtSecret)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type policyServer struct {
	url  string
	runs map[string]*atomic.Int64
	// clock is the rate limits' clock.
	clock *runtime.FakeClock
}

func newPolicyServer(t *testing.T) *policyServer {
	ps := &policyServer{runs: map[string]*atomic.Int64{}}
	tool := func(name string, scopes []string, rate runtime.Rate) runtime.Tool {
		n := new(atomic.Int64)
		ps.runs[name] = n
		tl := runtime.MustNewTool(name, "The "+name+" tool.", func(context.Context, struct{}) (string, error) {
			n.Add(1)
			return name + " done", nil
		})
		tl.Scopes, tl.RateLimit = scopes, rate
		return tl
	}
	s := runtime.NewServer(runtime.ToolList{
		tool("ping", nil, runtime.Rate{}),
		tool("read_issue", []string{"issues:read"}, runtime.Rate{}),
		tool("close_issue", []string{"issues:read", "issues:write"}, runtime.Rate{}),
		tool("limited", nil, runtime.Rate{N: 3, Per: time.Minute}),
		// One call per 5 s, on the test's clock: two calls in a row fall
		// in one window, and the test moves the clock past it.
		tool("quick", nil, runtime.Rate{N: 1, Per: 5 * time.Second}),
	}, &runtime.Options{
		AllowExecute: true,
		AuthHook:     runtime.JWT(runtime.JWTOptions{Secret: jwtSecret}),
		Logger:       discardLogger(),
	})
	ps.clock = runtime.NewFakeClock()
	runtime.SetLimiterClock(s, ps.clock.Now)
	hs := httptest.NewServer(house(s))
	t.Cleanup(hs.Close)
	ps.url = hs.URL
	return ps
}

func TestScopesInEveryListing(t *testing.T) {
	ps := newPolicyServer(t)
	callers := map[string]struct {
		token string
		want  []string
	}{
		"reader (scope)":     {token(t, "reader", jwt.MapClaims{"scope": "issues:read"}), []string{"limited", "ping", "quick", "read_issue"}},
		"writer (scp)":       {token(t, "writer", jwt.MapClaims{"scp": []string{"issues:read", "issues:write"}}), []string{"close_issue", "limited", "ping", "quick", "read_issue"}},
		"no scopes":          {token(t, "nobody", nil), []string{"limited", "ping", "quick"}},
		"anonymous (public)": {"", []string{"limited", "ping", "quick"}},
	}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	listings := []struct {
		name   string
		public bool
		list   func(t *testing.T, tok string) []string
	}{
		{"explorer /tools", true, func(t *testing.T, tok string) []string {
			var out []struct{ Name string }
			get(t, ps.url+"/tools", tok, &out)
			return names(out, func(x struct{ Name string }) string { return x.Name })
		}},
		{"/openapi.json", true, func(t *testing.T, tok string) []string {
			var doc struct{ Paths map[string]any }
			get(t, ps.url+"/openapi.json", tok, &doc)
			var out []string
			for p := range doc.Paths {
				if name, ok := strings.CutSuffix(strings.TrimPrefix(p, "/tools/"), "/call"); ok {
					out = append(out, name)
				}
			}
			return out
		}},
		{"/oxp/tools", false, func(t *testing.T, tok string) []string {
			var body struct{ Tools []struct{ Name string } }
			get(t, ps.url+"/oxp/tools", tok, &body)
			return names(body.Tools, func(x struct{ Name string }) string {
				return map[string]string{"Tools_Ping": "ping", "Tools_ReadIssue": "read_issue", "Tools_CloseIssue": "close_issue", "Tools_Limited": "limited", "Tools_Quick": "quick"}[x.Name]
			})
		}},
		{"/v1/tools", false, func(t *testing.T, tok string) []string {
			var body struct{ Tools []struct{ Name string } }
			get(t, ps.url+"/v1/tools", tok, &body)
			return names(body.Tools, func(x struct{ Name string }) string { return x.Name })
		}},
		{"MCP tools/list, 2026-07-28", false, func(t *testing.T, tok string) []string {
			return mcpList(t, ps.url, tok, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}`, "", "2026-07-28")
		}},
		{"MCP tools/list, in a session", false, func(t *testing.T, tok string) []string {
			return mcpList(t, ps.url, tok, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, openSession(t, ps.url, tok), "2025-11-25")
		}},
		{"MCP registry resource", false, func(t *testing.T, tok string) []string {
			body := mcpPost(t, ps.url, tok, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"toolgen://tools",`+meta+`}}`, "", "2026-07-28")
			var res struct {
				Result struct{ Contents []struct{ Text string } }
			}
			if err := json.Unmarshal([]byte(rpcBody(body)), &res); err != nil || len(res.Result.Contents) != 1 {
				t.Fatalf("registry: %s", body)
			}
			var list []struct{ Name string }
			if err := json.Unmarshal([]byte(res.Result.Contents[0].Text), &list); err != nil {
				t.Fatal(err)
			}
			return names(list, func(x struct{ Name string }) string { return x.Name })
		}},
	}
	for _, l := range listings {
		for who, c := range callers {
			t.Run(l.name+"/"+who, func(t *testing.T) {
				if c.token == "" && !l.public {
					return // behind the hook: anonymous is a 401, tested with the surfaces
				}
				got := l.list(t, c.token)
				slices.Sort(got)
				if !slices.Equal(got, c.want) {
					t.Errorf("lists %v, want %v", got, c.want)
				}
			})
		}
	}

	// A tool the caller may not call is not found, not forbidden: its
	// existence does not leak.
	reader := callers["reader (scope)"].token
	if code, _ := status(t, ps.url+"/tools/close_issue", reader); code != 404 {
		t.Errorf("GET /tools/close_issue as the reader: %d, want 404", code)
	}
	// Validating it is the same: as for an unknown tool, whether anonymous
	// (validation is public) or without the scopes.
	unknown := post(t, ps.url+"/tools/no_such_tool/validate", "", `{}`)
	for _, tok := range []string{"", reader} {
		if a := post(t, ps.url+"/tools/close_issue/validate", tok, `{}`); a.status != 404 || a.body != strings.ReplaceAll(unknown.body, "no_such_tool", "close_issue") {
			t.Errorf("POST /tools/close_issue/validate (token %t): %d %s, want as for an unknown tool: 404 %s", tok != "", a.status, a.body, unknown.body)
		}
	}
	if a := post(t, ps.url+"/tools/close_issue/validate", callers["writer (scp)"].token, `{}`); a.status != 200 {
		t.Errorf("the writer validates close_issue: %d %s", a.status, a.body)
	}
	var detail struct{ Scopes []string }
	get(t, ps.url+"/tools/close_issue", callers["writer (scp)"].token, &detail)
	if !slices.Equal(detail.Scopes, []string{"issues:read", "issues:write"}) {
		t.Errorf("the writer sees scopes %v", detail.Scopes)
	}
}

func TestScopesAndRateLimitsOnEverySurface(t *testing.T) {
	ps := newPolicyServer(t)
	writer := token(t, "writer", jwt.MapClaims{"scp": []string{"issues:read", "issues:write"}})
	t.Cleanup(func() {
		// Refusals are counted in /metrics, by surface and status.
		code, body := status(t, ps.url+"/metrics", "")
		for _, want := range []string{`outcome="rate_limited",surface="v1",tool="limited"`, `outcome="forbidden",surface="mcp",tool="close_issue"`} {
			if code != 200 || !strings.Contains(body, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	})
	for _, sf := range surfaces(t, ps.url, writer) {
		t.Run(sf.name, func(t *testing.T) {
			if sf.validate {
				return // /validate never runs a tool: no policy to enforce
			}
			// Each surface has its own callers, so that their buckets and
			// sessions are their own.
			reader := token(t, "reader-"+sf.name, jwt.MapClaims{"scope": "issues:read"})
			other := token(t, "other-"+sf.name, jwt.MapClaims{"scope": "issues:read"})
			call := func(tok, tool string) (*http.Response, string) {
				t.Helper()
				var req *http.Request
				for _, s := range surfaces(t, ps.url, tok) {
					if s.name == sf.name {
						req = s.request(t, ps.url, tool, []byte(`{}`))
					}
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				return resp, string(b)
			}

			// Allowed.
			if resp, body := call(reader, "read_issue"); !sf.ran(resp.StatusCode, body) {
				t.Errorf("the reader's read_issue: %d %s", resp.StatusCode, body)
			}
			// Missing a scope: refused before the handler.
			before := ps.runs["close_issue"].Load()
			resp, body := call(reader, "close_issue")
			if ps.runs["close_issue"].Load() != before || sf.ran(resp.StatusCode, body) {
				t.Errorf("the reader's close_issue ran: %d %s", resp.StatusCode, body)
			}
			if !strings.Contains(body, "needs the scope issues:write") {
				t.Errorf("the refusal does not name the scope: %s", body)
			}
			if strings.HasPrefix(sf.name, "mcp") {
				if resp.StatusCode != 200 || !strings.Contains(body, `"isError":true`) {
					t.Errorf("MCP: want an error result, got %d %s", resp.StatusCode, body)
				}
			} else if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || ch != `Bearer error="insufficient_scope", scope="issues:read issues:write"` {
				t.Errorf("want 403 insufficient_scope, got %d %q %s", resp.StatusCode, ch, body)
			}
			// The writer may.
			if resp, body := call(writer, "close_issue"); !sf.ran(resp.StatusCode, body) {
				t.Errorf("the writer's close_issue: %d %s", resp.StatusCode, body)
			}

			// Rate limited: 3 a minute, then refused with when to retry.
			for i := range 3 {
				if resp, body := call(reader, "limited"); !sf.ran(resp.StatusCode, body) {
					t.Fatalf("call %d: %d %s", i+1, resp.StatusCode, body)
				}
			}
			before = ps.runs["limited"].Load()
			resp, body = call(reader, "limited")
			if ps.runs["limited"].Load() != before || sf.ran(resp.StatusCode, body) {
				t.Fatalf("the 4th call in a minute ran: %d %s", resp.StatusCode, body)
			}
			switch {
			case sf.name == "explorer" || sf.name == "v1":
				secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
				if resp.StatusCode != 429 || err != nil || secs < 1 || secs > 60 || !json.Valid([]byte(body)) {
					t.Errorf("want 429 with Retry-After, got %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
				}
			case sf.name == "oxp":
				var r struct {
					Result struct {
						Success bool
						Error   struct {
							CanRetry     bool  `json:"can_retry"`
							RetryAfterMS int64 `json:"retry_after_ms"`
						}
					}
				}
				if err := json.Unmarshal([]byte(body), &r); err != nil || resp.StatusCode != 200 || r.Result.Success || !r.Result.Error.CanRetry || r.Result.Error.RetryAfterMS <= 0 {
					t.Errorf("want success:false with can_retry and retry_after_ms, got %d %s", resp.StatusCode, body)
				}
			default: // MCP
				if resp.StatusCode != 200 || !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "retry in") {
					t.Errorf("want an error result saying when to retry, got %d %s", resp.StatusCode, body)
				}
			}
			// Another caller is not affected.
			if resp, body := call(other, "limited"); !sf.ran(resp.StatusCode, body) {
				t.Errorf("another caller: %d %s", resp.StatusCode, body)
			}

			// A window later, the caller is served again: 1 per 5 s.
			if resp, body := call(reader, "quick"); !sf.ran(resp.StatusCode, body) {
				t.Fatalf("quick: %d %s", resp.StatusCode, body)
			}
			if resp, body := call(reader, "quick"); sf.ran(resp.StatusCode, body) {
				t.Fatalf("a second quick call at once ran: %d %s", resp.StatusCode, body)
			}
			ps.clock.Advance(5 * time.Second) // the window passes
			if resp, body := call(reader, "quick"); !sf.ran(resp.StatusCode, body) {
				t.Fatalf("still refused after the window: %d %s", resp.StatusCode, body)
			}
		})
	}
}

// Without an auth hook there is no caller to ask: scopes are not enforced
// (and the server says so once, when it starts).
func TestScopesWithoutAHook(t *testing.T) {
	var logs strings.Builder
	tl := runtime.MustNewTool("close_issue", "Closes.", func(context.Context, struct{}) (string, error) { return "closed", nil })
	tl.Scopes = []string{"issues:write"}
	s := runtime.NewServer(runtime.ToolList{tl}, &runtime.Options{Logger: textLogger(&logs)})
	out := s.Invoke(context.Background(), &runtime.Call{Tool: "close_issue"})
	if out.Status != runtime.StatusOK {
		t.Errorf("without a hook: %s %v", out.Status, out.Err)
	}
	if !strings.Contains(logs.String(), "scopes are not enforced") || !strings.Contains(logs.String(), "issues:write") {
		t.Errorf("no warning at start: %s", logs.String())
	}
}

// A tool's own timeout overrides the server's: the call ends at the
// tool's 20ms (in a synctest bubble, so exactly), not the server's hour.
func TestToolTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tl := runtime.MustNewTool("wait", "Waits for its deadline.", func(ctx context.Context, _ struct{}) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		})
		tl.Timeout = 20 * time.Millisecond
		s := runtime.NewServer(runtime.ToolList{tl}, &runtime.Options{CallTimeout: time.Hour, Logger: discardLogger()})
		start := time.Now()
		out := s.Invoke(context.Background(), &runtime.Call{Tool: "wait"})
		if out.Status != runtime.StatusTimeout || out.Result.Content[0].Text != "Tool wait timed out after 20ms." || time.Since(start) != 20*time.Millisecond {
			t.Errorf("%s %+v after %v", out.Status, out.Result, time.Since(start))
		}
	})
}

// Static credentials grant scopes.
func TestCredentialsGrantScopes(t *testing.T) {
	tl := runtime.MustNewTool("close_issue", "Closes.", func(ctx context.Context, _ struct{}) (string, error) {
		p, _ := runtime.PrincipalFromContext(ctx)
		return p.Subject, nil
	})
	tl.Scopes = []string{"issues:write"}
	for name, hook := range map[string]runtime.AuthHook{
		"bearer": runtime.BearerCredentials(
			runtime.Credential{Secret: "r", Subject: "reader", Scopes: []string{"issues:read"}},
			runtime.Credential{Secret: "w", Subject: "writer", Scopes: []string{"issues:write"}}),
		"api key": runtime.APIKeyCredentials("Authorization",
			runtime.Credential{Secret: "Bearer r", Subject: "reader", Scopes: []string{"issues:read"}},
			runtime.Credential{Secret: "Bearer w", Subject: "writer", Scopes: []string{"issues:write"}}),
	} {
		s := runtime.NewServer(runtime.ToolList{tl}, &runtime.Options{AllowExecute: true, AuthHook: hook, Logger: discardLogger()})
		for tok, want := range map[string]int{"r": 403, "w": 200} {
			req := httptest.NewRequest("POST", "/tools/close_issue/call", strings.NewReader(`{}`))
			req.Header.Set("Authorization", "Bearer "+tok)
			w := httptest.NewRecorder()
			house(s).ServeHTTP(w, req)
			if w.Code != want {
				t.Errorf("%s, token %s: %d %s, want %d", name, tok, w.Code, w.Body, want)
			}
		}
	}
}

func get(t *testing.T, url, tok string, v any) {
	t.Helper()
	code, body := status(t, url, tok)
	if code != 200 {
		t.Fatalf("GET %s: %d %s", url, code, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v %s", url, err, body)
	}
}

func status(t *testing.T, url, tok string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func mcpPost(t *testing.T, url, tok, body, session, version string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("MCP-Protocol-Version", version)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	} else {
		var m struct{ Method string }
		_ = json.Unmarshal([]byte(body), &m)
		req.Header.Set("Mcp-Method", m.Method)
		if m.Method == "resources/read" {
			req.Header.Set("Mcp-Name", "toolgen://tools")
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("MCP %s: %d %s", body, resp.StatusCode, b)
	}
	return string(b)
}

func mcpList(t *testing.T, url, tok, body, session, version string) []string {
	t.Helper()
	out := mcpPost(t, url, tok, body, session, version)
	var res struct {
		Result struct{ Tools []struct{ Name string } }
	}
	if err := json.Unmarshal([]byte(rpcBody(out)), &res); err != nil {
		t.Fatalf("tools/list: %v %s", err, out)
	}
	return names(res.Result.Tools, func(x struct{ Name string }) string { return x.Name })
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, name(x))
	}
	return out
}

func textLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

// Behind an auth hook a caller reads its own invocations only; another's
// is not found; the history:read scope reads them all.
func TestHistoryReadsAreScoped(t *testing.T) {
	ps := newPolicyServer(t)
	a := token(t, "alice", nil)
	b := token(t, "bob", nil)
	auditor := token(t, "auditor", jwt.MapClaims{"scope": runtime.ScopeHistoryRead})
	call := func(tok string) string {
		req, _ := http.NewRequest("POST", ps.url+"/v1/tools/ping", strings.NewReader(`{"input":{}}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			InvocationID string `json:"invocation_id"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.InvocationID == "" {
			t.Fatalf("call: %d %v", resp.StatusCode, err)
		}
		return out.InvocationID
	}
	idA, idB := call(a), call(b)
	list := func(tok string) []string {
		var page struct {
			Invocations []struct {
				ID     string
				Caller *string
			}
			Total int
		}
		get(t, ps.url+"/v1/invocations", tok, &page)
		var ids []string
		for _, r := range page.Invocations {
			ids = append(ids, r.ID)
		}
		if page.Total != len(ids) {
			t.Errorf("total %d for %d records", page.Total, len(ids))
		}
		return ids
	}
	if got := list(a); !slices.Equal(got, []string{idA}) {
		t.Errorf("alice lists %v, want her own %s", got, idA)
	}
	if got := list(b); !slices.Equal(got, []string{idB}) {
		t.Errorf("bob lists %v, want his own %s", got, idB)
	}
	if got := list(auditor); !slices.Equal(got, []string{idB, idA}) {
		t.Errorf("the auditor lists %v, want both", got)
	}
	if code, body := status(t, ps.url+"/v1/invocations/"+idA, b); code != 404 {
		t.Errorf("bob fetching alice's invocation: %d %s", code, body)
	}
	if code, _ := status(t, ps.url+"/v1/invocations/"+idA, a); code != 200 {
		t.Errorf("alice fetching her own: %d", code)
	}
	if code, _ := status(t, ps.url+"/v1/invocations/"+idA, auditor); code != 200 {
		t.Errorf("the auditor fetching alice's: %d", code)
	}
}

// A rate limit is one bucket per caller, whatever surface a call comes
// in on and whatever connection (and so client port) it comes on: by the
// caller's identity behind an auth hook, by client address without one.
func TestRateLimitOneBucketPerCaller(t *testing.T) {
	for _, withHook := range []bool{true, false} {
		t.Run(map[bool]string{true: "behind a hook", false: "without a hook"}[withHook], func(t *testing.T) {
			var runs atomic.Int64
			tool := runtime.MustNewTool("limited", "Limited.", func(context.Context, struct{}) (string, error) {
				runs.Add(1)
				return "done", nil
			})
			// One call a surface that runs tools in the window, no more
			// (an hour: the test never waits one out).
			const executing = 5 // explorer, OXP, /v1, MCP 2026-07-28, an MCP session
			tool.RateLimit = runtime.Rate{N: executing, Per: time.Hour}
			opts := &runtime.Options{AllowExecute: true, Logger: discardLogger()}
			tok := ""
			if withHook {
				opts.AuthHook = runtime.JWT(runtime.JWTOptions{Secret: jwtSecret})
				tok = token(t, "limited-caller", nil)
			}
			hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{tool}, opts)))
			defer hs.Close()
			// A new connection, and so a new client port, for every request.
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			call := func(sf callSurface) (int, string) {
				t.Helper()
				resp, err := client.Do(sf.request(t, hs.URL, "limited", []byte(`{}`)))
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b)
			}
			sfs := slices.DeleteFunc(surfaces(t, hs.URL, tok), func(sf callSurface) bool { return sf.validate })
			if len(sfs) != executing {
				t.Fatalf("%d surfaces run tools, the limit is for %d", len(sfs), executing)
			}
			for _, sf := range sfs {
				if code, body := call(sf); !sf.ran(code, body) {
					t.Fatalf("%s, within the limit: %d %s", sf.name, code, body)
				}
			}
			for _, sf := range sfs {
				before := runs.Load()
				if code, body := call(sf); sf.ran(code, body) || runs.Load() != before {
					t.Errorf("%s, past the caller's limit (spent on every surface): ran, %d %s", sf.name, code, body)
				}
			}
		})
	}
}
