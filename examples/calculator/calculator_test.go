package main

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestCalculator(t *testing.T) {
	s := runtime.NewServer(Tools(&calculator{}), &runtime.Options{AllowExecute: true})
	do := func(method, path, body string) (int, string) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
		b, _ := io.ReadAll(rec.Body)
		return rec.Code, string(b)
	}
	for _, c := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"GET", "/tools/add", "", 200, `{"name":"add","title":"Add","description":"Adds two numbers together.","annotations":{"readOnlyHint":true,"idempotentHint":true,"openWorldHint":false},"inputSchema":{"type":"object","properties":{"a":{"type":"number","description":"The first number to add."},"b":{"type":"number","description":"The second number to add."}},"required":["a","b"]},"outputSchema":{"type":"number","description":"The sum of the two numbers."},"signature":"add(a: number, b: number) -> number","examples":[{"a":1,"b":2}]}`},
		{"POST", "/tools/add/call", `{"a":1,"b":2.5}`, 200, `{"content":[{"type":"text","text":"3.5"}],"structuredContent":{"result":3.5},"isError":false}`},
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
