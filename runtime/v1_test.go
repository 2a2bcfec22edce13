package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// qmcpTools are the spec file's echo and planner, enough to speak the /v1
// protocol as qmcp does.
func qmcpTools() ToolList {
	return ToolList{{
		Name: "echo", Description: "Echo the input message back. Useful for testing.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"The message to echo back"}},"required":["message"]}`),
		OutputSchema: json.RawMessage(`{"type":"string"}`),
		Handler: func(_ context.Context, args json.RawMessage) (*Result, error) {
			var in struct{ Message string }
			if err := DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return StructuredResult(in.Message)
		},
	}, {
		Name: "planner", Description: "Create a step-by-step execution plan from a goal.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"goal":{"type":"string","description":"The goal to create a plan for"},"context":{"type":"string","description":"Optional context to inform planning"}},"required":["goal"]}`),
		Handler: func(_ context.Context, args json.RawMessage) (*Result, error) {
			var in struct{ Goal string }
			if err := DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			if in.Goal == "fail" {
				return nil, errors.New("cannot plan that")
			}
			return StructuredResult(map[string]any{"goal": in.Goal, "estimated_steps": 4})
		},
	}}
}

var (
	uuidRE = `[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`
	tsRE   = `20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z`
)

// matches reports whether got matches want, a regular expression written
// with the JSON's own punctuation (only UUID and TS stand for patterns).
func matches(got, want string) bool {
	re := regexp.QuoteMeta(want)
	re = strings.NewReplacer("UUID", uuidRE, "TS", tsRE, "NUM", `[0-9.]+`).Replace(re)
	return regexp.MustCompile("^" + re + "$").MatchString(got)
}

