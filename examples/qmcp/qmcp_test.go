package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func request(t *testing.T, s *runtime.Server, method, path, body string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	serve.NewHandler(s, nil).ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

// v1Call posts input to the real HTTP server's /v1/tools/{tool} and
// returns the response's result, which must be a success.
func v1Call(t *testing.T, url, tool, input string) json.RawMessage {
	t.Helper()
	resp, err := http.Post(url+"/v1/tools/"+tool, "application/json", strings.NewReader(`{"input":`+input+`,"correlation_id":"req-123"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Result       json.RawMessage `json:"result"`
		Error        *string         `json:"error"`
		InvocationID string          `json:"invocation_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != 200 || r.Error != nil || !uuidRE.MatchString(r.InvocationID) {
		t.Fatalf("%s %s: %d %+v %v", tool, input, resp.StatusCode, r, err)
	}
	return r.Result
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// same says whether got is want, key for key in want's order: the tools
// answer with qmcp's keys in qmcp's order.
func same(t *testing.T, what string, got json.RawMessage, want string) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(want)); err != nil {
		t.Fatalf("%s: bad want: %v", what, err)
	}
	if string(got) != buf.String() {
		t.Errorf("%s:\n got %s\nwant %s", what, got, buf.String())
	}
}

// The tools' results, exactly as qmcp's: every example of the spec, through
// /v1 on a real HTTP server, each result fed to the next tool as qmcp's
// workflows do (planner → executor → reviewer).
func TestQMCPTools(t *testing.T) {
	srv := httptest.NewServer(serve.NewHandler(runtime.NewServer(Tools(), nil), nil))
	defer srv.Close()
	call := func(tool, input string) json.RawMessage { t.Helper(); return v1Call(t, srv.URL, tool, input) }

	same(t, "echo", call("echo", `{"message":"Hello, MCP!"}`), `"Hello, MCP!"`)

	// The invocation request's example: a goal alone, four steps.
	plan := call("planner", `{"goal":"Deploy a new service"}`)
	same(t, "planner", plan, `{
		"goal": "Deploy a new service",
		"steps": [
			{"step": 1, "action": "Analyze requirements", "description": "Understand: Deploy a new service"},
			{"step": 2, "action": "Identify dependencies", "description": "List prerequisites"},
			{"step": 3, "action": "Create execution order", "description": "Sequence tasks"},
			{"step": 4, "action": "Validate plan", "description": "Check for gaps"}
		],
		"estimated_steps": 4
	}`)
	// The planner's example: a context is reviewed second, as step 1.5.
	planCtx := call("planner", `{"goal":"Deploy a new service","context":"Production environment"}`)
	same(t, "planner with a context", planCtx, `{
		"goal": "Deploy a new service",
		"steps": [
			{"step": 1, "action": "Analyze requirements", "description": "Understand: Deploy a new service"},
			{"step": 1.5, "action": "Review context", "description": "Production environment"},
			{"step": 2, "action": "Identify dependencies", "description": "List prerequisites"},
			{"step": 3, "action": "Create execution order", "description": "Sequence tasks"},
			{"step": 4, "action": "Validate plan", "description": "Check for gaps"}
		],
		"estimated_steps": 5
	}`)
	// An empty context is no context.
	same(t, "planner with an empty context", call("planner", `{"goal":"Deploy a new service","context":""}`), string(plan))

	// The executor's example: the planner's whole result as the plan, a dry run.
	simulated := `{
		"mode": "dry_run",
		"steps_executed": 4,
		"results": [
			{"step": 1, "action": "Analyze requirements", "status": "simulated"},
			{"step": 2, "action": "Identify dependencies", "status": "simulated"},
			{"step": 3, "action": "Create execution order", "status": "simulated"},
			{"step": 4, "action": "Validate plan", "status": "simulated"}
		],
		"success": true
	}`
	execution := call("executor", `{"plan":`+string(plan)+`,"dry_run":true}`)
	same(t, "executor, dry run", execution, simulated)
	same(t, "executor, dry run by default", call("executor", `{"plan":`+string(plan)+`}`), simulated)
	same(t, "executor, live", call("executor", `{"plan":`+string(planCtx)+`,"dry_run":false}`), `{
		"mode": "live",
		"steps_executed": 5,
		"results": [
			{"step": 1, "action": "Analyze requirements", "status": "completed"},
			{"step": 1.5, "action": "Review context", "status": "completed"},
			{"step": 2, "action": "Identify dependencies", "status": "completed"},
			{"step": 3, "action": "Create execution order", "status": "completed"},
			{"step": 4, "action": "Validate plan", "status": "completed"}
		],
		"success": true
	}`)
	// Any object is a plan: one without steps has none, a step's missing
	// fields are null, and whatever else it holds is ignored.
	same(t, "executor, no steps", call("executor", `{"plan":{"name":"empty"}}`), `{"mode":"dry_run","steps_executed":0,"results":[],"success":true}`)
	same(t, "executor, odd steps", call("executor", `{"plan":{"steps":[{"action":"x","extra":[1]},{"step":"a"}],"owner":{"id":7}}}`),
		`{"mode":"dry_run","steps_executed":2,"results":[{"step":null,"action":"x","status":"simulated"},{"step":"a","action":null,"status":"simulated"}],"success":true}`)

	// The reviewer's example: the executor's result, the two criteria.
	approved := func(result string, criteria ...string) string {
		checks := []string{}
		for _, c := range criteria {
			checks = append(checks, `{"criterion":"`+c+`","status":"passed","notes":"Checked `+c+`"}`)
		}
		return `{"reviewed_result":` + result + `,"checks":[` + strings.Join(checks, ",") + `],"overall_status":"approved","recommendation":"Proceed with next steps"}`
	}
	same(t, "reviewer", call("reviewer", `{"result":`+string(execution)+`,"criteria":["completeness","correctness"]}`), approved(string(execution), "completeness", "correctness"))
	same(t, "reviewer, default criteria", call("reviewer", `{"result":`+string(execution)+`}`), approved(string(execution), "completeness", "correctness"))
	same(t, "reviewer, other criteria", call("reviewer", `{"result":{"z":1,"a":[2.50,{"b":null}]},"criteria":["security"]}`), approved(`{"z":1,"a":[2.50,{"b":null}]}`, "security"))
	same(t, "reviewer, no criteria", call("reviewer", `{"result":{},"criteria":[]}`), approved(`{}`))

	// The history example: echo's record. (Its correlation_id is not
	// null: toolgen makes one up for a request without one.)
	resp, err := http.Post(srv.URL+"/v1/tools/echo", "application/json", strings.NewReader(`{"input":{"message":"hello"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		InvocationID string `json:"invocation_id"`
	}
	err = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	resp, err = http.Get(srv.URL + "/v1/invocations/" + r.InvocationID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var rec map[string]any
	if err := json.Unmarshal(body, &rec); err != nil {
		t.Fatal(err)
	}
	if rec["id"] != r.InvocationID || rec["tool_name"] != "echo" || fmt.Sprint(rec["input_params"]) != "map[message:hello]" || rec["result"] != "hello" || rec["status"] != "success" {
		t.Errorf("echo's record: %s", body)
	}
}

// Input the origin refuses, toolgen refuses: each answers 200 with an
// error and no result, as qmcp does.
func TestQMCPToolsRefuse(t *testing.T) {
	s := runtime.NewServer(Tools(), nil)
	for _, c := range []struct{ tool, input string }{
		{"planner", `{}`},
		{"executor", `{"dry_run":true}`},
		{"executor", `{"plan":[1]}`},
		{"executor", `{"plan":"steps"}`},
		{"executor", `{"plan":{"steps":"all"}}`},
		{"reviewer", `{"criteria":["completeness"]}`},
		{"reviewer", `{"result":"fine"}`},
	} {
		code, body := request(t, s, "POST", "/v1/tools/"+c.tool, `{"input":`+c.input+`}`)
		var resp struct {
			Result json.RawMessage
			Error  *string
		}
		if err := json.Unmarshal([]byte(body), &resp); err != nil || code != 200 || string(resp.Result) != "null" || resp.Error == nil {
			t.Errorf("%s %s: %d %s", c.tool, c.input, code, body)
		}
	}
}

// GET /v1/tools lists the four tools with qmcp's descriptions and input
// schemas (toolgen's add only "$schema" and "additionalProperties": false).
func TestQMCPToolList(t *testing.T) {
	_, body := request(t, runtime.NewServer(Tools(), nil), "GET", "/v1/tools", "")
	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"echo":     `Echo the input message back. Useful for testing. {"properties":{"message":{"description":"The message to echo back","type":"string"}},"required":["message"],"type":"object"}`,
		"planner":  `Create a step-by-step execution plan from a goal. {"properties":{"context":{"description":"Optional context to inform planning","type":"string"},"goal":{"description":"The goal to create a plan for","type":"string"}},"required":["goal"],"type":"object"}`,
		"executor": `Execute an approved plan. Returns execution summary. {"properties":{"dry_run":{"default":true,"description":"If true, simulate execution without side effects","type":"boolean"},"plan":{"description":"The plan to execute","type":"object"}},"required":["plan"],"type":"object"}`,
		"reviewer": `Review results and provide a summary assessment. {"properties":{"criteria":{"default":["completeness","correctness"],"description":"Review criteria to check","items":{"type":"string"},"type":"array"},"result":{"description":"The result to review","type":"object"}},"required":["result"],"type":"object"}`,
		// toolgen's own addition, to show approvals.
		"deploy": `Deploy a service. Each call waits for an operator's approval. {"properties":{"environment":{"description":"Where to deploy it","enum":["staging","production"],"type":"string"},"service":{"description":"The service to deploy","minLength":1,"type":"string"}},"required":["service","environment"],"type":"object"}`,
	}
	if len(list.Tools) != len(want) {
		t.Errorf("%d tools: %s", len(list.Tools), body)
	}
	for _, tool := range list.Tools {
		delete(tool.InputSchema, "$schema")
		delete(tool.InputSchema, "additionalProperties")
		schema, _ := json.Marshal(tool.InputSchema)
		if got := tool.Description + " " + string(schema); got != want[tool.Name] {
			t.Errorf("%s:\n got %s\nwant %s", tool.Name, got, want[tool.Name])
		}
	}
}

// A call on each surface shows in /v1/invocations with its surface.
func TestQMCPHistoryFromEverySurface(t *testing.T) {
	s := runtime.NewServer(Tools(), &runtime.Options{AllowExecute: true})
	request(t, s, "POST", "/tools/echo/call", `{"message":"explorer"}`)
	request(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"v1"}}`)
	request(t, s, "POST", "/oxp/tools/call", `{"request":{"tool_id":"QMCP.Echo","input":{"message":"oxp"}}}`)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.Connect(context.Background(), s, nil, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "mcp"}}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	_, body := request(t, s, "GET", "/v1/invocations?tool_name=echo", "")
	var page struct {
		Invocations []struct {
			Surface string
			Result  string
		}
		Count int
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range page.Invocations {
		got = append(got, r.Surface+"="+r.Result)
	}
	if strings.Join(got, " ") != "mcp=mcp oxp=oxp v1=v1 explorer=explorer" {
		t.Errorf("history: %v", got)
	}
}
