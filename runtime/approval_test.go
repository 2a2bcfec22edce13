package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// Approval by an operator (Tool.Approval = ApprovalOperator): a call files
// a human request and waits; only a principal with the scope approvals
// that is not the caller can answer; approve runs the tool, reject fails
// the call, and history keeps who decided. One table, every surface.

type deployArgs struct {
	Env string `json:"env"`
}

type approvalServer struct {
	url  string
	runs atomic.Int64
}

func newApprovalServer(t *testing.T, configure func(*runtime.Options)) *approvalServer {
	as := &approvalServer{}
	deploy := runtime.MustNewTool("deploy", "Deploys.", func(_ context.Context, in deployArgs) (string, error) {
		as.runs.Add(1)
		return "deployed to " + in.Env, nil
	})
	deploy.Approval = runtime.ApprovalOperator
	destructive := true
	wipe := runtime.MustNewTool("wipe", "Wipes.", func(context.Context, struct{}) (string, error) {
		as.runs.Add(1)
		return "wiped", nil
	})
	wipe.Annotations = &runtime.Annotations{DestructiveHint: &destructive}
	ask := runtime.MustNewTool("ask_first", "Asks its user first.", func(context.Context, struct{}) (string, error) {
		as.runs.Add(1)
		return "done", nil
	})
	ask.Approval = runtime.ApprovalClient
	opts := &runtime.Options{
		AllowExecute: true,
		AuthHook:     runtime.JWT(runtime.JWTOptions{Secret: jwtSecret}),
		Logger:       discardLogger(),
	}
	if configure != nil {
		configure(opts)
	}
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{deploy, wipe, ask}, opts)))
	t.Cleanup(hs.Close)
	as.url = hs.URL
	return as
}

