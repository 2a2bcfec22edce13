package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// GET /openapi.json is a valid OpenAPI 3.1 document (checked with
// libopenapi-validator against the specification's own schema), and the
// server's answers to calls conform to it.
func TestOpenAPI(t *testing.T) {
	tools := append(qmcpTools(), Tool{Name: "tree", Description: "A recursive input.\nMore words.", Handler: callTools()[1].Handler,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`)})
	s := NewServer(tools, &Options{AllowExecute: true, AuthHook: BearerTokens("t"), Title: "Docs", Logger: discard()})
	r := do(t, s, "GET", "/openapi.json", "")
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	doc, err := libopenapi.NewDocument([]byte(r.body))
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("invalid OpenAPI: %s: %s", e.Message, e.Reason)
		}
	}
	for _, want := range []string{`"openapi":"3.1.0"`, `"/tools/echo/call"`, `"/v1/tools/planner"`, `"bearerAuth"`, `"summary":"A recursive input."`, `"The structure repeats from here`} {
		if !strings.Contains(r.body, want) {
			t.Errorf("no %s in the document", want)
		}
	}
	if strings.Contains(r.body, `"$defs"`) {
		t.Error("the document keeps $defs that a # in it would not find")
	}

	// The answers conform to the document.
	h := httptest.NewServer(s)
	defer h.Close()
	for _, c := range []struct{ path, body string }{
		{"/tools/echo/call", `{"message":"hi"}`},
		{"/tools/echo/call", `{"message":5}`},
		{"/v1/tools/planner", `{"input":{"goal":"x"}}`},
		{"/v1/tools/planner", `{"input":{"goal":"fail"}}`},
		{"/v1/tools/echo", `{"input":[]}`},
	} {
		req, _ := http.NewRequest("POST", h.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer t")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		req, _ = http.NewRequest("POST", h.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		if ok, verrs := v.ValidateHttpResponse(req, resp); !ok {
			for _, e := range verrs {
				t.Errorf("%s %s: %d does not conform: %s: %s", c.path, c.body, resp.StatusCode, e.Message, e.Reason)
			}
		}
		resp.Body.Close()
	}

	off := NewServer(tools, &Options{OpenAPI: EndpointOptions{Disable: true}})
	if r := do(t, off, "GET", "/openapi.json", ""); r.status != 404 {
		t.Errorf("switched off: %d", r.status)
	}
	if doc, err := s.OpenAPI(context.Background()); err != nil || !json.Valid(doc) {
		t.Errorf("OpenAPI(): %v", err)
	}
}
