package qmcp_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
	"github.com/toolgen-go/toolgen/runtime/internal/testtools"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

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
	s := runtime.NewServer(testtools.QMCP(), &runtime.Options{Logger: servertest.Discard()})
	servertest.Do(t, house(s), "GET", "/v1/tools", "").Is(t, 200, `{"tools":[{"name":"echo","description":"Echo the input message back. Useful for testing.","input_schema":{"type":"object","properties":{"message":{"type":"string","description":"The message to echo back"}},"required":["message"]},"version":"1.0.0"},{"name":"planner","description":"Create a step-by-step execution plan from a goal.","input_schema":{"type":"object","properties":{"goal":{"type":"string","description":"The goal to create a plan for"},"context":{"type":"string","description":"Optional context to inform planning"}},"required":["goal"]},"version":"1.0.0"}]}`)

	for _, c := range []struct{ body, want string }{
		{`{"input":{"goal":"Deploy a new service"},"correlation_id":"req-123"}`, `{"result":{"estimated_steps":4,"goal":"Deploy a new service"},"error":null,"invocation_id":"UUID"}`},
		{`{"input":{"goal":"fail"}}`, `{"result":null,"error":"Tool execution failed: cannot plan that","invocation_id":"UUID"}`},
		{`{"input":{"goal":5,"x":1}}`, `{"result":null,"error":"Invalid input: /goal: expected string, but got number","invocation_id":"UUID"}`},
		{`{}`, `{"result":null,"error":"Invalid input: /goal: missing required property","invocation_id":"UUID"}`},
	} {
		r := servertest.Do(t, house(s), "POST", "/v1/tools/planner", c.body)
		if r.Status != 200 || !matches(r.Body, c.want) {
			t.Errorf("%s:\n got %d %s\nwant 200 %s", c.body, r.Status, r.Body, c.want)
		}
	}
	if r := servertest.Do(t, house(s), "POST", "/v1/tools/echo", `{"input":{"message":"hello"}}`); !matches(r.Body, `{"result":"hello","error":null,"invocation_id":"UUID"}`) {
		t.Errorf("echo: %s", r.Body)
	}
	servertest.Do(t, house(s), "POST", "/v1/tools/nope", `{"input":{}}`).Is(t, 404, `{"detail":"Tool 'nope' not found"}`)
	servertest.Do(t, house(s), "POST", "/v1/tools/echo", `not json`).Is(t, 422, `{"detail":"The body must be a JSON object: {\"input\": {...}, \"correlation_id\": \"...\"}; the body is not valid JSON"}`)
	servertest.Do(t, house(s), "POST", "/v1/tools/echo", `{"input":[1]}`).Is(t, 422, `{"detail":"\"input\" must be an object."}`)
	servertest.Do(t, house(s), "GET", "/v1/tools/echo", "").Is(t, 405, `{"detail":"Method not allowed: GET"}`)
	servertest.Do(t, house(s), "GET", "/v1/invocations/nope", "").Is(t, 404, `{"detail":"Invocation 'nope' not found"}`)
}