// pendingApproval waits for the pending approval request of caller's call
// of tool, as the operator tok sees it, and returns it.
func pendingApproval(t *testing.T, url, tok, caller, tool string) fullRequest {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var page struct{ Requests []fullRequest }
		get(t, url+"/v1/human/requests?status=pending&request_type=approval", tok, &page)
		for _, r := range page.Requests {
			var ctx struct{ Tool, Caller string }
			json.Unmarshal(r.Context, &ctx)
			if ctx.Caller == caller && ctx.Tool == tool {
				return r
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pending approval of %s's call of %s after 30s", caller, tool)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type answer struct {
	status int
	body   string
}

// callAsync starts sf's call of tool and returns where its answer arrives.
func callAsync(t *testing.T, sf callSurface, url, tool, args string) <-chan answer {
	req := sf.request(t, url, tool, []byte(args))
	ch := make(chan answer, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			ch <- answer{0, err.Error()}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ch <- answer{resp.StatusCode, string(b)}
	}()
	return ch
}

func TestOperatorApprovalOnEverySurface(t *testing.T) {
	as := newApprovalServer(t, nil)
	ops := token(t, "ops", jwt.MapClaims{"scope": runtime.ScopeApprovals})
	for _, sf := range surfaces(t, as.url, ops) {
		if sf.validate {
			continue
		}
		t.Run(sf.name, func(t *testing.T) {
			agent := token(t, "agent-"+sf.name, nil)
			lead := token(t, "lead-"+sf.name, jwt.MapClaims{"scope": runtime.ScopeApprovals})
			surfaceOf := func(tok string) callSurface {
				for _, s := range surfaces(t, as.url, tok) {
					if s.name == sf.name {
						return s
					}
				}
				t.Fatal("no surface " + sf.name)
				return callSurface{}
			}
			respond := func(tok, id, answer string, wantStatus int) string {
				t.Helper()
				return expect(t, "POST", as.url+"/v1/human/responses", tok, `{"request_id":"`+id+`","response":"`+answer+`","responded_by":"someone else"}`, wantStatus, "")
			}

			// Approved: the call waits, then runs.
			before := as.runs.Load()
			done := callAsync(t, surfaceOf(agent), as.url, "deploy", `{"env":"prod"}`)
			req := pendingApproval(t, as.url, ops, "agent-"+sf.name, "deploy")
			if strings.Join(req.Options, ",") != "approve,reject" || req.Prompt != "Approve the call of deploy?" ||
				!strings.Contains(string(req.Context), `"arguments":{"env":"prod"}`) || !strings.Contains(string(req.Context), `"surface":"`) {
				t.Errorf("the approval request: %+v %s", req, req.Context)
			}
			// The caller sees its own request, and cannot answer it.
			expect(t, "GET", as.url+"/v1/human/requests/"+req.ID, agent, "", 200, "")
			expect(t, "POST", as.url+"/v1/human/responses", agent, `{"request_id":"`+req.ID+`","response":"approve"}`, 403,
				`Answering the approval of a tool's call needs the scope "approvals".`)
			if as.runs.Load() != before {
				t.Fatal("the tool ran before it was approved")
			}
			body := respond(ops, req.ID, "approve", 201)
			if !strings.Contains(body, `"responded_by":"ops"`) {
				t.Errorf("responded_by is not the principal: %s", body)
			}
			a := <-done
			if !sf.ran(a.status, a.body) || !strings.Contains(a.body, "deployed to prod") {
				t.Fatalf("the approved call: %d %s", a.status, a.body)
			}
			// History keeps who decided: the invocation id is the request's.
			var rec struct {
				Status   string
				Approval struct{ Decision, By, At string }
			}
			get(t, as.url+"/v1/invocations/"+req.ID, agent, &rec)
			if rec.Status != "success" || rec.Approval.Decision != "approve" || rec.Approval.By != "ops" || rec.Approval.At == "" {
				t.Errorf("the record: %+v", rec)
			}

			// Rejected: the call fails, unrun, saying by whom.
			before = as.runs.Load()
			done = callAsync(t, surfaceOf(agent), as.url, "deploy", `{"env":"staging"}`)
			req = pendingApproval(t, as.url, ops, "agent-"+sf.name, "deploy")
			respond(ops, req.ID, "reject", 201)
			a = <-done
			if sf.ran(a.status, a.body) || as.runs.Load() != before || !strings.Contains(a.body, "The call of deploy was rejected by ops; it was not run.") {
				t.Errorf("the rejected call: %d %s", a.status, a.body)
			}
			get(t, as.url+"/v1/invocations/"+req.ID, agent, &rec)
			if rec.Status != "failed" || rec.Approval.Decision != "reject" || rec.Approval.By != "ops" {
				t.Errorf("the record: %+v", rec)
			}

			// The caller cannot approve its own call, scope or not.
			done = callAsync(t, surfaceOf(lead), as.url, "deploy", `{"env":"qa"}`)
			req = pendingApproval(t, as.url, ops, "lead-"+sf.name, "deploy")
			expect(t, "POST", as.url+"/v1/human/responses", lead, `{"request_id":"`+req.ID+`","response":"approve"}`, 403,
				"The caller of a tool cannot approve its own call.")
			respond(ops, req.ID, "approve", 201)
			if a := <-done; !sf.ran(a.status, a.body) {
				t.Errorf("the lead's call, approved by ops: %d %s", a.status, a.body)
			}
		})
	}
}

// A caller that goes away withdraws its request.
func TestOperatorApprovalCancelled(t *testing.T) {
	as := newApprovalServer(t, nil)
	agent, ops := token(t, "agent", nil), token(t, "ops", jwt.MapClaims{"scope": runtime.ScopeApprovals})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", as.url+"/v1/tools/deploy", strings.NewReader(`{"input":{"env":"prod"}}`))
	req.Header.Set("Authorization", "Bearer "+agent)
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	pending := pendingApproval(t, as.url, ops, "agent", "deploy")
	cancel()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b := expect(t, "GET", as.url+"/v1/human/requests/"+pending.ID, ops, "", 200, "")
		if strings.Contains(b, `"status":"cancelled"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %s after 30s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	expect(t, "POST", as.url+"/v1/human/responses", ops, `{"request_id":"`+pending.ID+`","response":"approve"}`, 409, "Request has been cancelled")
	if as.runs.Load() != 0 {
		t.Error("a withdrawn call ran")
	}
}

// Options.ApproveDestructive: a destructive tool needs an operator too.
func TestApproveDestructive(t *testing.T) {
	as := newApprovalServer(t, func(o *runtime.Options) { o.ApproveDestructive = true })
	agent, ops := token(t, "agent", nil), token(t, "ops", jwt.MapClaims{"scope": runtime.ScopeApprovals})
	v1 := callSurface{name: "v1", request: func(t *testing.T, url, tool string, args []byte) *http.Request {
		r, _ := http.NewRequest("POST", url+"/v1/tools/"+tool, strings.NewReader(`{"input":`+string(args)+`}`))
		r.Header.Set("Authorization", "Bearer "+agent)
		return r
	}}
	done := callAsync(t, v1, as.url, "wipe", `{}`)
	req := pendingApproval(t, as.url, ops, "agent", "wipe")
	expect(t, "POST", as.url+"/v1/human/responses", ops, `{"request_id":"`+req.ID+`","response":"approve"}`, 201, "")
	if a := <-done; !strings.Contains(a.body, `"result":"wiped"`) {
		t.Errorf("the approved wipe: %d %s", a.status, a.body)
	}
}

// Without an auth hook nobody can tell an operator from the caller: the
// call is refused at once, never run, never left waiting.
func TestOperatorApprovalWithoutAHook(t *testing.T) {
	as := newApprovalServer(t, func(o *runtime.Options) { o.AuthHook = nil })
	body := expect(t, "POST", as.url+"/v1/tools/deploy", "", `{"input":{"env":"prod"}}`, 200, "")
	if !strings.Contains(body, "Tool deploy needs an operator's approval, and this server has no auth hook to tell an operator from the caller; it was not run.") || as.runs.Load() != 0 {
		t.Errorf("without a hook: %s", body)
	}
}

// MCP callers hear how long they have waited (progress notifications).
func TestOperatorApprovalProgressOverMCP(t *testing.T) {
	as := newApprovalServer(t, nil)
	agent, ops := token(t, "agent", nil), token(t, "ops", jwt.MapClaims{"scope": runtime.ScopeApprovals})
	progress := make(chan string, 100)
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- r.Params.Message:
			default:
			}
		},
	})
	transport := &mcp.StreamableClientTransport{Endpoint: as.url + "/mcp", HTTPClient: &http.Client{Transport: bearer{agent}}}
	cs, err := client.Connect(t.Context(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	type result struct {
		r   *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{"env": "prod"}}
		p.SetProgressToken("deploy-1")
		r, err := cs.CallTool(t.Context(), p)
		done <- result{r, err}
	}()
	req := pendingApproval(t, as.url, ops, "agent", "deploy")
	select {
	case msg := <-progress:
		if !strings.HasPrefix(msg, "Waiting for an operator to approve deploy") {
			t.Errorf("progress message %q", msg)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no progress notification in 30s")
	}
	expect(t, "POST", as.url+"/v1/human/responses", ops, `{"request_id":"`+req.ID+`","response":"approve"}`, 201, "")
	r := <-done
	if r.err != nil || r.r.IsError {
		t.Fatalf("the approved call: %+v %v", r.r, r.err)
	}
}

// bearer adds a bearer token to every request.
type bearer struct{ tok string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.tok)
	return http.DefaultTransport.RoundTrip(r)
}

// A call refused at its approval (rejected here; expired and cancelled
// alike) did not run: its key's retry runs, asking again, rather than
// answering the refusal for ever; once a retry has run, a repeat answers
// its outcome. On every surface that takes a key.
func TestIdempotentRetryAfterRefusedApproval(t *testing.T) {
	as := newApprovalServer(t, nil)
	ops := token(t, "ops", jwt.MapClaims{"scope": runtime.ScopeApprovals})
	for _, sf := range []struct {
		name string
		call func(tok, key string) answer
	}{
		{"explorer", func(tok, key string) answer {
			a := post(t, as.url+"/tools/deploy/call", tok, `{"env":"prod"}`, "Idempotency-Key", key)
			return answer{a.status, a.body}
		}},
		{"v1", func(tok, key string) answer {
			a := post(t, as.url+"/v1/tools/deploy", tok, `{"input":{"env":"prod"}}`, "Idempotency-Key", key)
			return answer{a.status, a.body}
		}},
		{"oxp", func(tok, key string) answer {
			a := post(t, as.url+"/oxp/tools/call", tok, `{"request":{"tool_id":"Tools.Deploy","call_id":"`+key+`","input":{"env":"prod"}}}`)
			return answer{a.status, a.body}
		}},
	} {
		t.Run(sf.name, func(t *testing.T) {
			agent := token(t, "retry-"+sf.name, nil)
			key := "deploy-" + sf.name
			attempt := func(decision string) (answer, string) {
				t.Helper()
				done := make(chan answer, 1)
				go func() { done <- sf.call(agent, key) }()
				req := pendingApproval(t, as.url, ops, "retry-"+sf.name, "deploy")
				expect(t, "POST", as.url+"/v1/human/responses", ops, `{"request_id":"`+req.ID+`","response":"`+decision+`"}`, 201, "")
				return <-done, req.ID
			}
			before := as.runs.Load()
			refused, first := attempt("reject")
			if !strings.Contains(refused.body, "rejected by ops; it was not run") || as.runs.Load() != before {
				t.Fatalf("the rejected call: %d %s", refused.status, refused.body)
			}
			ran, second := attempt("approve")
			if !strings.Contains(ran.body, "deployed to prod") || as.runs.Load() != before+1 || second == first {
				t.Fatalf("the retry: %d %s, %d runs, its request %s after %s", ran.status, ran.body, as.runs.Load()-before, second, first)
			}
			// The retry's outcome is the key's now: a repeat answers it,
			// not running the tool, nor asking again.
			if again := sf.call(agent, key); !strings.Contains(again.body, "deployed to prod") || as.runs.Load() != before+1 {
				t.Errorf("the repeat: %d %s, %d runs", again.status, again.body, as.runs.Load()-before)
			}
			// Both attempts are in the history.
			var rec struct{ Status string }
			for id, want := range map[string]string{first: "failed", second: "success"} {
				get(t, as.url+"/v1/invocations/"+id, agent, &rec)
				if rec.Status != want {
					t.Errorf("the record of %s: %q, want %q", id, rec.Status, want)
				}
			}
		})
	}
}