// The protocol as the spec file and specs/README.md give it.
func TestV1Tools(t *testing.T) {
	s := NewServer(qmcpTools(), &Options{Logger: discard()})
	do(t, s, "GET", "/v1/tools", "").is(t, 200, `{"tools":[{"name":"echo","description":"Echo the input message back. Useful for testing.","input_schema":{"type":"object","properties":{"message":{"type":"string","description":"The message to echo back"}},"required":["message"]},"version":"1.0.0"},{"name":"planner","description":"Create a step-by-step execution plan from a goal.","input_schema":{"type":"object","properties":{"goal":{"type":"string","description":"The goal to create a plan for"},"context":{"type":"string","description":"Optional context to inform planning"}},"required":["goal"]},"version":"1.0.0"}]}`)

	for _, c := range []struct{ body, want string }{
		{`{"input":{"goal":"Deploy a new service"},"correlation_id":"req-123"}`, `{"result":{"estimated_steps":4,"goal":"Deploy a new service"},"error":null,"invocation_id":"UUID"}`},
		{`{"input":{"goal":"fail"}}`, `{"result":null,"error":"Tool execution failed: cannot plan that","invocation_id":"UUID"}`},
		{`{"input":{"goal":5,"x":1}}`, `{"result":null,"error":"Invalid input: /goal: expected string, but got number","invocation_id":"UUID"}`},
		{`{}`, `{"result":null,"error":"Invalid input: /goal: missing required property","invocation_id":"UUID"}`},
	} {
		r := do(t, s, "POST", "/v1/tools/planner", c.body)
		if r.status != 200 || !matches(r.body, c.want) {
			t.Errorf("%s:\n got %d %s\nwant 200 %s", c.body, r.status, r.body, c.want)
		}
	}
	if r := do(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"hello"}}`); !matches(r.body, `{"result":"hello","error":null,"invocation_id":"UUID"}`) {
		t.Errorf("echo: %s", r.body)
	}
	do(t, s, "POST", "/v1/tools/nope", `{"input":{}}`).is(t, 404, `{"detail":"Tool 'nope' not found"}`)
	do(t, s, "POST", "/v1/tools/echo", `not json`).is(t, 422, `{"detail":"The body must be a JSON object: {\"input\": {...}, \"correlation_id\": \"...\"}; the body is not valid JSON"}`)
	do(t, s, "POST", "/v1/tools/echo", `{"input":[1]}`).is(t, 422, `{"detail":"\"input\" must be an object."}`)
	do(t, s, "GET", "/v1/tools/echo", "").is(t, 405, `{"detail":"Method not allowed: GET"}`)
	do(t, s, "GET", "/v1/invocations/nope", "").is(t, 404, `{"detail":"Invocation 'nope' not found"}`)
}

// Every response carries X-Request-ID and X-Correlation-ID, echoed or
// made; the body's correlation id wins for the record.
func TestV1Headers(t *testing.T) {
	s := NewServer(qmcpTools(), &Options{Logger: discard()})
	r := do(t, s, "GET", "/v1/tools", "")
	if !matches(r.header.Get("X-Request-ID"), "UUID") || !matches(r.header.Get("X-Correlation-ID"), "UUID") {
		t.Errorf("made ids: %v", r.header)
	}
	r = do(t, s, "GET", "/v1/invocations/x", "", "X-Request-ID", "rq-1", "X-Correlation-ID", "wf-1")
	if r.header.Get("X-Request-ID") != "rq-1" || r.header.Get("X-Correlation-ID") != "wf-1" {
		t.Errorf("echoed ids: %v", r.header)
	}
	if r := do(t, s, "GET", "/v1/tools", "", "X-Request-ID", "bad\x01id"); r.header.Get("X-Request-ID") == "bad\x01id" {
		t.Error("a control character was echoed")
	}
	// Header only, body wins, neither (the made one is recorded).
	var ids [3]string
	for i, c := range []struct{ body, header string }{
		{`{"input":{"message":"a"}}`, "wf-header"},
		{`{"input":{"message":"b"},"correlation_id":"wf-body"}`, "wf-header"},
		{`{"input":{"message":"c"}}`, ""},
	} {
		h := []string{}
		if c.header != "" {
			h = []string{"X-Correlation-ID", c.header}
		}
		r := do(t, s, "POST", "/v1/tools/echo", c.body, h...)
		var resp v1Response
		r.decode(t, &resp)
		rec, err := s.history.Get(context.Background(), resp.InvocationID)
		if err != nil || rec.CorrelationID == nil || *rec.CorrelationID != r.header.Get("X-Correlation-ID") {
			t.Errorf("%s: record %+v, header %q, %v", c.body, rec, r.header.Get("X-Correlation-ID"), err)
		}
		ids[i] = *rec.CorrelationID
	}
	if ids[0] != "wf-header" || ids[1] != "wf-body" || !matches(ids[2], "UUID") {
		t.Errorf("correlation ids %q", ids)
	}
	// A body's id is bounded like a header's: 128 characters (an id with
	// spaces or markup is still one); longer, or with control
	// characters, is refused, neither stored nor echoed.
	ok := strings.Repeat("é", 128)
	if r := do(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"d"},"correlation_id":"`+ok+`"}`); r.status != 200 || r.header.Get("X-Correlation-ID") != ok {
		t.Errorf("128 characters: %d %q", r.status, r.header.Get("X-Correlation-ID"))
	}
	for _, bad := range []string{strings.Repeat("x", 1_000_000), strings.Repeat("é", 129), `a\u0000b`, `line\nbreak`} {
		r := do(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"e"},"correlation_id":"`+bad+`"}`)
		if r.status != 422 || len(r.header.Get("X-Correlation-ID")) > 128 || len(r.body) > 200 {
			t.Errorf("correlation id %.20q: %d, header %d bytes, %.200s", bad, r.status, len(r.header.Get("X-Correlation-ID")), r.body)
		}
	}
}

// GET /v1/invocations: filters, newest first, limit and offset, count and
// total; out-of-range limits are 422.
func TestV1Invocations(t *testing.T) {
	s := NewServer(qmcpTools(), &Options{Logger: discard(), AllowExecute: true})
	call := func(tool, body, corr string) string {
		r := do(t, s, "POST", "/v1/tools/"+tool, body, "X-Correlation-ID", corr)
		var resp v1Response
		r.decode(t, &resp)
		return resp.InvocationID
	}
	first := call("echo", `{"input":{"message":"one"}}`, "wf-a")
	call("planner", `{"input":{"goal":"fail"}}`, "wf-a")
	last := call("echo", `{"input":{"message":"three"}}`, "wf-b")
	do(t, s, "POST", "/tools/echo/call", `{"message":"explorer"}`)

	list := func(query string) (n, total int, tools string) {
		t.Helper()
		r := do(t, s, "GET", "/v1/invocations"+query, "")
		var page struct {
			Invocations []history.Record
			Count       int
			Total       int
		}
		r.decode(t, &page)
		if r.status != 200 || page.Count != len(page.Invocations) {
			t.Fatalf("%s: %d %s", query, r.status, r.body)
		}
		var names []string
		for _, rec := range page.Invocations {
			names = append(names, rec.Tool+"/"+string(rec.Status)+"/"+rec.Surface)
		}
		return page.Count, page.Total, strings.Join(names, ",")
	}
	for query, want := range map[string]string{
		"":                                   "4 4 echo/success/explorer,echo/success/v1,planner/failed/v1,echo/success/v1",
		"?tool_name=echo":                    "3 3 echo/success/explorer,echo/success/v1,echo/success/v1",
		"?status=failed":                     "1 1 planner/failed/v1",
		"?correlation_id=wf-a":               "2 2 planner/failed/v1,echo/success/v1",
		"?surface=explorer":                  "1 1 echo/success/explorer",
		"?tool_name=echo&surface=v1&limit=1": "1 2 echo/success/v1",
		"?limit=2&offset=1":                  "2 4 echo/success/v1,planner/failed/v1",
		"?offset=10":                         "0 4 ",
		"?tool_name=echo&status=failed":      "0 0 ",
		"?limit=500&correlation_id=wf-b":     "1 1 echo/success/v1",
	} {
		n, total, tools := list(query)
		if got := fmt.Sprintf("%d %d %s", n, total, tools); got != want {
			t.Errorf("%q: %s, want %s", query, got, want)
		}
	}
	for _, q := range []string{"?limit=0", "?limit=501", "?limit=x", "?offset=-1", "?status=weird"} {
		if r := do(t, s, "GET", "/v1/invocations"+q, ""); r.status != 422 || !strings.HasPrefix(r.body, `{"detail":"`) {
			t.Errorf("%s: %d %s", q, r.status, r.body)
		}
	}

	r := do(t, s, "GET", "/v1/invocations/"+first, "")
	want := `{"id":"` + first + `","tool_name":"echo","surface":"v1","input_params":{"message":"one"},"result":"one","error":null,"status":"success","duration_ms":NUM,"created_at":"TS","completed_at":"TS","correlation_id":"wf-a","caller":null}`
	if r.status != 200 || !matches(r.body, want) {
		t.Errorf("record:\n got %s\nwant %s", r.body, want)
	}
	if r := do(t, s, "GET", "/v1/invocations/"+last, ""); !strings.Contains(r.body, `"result":"three"`) {
		t.Errorf("last: %s", r.body)
	}
}