// Every response carries X-Request-ID and X-Correlation-ID, echoed or
// made; the body's correlation id wins for the record.
func TestV1Headers(t *testing.T) {
	s := runtime.NewServer(testtools.QMCP(), &runtime.Options{Logger: servertest.Discard()})
	r := servertest.Do(t, house(s), "GET", "/v1/tools", "")
	if !matches(r.Header.Get("X-Request-ID"), "UUID") || !matches(r.Header.Get("X-Correlation-ID"), "UUID") {
		t.Errorf("made ids: %v", r.Header)
	}
	r = servertest.Do(t, house(s), "GET", "/v1/invocations/x", "", "X-Request-ID", "rq-1", "X-Correlation-ID", "wf-1")
	if r.Header.Get("X-Request-ID") != "rq-1" || r.Header.Get("X-Correlation-ID") != "wf-1" {
		t.Errorf("echoed ids: %v", r.Header)
	}
	if r := servertest.Do(t, house(s), "GET", "/v1/tools", "", "X-Request-ID", "bad\x01id"); r.Header.Get("X-Request-ID") == "bad\x01id" {
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
		r := servertest.Do(t, house(s), "POST", "/v1/tools/echo", c.body, h...)
		var resp struct {
			Result       any     `json:"result"`
			Error        *string `json:"error"`
			InvocationID string  `json:"invocation_id"`
		}
		r.Decode(t, &resp)
		rec, err := s.History().Get(context.Background(), resp.InvocationID)
		if err != nil || rec.CorrelationID == nil || *rec.CorrelationID != r.Header.Get("X-Correlation-ID") {
			t.Errorf("%s: record %+v, header %q, %v", c.body, rec, r.Header.Get("X-Correlation-ID"), err)
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
	if r := servertest.Do(t, house(s), "POST", "/v1/tools/echo", `{"input":{"message":"d"},"correlation_id":"`+ok+`"}`); r.Status != 200 || r.Header.Get("X-Correlation-ID") != ok {
		t.Errorf("128 characters: %d %q", r.Status, r.Header.Get("X-Correlation-ID"))
	}
	for _, bad := range []string{strings.Repeat("x", 1_000_000), strings.Repeat("é", 129), `a\u0000b`, `line\nbreak`} {
		r := servertest.Do(t, house(s), "POST", "/v1/tools/echo", `{"input":{"message":"e"},"correlation_id":"`+bad+`"}`)
		if r.Status != 422 || len(r.Header.Get("X-Correlation-ID")) > 128 || len(r.Body) > 200 {
			t.Errorf("correlation id %.20q: %d, header %d bytes, %.200s", bad, r.Status, len(r.Header.Get("X-Correlation-ID")), r.Body)
		}
	}
}

// GET /v1/invocations: filters, newest first, limit and offset, count and
// total; out-of-range limits are 422.
func TestV1Invocations(t *testing.T) {
	s := runtime.NewServer(testtools.QMCP(), &runtime.Options{Logger: servertest.Discard(), AllowExecute: true})
	call := func(tool, body, corr string) string {
		r := servertest.Do(t, house(s), "POST", "/v1/tools/"+tool, body, "X-Correlation-ID", corr)
		var resp struct {
			Result       any     `json:"result"`
			Error        *string `json:"error"`
			InvocationID string  `json:"invocation_id"`
		}
		r.Decode(t, &resp)
		return resp.InvocationID
	}
	first := call("echo", `{"input":{"message":"one"}}`, "wf-a")
	call("planner", `{"input":{"goal":"fail"}}`, "wf-a")
	last := call("echo", `{"input":{"message":"three"}}`, "wf-b")
	servertest.Do(t, house(s), "POST", "/tools/echo/call", `{"message":"explorer"}`)

	list := func(query string) (n, total int, tools string) {
		t.Helper()
		r := servertest.Do(t, house(s), "GET", "/v1/invocations"+query, "")
		var page struct {
			Invocations []history.Record
			Count       int
			Total       int
		}
		r.Decode(t, &page)
		if r.Status != 200 || page.Count != len(page.Invocations) {
			t.Fatalf("%s: %d %s", query, r.Status, r.Body)
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
	for q, detail := range map[string]string{
		"?limit=0":      "limit 0 is not between 1 and 500",
		"?limit=501":    "limit 501 is not between 1 and 500",
		"?limit=x":      `limit must be an integer, not \"x\"`,
		"?offset=-1":    "offset -1 is negative",
		"?status=weird": `unknown status \"weird\"`,
		"?limit=%zz":    "The query string cannot be read: a bad %-escape or a ';' in it.",
		"?limit=5;x=1":  "The query string cannot be read: a bad %-escape or a ';' in it.",
	} {
		if r := servertest.Do(t, house(s), "GET", "/v1/invocations"+q, ""); r.Status != 422 || !strings.HasPrefix(r.Body, `{"detail":"`+detail) {
			t.Errorf("%s: %d %s, want 422 with a detail that starts %q", q, r.Status, r.Body, detail)
		}
	}

	r := servertest.Do(t, house(s), "GET", "/v1/invocations/"+first, "")
	want := `{"id":"` + first + `","tool_name":"echo","surface":"v1","input_params":{"message":"one"},"result":"one","error":null,"status":"success","duration_ms":NUM,"created_at":"TS","completed_at":"TS","correlation_id":"wf-a","caller":null}`
	if r.Status != 200 || !matches(r.Body, want) {
		t.Errorf("record:\n got %s\nwant %s", r.Body, want)
	}
	if r := servertest.Do(t, house(s), "GET", "/v1/invocations/"+last, ""); !strings.Contains(r.Body, `"result":"three"`) {
		t.Errorf("last: %s", r.Body)
	}
}

// The auth hook guards every /v1 endpoint, and the caller is recorded.
func TestV1Auth(t *testing.T) {
	s := runtime.NewServer(testtools.QMCP(), &runtime.Options{AuthHook: runtime.BearerTokens("t1"), Logger: servertest.Discard()})
	for _, req := range [][3]string{{"GET", "/v1/tools", ""}, {"POST", "/v1/tools/echo", `{"input":{"message":"x"}}`}, {"GET", "/v1/invocations", ""}, {"GET", "/v1/invocations/x", ""}} {
		servertest.Do(t, house(s), req[0], req[1], req[2]).Is(t, 401, `{"detail":"Unauthorized"}`)
	}
	r := servertest.Do(t, house(s), "POST", "/v1/tools/echo", `{"input":{"message":"x"}}`, "Authorization", "Bearer t1")
	var resp struct {
		Result       any     `json:"result"`
		Error        *string `json:"error"`
		InvocationID string  `json:"invocation_id"`
	}
	r.Decode(t, &resp)
	if r := servertest.Do(t, house(s), "GET", "/v1/invocations/"+resp.InvocationID, "", "Authorization", "Bearer t1"); !strings.Contains(r.Body, `"caller":"token-1"`) {
		t.Errorf("caller not recorded: %s", r.Body)
	}
	servertest.Do(t, serve.NewHandler(runtime.NewServer(testtools.QMCP(), nil), &serve.Options{V1: qmcp.Options{Disable: true}}), "GET", "/v1/tools", "").Is(t, 404, `{"error":"Not found: /v1/tools"}`)
	if r := servertest.Do(t, serve.NewHandler(runtime.NewServer(testtools.QMCP(), nil), &serve.Options{V1: qmcp.Options{Prefix: "/api/v1"}}), "GET", "/api/v1/tools", ""); r.Status != 200 {
		t.Errorf("moved: %d", r.Status)
	}
}

// qmcp's Python client, MCPClient, makes these requests (list_tools,
// invoke_tool, list_invocations, get_invocation) and reads these fields;
// the client itself cannot be installed here (no Python package index), so
// its calls are replayed as it sends them.
func TestV1AsQMCPClientUsesIt(t *testing.T) {
	s := runtime.NewServer(testtools.QMCP(), &runtime.Options{Logger: servertest.Discard()})
	h := []string{"Content-Type", "application/json", "Accept", "application/json"}
	var tools struct {
		Tools []struct{ Name, Description string } `json:"tools"`
	}
	servertest.Do(t, house(s), "GET", "/v1/tools", "", h...).Decode(t, &tools)
	if len(tools.Tools) != 2 || tools.Tools[0].Name != "echo" {
		t.Fatalf("list_tools: %+v", tools)
	}
	var inv struct {
		Result       any     `json:"result"`
		Error        *string `json:"error"`
		InvocationID string  `json:"invocation_id"`
	}
	r := servertest.Do(t, house(s), "POST", "/v1/tools/echo", `{"input": {"message": "hello"}, "correlation_id": null}`, h...)
	r.Decode(t, &inv)
	if r.Status != http.StatusOK || inv.Result != "hello" || inv.Error != nil {
		t.Fatalf("invoke_tool: %d %s", r.Status, r.Body)
	}
	var page struct {
		Invocations []map[string]any `json:"invocations"`
		Count       int              `json:"count"`
	}
	servertest.Do(t, house(s), "GET", "/v1/invocations?tool_name=echo&limit=50", "", h...).Decode(t, &page)
	if page.Count != 1 || page.Invocations[0]["id"] != inv.InvocationID {
		t.Fatalf("list_invocations: %+v", page)
	}
	var rec map[string]any
	servertest.Do(t, house(s), "GET", "/v1/invocations/"+inv.InvocationID, "", h...).Decode(t, &rec)
	for _, k := range []string{"id", "tool_name", "input_params", "result", "status", "duration_ms", "created_at", "completed_at", "correlation_id"} {
		if _, ok := rec[k]; !ok {
			t.Errorf("get_invocation: no %q in %v", k, rec)
		}
	}
}
