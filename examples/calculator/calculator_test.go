package main

import (
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func TestCalculator(t *testing.T) {
	s := runtime.NewServer(Tools(&calculator{}), &runtime.Options{AllowExecute: true})
	do := func(method, path, body string) (int, string) {
		rec := httptest.NewRecorder()
		serve.NewHandler(s, nil).ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
		b, _ := io.ReadAll(rec.Body)
		return rec.Code, string(b)
	}
	for _, c := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"GET", "/tools/add", "", 200, `{"name":"add","title":"Add","description":"Adds two numbers together.","version":"1.0.0","annotations":{"readOnlyHint":true,"idempotentHint":true,"openWorldHint":false},"inputSchema":{"type":"object","properties":{"a":{"type":"number","description":"The first number to add."},"b":{"type":"number","description":"The second number to add."}},"required":["a","b"]},"outputSchema":{"type":"number","description":"The sum of the two numbers."},"signature":"add(a: number, b: number) -> number","examples":[{"a":1,"b":2}]}`},
		{"POST", "/tools/add/call", `{"a":1,"b":2.5}`, 200, `{"content":[{"type":"text","text":"3.5"}],"structuredContent":{"result":3.5},"isError":false}`},
		// "A" is another property to the schema, which lets others
		// through: not the a it checked, so not the handler's a either.
		{"POST", "/tools/add/call", `{"a":1,"b":2,"A":"one hundred"}`, 200, `{"content":[{"type":"text","text":"3"}],"structuredContent":{"result":3},"isError":false}`},
		{"POST", "/tools/add/call", `{"a":"1"}`, 400, `{"content":[{"type":"text","text":"invalid arguments:\n- /a: expected number, but got string (type)\n- /b: missing required property (required)"}],"isError":true}`},
		{"POST", "/tools/ring/call", `{"doorbell_id":"front-door"}`, 200, `{"content":[{"type":"text","text":"Ding dong! Doorbell front-door has rung 1 time(s)."}],"isError":false}`},
		{"POST", "/tools/ring/call", `{"doorbell_id":"front-door"}`, 200, `{"content":[{"type":"text","text":"Ding dong! Doorbell front-door has rung 2 time(s)."}],"isError":false}`},
	} {
		if code, got := do(c.method, c.path, c.body); code != c.code || got != c.want {
			t.Errorf("%s %s %s:\n got %d %s\nwant %d %s", c.method, c.path, c.body, code, got, c.code, c.want)
		}
	}
	tools := Tools(&calculator{})
	if tools[0].Toolkit != "Calculator" || tools[0].Version != "1.0.0" || tools[1].Toolkit != "Doorbell" || tools[1].Version != "0.1.0" {
		t.Errorf("toolkits and versions: %s %s@%s, %s %s@%s", tools[0].Name, tools[0].Toolkit, tools[0].Version, tools[1].Name, tools[1].Toolkit, tools[1].Version)
	}
}

// OXP: the narrative page's listing, and calls by every form of tool_id.
func TestCalculatorOXP(t *testing.T) {
	s := runtime.NewServer(Tools(&calculator{}), nil)
	do := func(method, path, body string) (int, string) {
		rec := httptest.NewRecorder()
		serve.NewHandler(s, nil).ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
		return rec.Code, rec.Body.String()
	}
	const tools = `[{"id":"Calculator.Add@1.0.0","name":"Calculator_Add","description":"Adds two numbers together.","version":"1.0.0","input_schema":{"parameters":{"type":"object","properties":{"a":{"type":"number","description":"The first number to add."},"b":{"type":"number","description":"The second number to add."}},"required":["a","b"]}},"output_schema":{"type":"number","description":"The sum of the two numbers."}},{"id":"Doorbell.Ring@0.1.0","name":"Doorbell_Ring","description":"Rings a doorbell given a doorbell ID.","version":"0.1.0","input_schema":{"parameters":{"type":"object","properties":{"doorbell_id":{"type":"string","description":"The ID of the doorbell to ring."}},"required":["doorbell_id"]}},"output_schema":null}]`
	if code, body := do("GET", "/oxp/tools", ""); code != 200 || body != `{"$schema":"urn:oxp:1.0","items":`+tools+`,"tools":`+tools+`}` {
		t.Errorf("listing: %d %s", code, body)
	}
	for _, id := range []string{"Calculator.Add", "Calculator.Add@1", "Calculator.Add@1.0.0"} {
		code, body := do("POST", "/oxp/tools/call", `{"request":{"tool_id":"`+id+`","call_id":"c","input":{"a":1,"b":2}}}`)
		if code != 200 || !strings.HasPrefix(body, `{"$schema":"urn:oxp:1.0","result":{"call_id":"c","duration":`) || !strings.HasSuffix(body, `,"success":true,"value":3}}`) {
			t.Errorf("%s: %d %s", id, code, body)
		}
	}
	for body, want := range map[string]string{
		`{"request":{"tool_id":"Calculator.Add@2","input":{"a":1,"b":2}}}`: `400 {"message":"Tool Calculator.Add has no version 2."}`,
		`{"request":{"tool_id":"Calculator.Mul","input":{"a":1,"b":2}}}`:   `400 {"message":"Tool not found: Calculator.Mul."}`,
		`{"request":{"tool_id":"Calculator.Add","input":{"a":"x"}}}`:       `422 {"message":"The input does not match the tool's parameters.","parameter_errors":{"a":"expected number, but got string","b":"missing required property"}}`,
	} {
		if code, got := do("POST", "/oxp/tools/call", body); fmt.Sprintf("%d %s", code, got) != want {
			t.Errorf("%s:\n got %d %s\nwant %s", body, code, got, want)
		}
	}
}

// A Handlers that implements none of the tools, UnimplementedHandlers
// alone, by value as forward compatibility needs it to work: each call
// fails with an error that names its tool.
func TestUnimplementedHandlers(t *testing.T) {
	s := runtime.NewServer(Tools(UnimplementedHandlers{}), &runtime.Options{AllowExecute: true, Logger: slog.New(slog.DiscardHandler)})
	for tool, args := range map[string]string{"add": `{"a":1,"b":2}`, "ring": `{"doorbell_id":"front-door"}`} {
		out := s.Invoke(t.Context(), &runtime.Call{Tool: tool, Arguments: []byte(args)})
		want := "tool " + tool + " is not implemented"
		if out.Result == nil || !out.Result.IsError || len(out.Result.Content) != 1 || out.Result.Content[0].Text != want {
			t.Errorf("%s: got %+v, want an error result %q", tool, out.Result, want)
		}
	}
}