// The auth hook guards every /v1 endpoint, and the caller is recorded.
func TestV1Auth(t *testing.T) {
	s := NewServer(qmcpTools(), &Options{AuthHook: BearerTokens("t1"), Logger: discard()})
	for _, req := range [][3]string{{"GET", "/v1/tools", ""}, {"POST", "/v1/tools/echo", `{"input":{"message":"x"}}`}, {"GET", "/v1/invocations", ""}, {"GET", "/v1/invocations/x", ""}} {
		do(t, s, req[0], req[1], req[2]).is(t, 401, `{"detail":"Unauthorized"}`)
	}
	r := do(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"x"}}`, "Authorization", "Bearer t1")
	var resp v1Response
	r.decode(t, &resp)
	if r := do(t, s, "GET", "/v1/invocations/"+resp.InvocationID, "", "Authorization", "Bearer t1"); !strings.Contains(r.body, `"caller":"token-1"`) {
		t.Errorf("caller not recorded: %s", r.body)
	}
	do(t, NewServer(qmcpTools(), &Options{V1: V1Options{Disable: true}}), "GET", "/v1/tools", "").is(t, 404, `{"error":"Not found: /v1/tools"}`)
	if r := do(t, NewServer(qmcpTools(), &Options{V1: V1Options{Prefix: "/api/v1"}}), "GET", "/api/v1/tools", ""); r.status != 200 {
		t.Errorf("moved: %d", r.status)
	}
}

// qmcp's Python client, MCPClient, makes these requests (list_tools,
// invoke_tool, list_invocations, get_invocation) and reads these fields;
// the client itself cannot be installed here (no Python package index), so
// its calls are replayed as it sends them.
func TestV1AsQMCPClientUsesIt(t *testing.T) {
	s := NewServer(qmcpTools(), &Options{Logger: discard()})
	h := []string{"Content-Type", "application/json", "Accept", "application/json"}
	var tools struct {
		Tools []struct{ Name, Description string } `json:"tools"`
	}
	do(t, s, "GET", "/v1/tools", "", h...).decode(t, &tools)
	if len(tools.Tools) != 2 || tools.Tools[0].Name != "echo" {
		t.Fatalf("list_tools: %+v", tools)
	}
	var inv struct {
		Result       any     `json:"result"`
		Error        *string `json:"error"`
		InvocationID string  `json:"invocation_id"`
	}
	r := do(t, s, "POST", "/v1/tools/echo", `{"input": {"message": "hello"}, "correlation_id": null}`, h...)
	r.decode(t, &inv)
	if r.status != http.StatusOK || inv.Result != "hello" || inv.Error != nil {
		t.Fatalf("invoke_tool: %d %s", r.status, r.body)
	}
	var page struct {
		Invocations []map[string]any `json:"invocations"`
		Count       int              `json:"count"`
	}
	do(t, s, "GET", "/v1/invocations?tool_name=echo&limit=50", "", h...).decode(t, &page)
	if page.Count != 1 || page.Invocations[0]["id"] != inv.InvocationID {
		t.Fatalf("list_invocations: %+v", page)
	}
	var rec map[string]any
	do(t, s, "GET", "/v1/invocations/"+inv.InvocationID, "", h...).decode(t, &rec)
	for _, k := range []string{"id", "tool_name", "input_params", "result", "status", "duration_ms", "created_at", "completed_at", "correlation_id"} {
		if _, ok := rec[k]; !ok {
			t.Errorf("get_invocation: no %q in %v", k, rec)
		}
	}
}
