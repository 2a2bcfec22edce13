package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

func request(t *testing.T, s *runtime.Server, method, path, body string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

// The spec file's examples, as /v1 answers them.
func TestQMCPTools(t *testing.T) {
	s := runtime.NewServer(Tools(), nil)
	for _, c := range []struct{ tool, input, result string }{
		{"echo", `{"message":"Hello, MCP!"}`, `"Hello, MCP!"`},
		{"planner", `{"goal":"Deploy a new service","context":"Production environment"}`, `{"goal":"Deploy a new service","steps":[{"step":1,"action":"Analyze requirements"},{"step":2,"action":"Identify dependencies"},{"step":3,"action":"Create execution order"},{"step":4,"action":"Validate plan"}],"estimated_steps":4}`},
		{"executor", `{"plan":{"steps":[{"step":1,"action":"Analyze requirements"},{"step":2,"action":"Validate plan"}]},"dry_run":true}`, `{"mode":"dry_run","steps_executed":2,"results":[{"step":1,"action":"Analyze requirements","status":"simulated"},{"step":2,"action":"Validate plan","status":"simulated"}],"success":true}`},
		{"reviewer", `{"result":{"success":true,"steps_executed":2},"criteria":["completeness","correctness"]}`, `{"reviewed_result":{"success":true,"steps_executed":2},"checks":[{"criterion":"completeness","passed":true,"note":"completeness: the result has 2 fields"},{"criterion":"correctness","passed":true,"note":"correctness: the result has 2 fields"}],"overall_status":"approved","recommendation":"Proceed with next steps"}`},
	} {
		code, body := request(t, s, "POST", "/v1/tools/"+c.tool, `{"input":`+c.input+`}`)
		var resp struct {
			Result json.RawMessage
			Error  *string
		}
		if err := json.Unmarshal([]byte(body), &resp); err != nil || code != 200 || string(resp.Result) != c.result || resp.Error != nil {
			t.Errorf("%s: %d %s\nwant result %s", c.tool, code, body, c.result)
		}
	}
}

// A call on each surface shows in /v1/invocations with its surface.
func TestQMCPHistoryFromEverySurface(t *testing.T) {
	s := runtime.NewServer(Tools(), &runtime.Options{AllowExecute: true})
	request(t, s, "POST", "/tools/echo/call", `{"message":"explorer"}`)
	request(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"v1"}}`)
	request(t, s, "POST", "/oxp/tools/call", `{"request":{"tool_id":"QMCP.Echo","input":{"message":"oxp"}}}`)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "mcp"}}); err != nil {
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
