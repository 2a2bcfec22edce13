package basic

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

type calc struct {
	UnimplementedHandlers
}

func (calc) Add(ctx context.Context, in AddInput) (AddOutput, error) {
	return AddOutput(in.A + in.B), nil
}

func (calc) RingDoorbell(ctx context.Context, in RingDoorbellInput) (*runtime.Result, error) {
	return runtime.TextResult(fmt.Sprintf("Ding dong %s", in.DoorbellID)), nil
}

func post(t *testing.T, s *runtime.Server, path, body string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	serve.NewHandler(s, nil).ServeHTTP(rec, httptest.NewRequest("POST", path, strings.NewReader(body)))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

func TestBasic(t *testing.T) {
	s := runtime.NewServer(Tools(calc{}), &runtime.Options{AllowExecute: true})
	for _, c := range []struct {
		path, body string
		code       int
		want       string
	}{
		{"/tools/add/call", `{"a":1.5,"b":2}`, 200, `{"content":[{"type":"text","text":"3.5"}],"structuredContent":{"result":3.5},"isError":false}`},
		{"/tools/add/call", `{"a":1}`, 400, `{"content":[{"type":"text","text":"invalid arguments:\n- /b: missing required property (required)"}],"isError":true}`},
		{"/tools/ring_doorbell/call", `{"doorbell_id":"front"}`, 200, `{"content":[{"type":"text","text":"Ding dong front"}],"isError":false}`},
		{"/tools/ring_doorbell/call", `{"doorbell_id":"front","x":1}`, 400, `{"content":[{"type":"text","text":"invalid arguments:\n- /x: unknown property (additionalProperties)"}],"isError":true}`},
		// noop is not implemented: the embedded UnimplementedHandlers says so.
		{"/tools/noop/call", `{}`, 500, `{"content":[{"type":"text","text":"tool noop is not implemented"}],"isError":true}`},
	} {
		if code, got := post(t, s, c.path, c.body); code != c.code || got != c.want {
			t.Errorf("%s %s:\n got %d %s\nwant %d %s", c.path, c.body, code, got, c.code, c.want)
		}
	}
	// The schemas are served as written, key order included.
	rec := httptest.NewRecorder()
	serve.NewHandler(s, nil).ServeHTTP(rec, httptest.NewRequest("GET", "/tools/add", nil))
	if want := `"inputSchema":{"type":"object","properties":{"b":{"type":"number","description":"The second number to add."},"a":{"type":"number","description":"The first number to add."}},"required":["a","b"]}`; !strings.Contains(rec.Body.String(), want) {
		t.Errorf("add detail: %s", rec.Body)
	}
	tools := Tools(calc{})
	if tools[1].Toolkit != "Doorbell" || tools[1].Version != "0.1.0" || tools[0].Toolkit != "Calculator" || tools[0].Version != "1.0.0" {
		t.Errorf("toolkits and versions: %+v", tools)
	}
}
