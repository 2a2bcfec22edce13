package ops_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
	"github.com/toolgen-go/toolgen/runtime/internal/testtools"
	"github.com/toolgen-go/toolgen/runtime/ops"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// GET /openapi.json is a valid OpenAPI 3.1 document (checked with
// libopenapi-validator against the specification's own schema), and the
// server's answers to calls conform to it.
func TestOpenAPI(t *testing.T) {
	tools := append(testtools.QMCP(), runtime.Tool{Name: "tree", Description: "A recursive input.\nMore words.", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
		return runtime.TextResult("result here"), nil
	},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`)})
	s := runtime.NewServer(tools, &runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens("t"), Title: "Docs", Logger: servertest.Discard()})
	r := servertest.Do(t, serve.NewHandler(s, nil), "GET", "/openapi.json", "")
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	doc, err := libopenapi.NewDocument([]byte(r.Body))
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
		if !strings.Contains(r.Body, want) {
			t.Errorf("no %s in the document", want)
		}
	}
	if strings.Contains(r.Body, `"$defs"`) {
		t.Error("the document keeps $defs that a # in it would not find")
	}

	// The answers conform to the document.
	h := httptest.NewServer(serve.NewHandler(s, nil))
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

	off := serve.NewHandler(runtime.NewServer(tools, nil), &serve.Options{OpenAPI: ops.EndpointOptions{Disable: true}})
	if r := servertest.Do(t, off, "GET", "/openapi.json", ""); r.Status != 404 {
		t.Errorf("switched off: %d", r.Status)
	}
	if doc, err := ops.OpenAPI(context.Background(), s, nil); err != nil || !json.Valid(doc) {
		t.Errorf("OpenAPI(): %v", err)
	}
}

// openAPIDoc is what TestOpenAPIDeclares reads of a document.
type openAPIDoc struct {
	Servers  []struct{ URL string }
	Security *[]map[string][]string
	Tags     []struct{ Name, Description string }
	Paths    map[string]map[string]struct {
		Tags     []string
		Security *[]map[string][]string
	}
	Components struct {
		SecuritySchemes map[string]struct{ Type, Scheme string }
	}
}

// The document declares what the server does, as Redocly's recommended
// rules and Spectral's ask (security-defined, no-empty-servers,
// operation-tag-defined): one server, the root relative to the document;
// security on the document and on every operation, the bearer scheme with
// an auth hook and an explicit [] (open) without; every tag an operation
// has declared at the top, one per surface there is.
func TestOpenAPIDeclares(t *testing.T) {
	for _, c := range []struct {
		name     string
		opts     runtime.Options
		so       serve.Options
		url      string
		security string
		tags     []string
	}{
		{"open", runtime.Options{}, serve.Options{}, ".", `[]`, []string{"explorer", "v1"}},
		{"auth hook", runtime.Options{AuthHook: runtime.BearerTokens("t")}, serve.Options{}, ".", `[{"bearerAuth":[]}]`, []string{"explorer", "v1"}},
		{"no explorer", runtime.Options{}, serve.Options{Explorer: explorer.Options{Disable: true}}, ".", `[]`, []string{"v1"}},
		{"no v1", runtime.Options{}, serve.Options{V1: qmcp.Options{Disable: true}}, ".", `[]`, []string{"explorer"}},
		{"document moved", runtime.Options{}, serve.Options{OpenAPI: ops.EndpointOptions{Path: "/docs/v2/api.json"}}, "../..", `[]`, []string{"explorer", "v1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Logger = servertest.Discard()
			s := runtime.NewServer(testtools.QMCP(), &c.opts)
			path := c.so.OpenAPI.Path
			if path == "" {
				path = "/openapi.json"
			}
			r := servertest.Do(t, serve.NewHandler(s, &c.so), "GET", path, "")
			if r.Status != 200 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			var d openAPIDoc
			r.Decode(t, &d)
			if len(d.Servers) != 1 || d.Servers[0].URL != c.url {
				t.Errorf("servers %+v, want one, %q", d.Servers, c.url)
			}
			if d.Security == nil {
				t.Error("no top-level security")
			} else if b, _ := json.Marshal(*d.Security); string(b) != c.security {
				t.Errorf("top-level security %s, want %s", b, c.security)
			}
			_, bearer := d.Components.SecuritySchemes["bearerAuth"]
			if bearer != (c.opts.AuthHook != nil) {
				t.Errorf("securitySchemes %+v with an auth hook %v", d.Components.SecuritySchemes, c.opts.AuthHook != nil)
			}
			declared := map[string]bool{}
			var names []string
			for _, tag := range d.Tags {
				if declared[tag.Name] || tag.Description == "" {
					t.Errorf("tag %+v: declared twice or without a description", tag)
				}
				declared[tag.Name] = true
				names = append(names, tag.Name)
			}
			if strings.Join(names, ",") != strings.Join(c.tags, ",") {
				t.Errorf("tags %v, want %v", names, c.tags)
			}
			n := 0
			for path, item := range d.Paths {
				for method, op := range item {
					n++
					if op.Security == nil {
						t.Errorf("%s %s: no security", method, path)
					} else if b, _ := json.Marshal(*op.Security); string(b) != c.security {
						t.Errorf("%s %s: security %s, want %s", method, path, b, c.security)
					}
					if len(op.Tags) == 0 {
						t.Errorf("%s %s: no tag", method, path)
					}
					for _, tag := range op.Tags {
						if !declared[tag] {
							t.Errorf("%s %s: tag %q is not declared at the top", method, path, tag)
						}
					}
				}
			}
			if n != 2*len(c.tags) {
				t.Errorf("%d operations, want %d", n, 2*len(c.tags))
			}
		})
	}
}

// The server's URL, resolved against where the document was fetched from
// as a client does, reaches every operation: at the root, and behind a
// proxy that serves the server under a path prefix (here
// http.StripPrefix), with the document at its default path and moved.
func TestOpenAPIServerURL(t *testing.T) {
	for _, c := range []struct{ prefix, docPath string }{
		{"", "/openapi.json"},
		{"/tools-api", "/openapi.json"},
		{"/tools-api", "/docs/api.json"},
		{"/a/b", "/docs/v2/api.json"},
	} {
		s := runtime.NewServer(testtools.QMCP(), &runtime.Options{AllowExecute: true, Logger: servertest.Discard()})
		mux := http.NewServeMux()
		mux.Handle(c.prefix+"/", http.StripPrefix(c.prefix, serve.NewHandler(s, &serve.Options{OpenAPI: ops.EndpointOptions{Path: c.docPath}})))
		h := httptest.NewServer(mux)
		docURL, err := url.Parse(h.URL + c.prefix + c.docPath)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(docURL.String())
		if err != nil {
			t.Fatal(err)
		}
		var d openAPIDoc
		err = json.NewDecoder(resp.Body).Decode(&d)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || len(d.Servers) != 1 {
			t.Fatalf("%+v: GET %s: %d %v %+v", c, docURL, resp.StatusCode, err, d.Servers)
		}
		ref, err := url.Parse(d.Servers[0].URL)
		if err != nil {
			t.Fatal(err)
		}
		// OpenAPI appends an operation's path to its server's URL.
		base := strings.TrimSuffix(docURL.ResolveReference(ref).String(), "/")
		if want := h.URL + c.prefix; base != want {
			t.Errorf("%+v: the server %q resolves to %s, want %s", c, d.Servers[0].URL, base, want)
		}
		for path := range d.Paths {
			args := `{"message":"hi"}`
			if strings.HasSuffix(path, "/planner") || strings.HasSuffix(path, "/planner/call") {
				args = `{"goal":"x"}`
			}
			body := args
			if strings.HasPrefix(path, "/v1/") {
				body = `{"input":` + args + `}`
			}
			resp, err := http.Post(base+path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("%+v: POST %s%s: %d", c, base, path, resp.StatusCode)
			}
		}
		h.Close()
	}
}
