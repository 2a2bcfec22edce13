package runtime_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

type issueInput struct {
	Title string `json:"title"`
}

// An auth hook names each caller and grants it scopes; a tool that
// declares scopes (//toolgen:tool scopes=issues:write, or Tool.Scopes) is
// hidden from, and refused to, a caller without them, on every surface.
// Inside the tool, PrincipalFromContext says who calls.
func ExampleBearerCredentials() {
	file := runtime.MustNewTool("file_issue", "Files an issue.", func(ctx context.Context, in issueInput) (string, error) {
		p, _ := runtime.PrincipalFromContext(ctx)
		return "filed by " + p.Subject, nil
	})
	file.Scopes = []string{"issues:write"}
	list := runtime.MustNewTool("list_issues", "Lists the issues.", func(context.Context, struct{}) (string, error) {
		return "no issues", nil
	})
	srv := runtime.NewServer(runtime.ToolList{file, list}, &runtime.Options{
		Logger: slog.New(slog.DiscardHandler), // refusals are logged at WARN
		AuthHook: runtime.BearerCredentials(
			runtime.Credential{Secret: "reader-token", Subject: "reader", Scopes: []string{"issues:read"}},
			runtime.Credential{Secret: "admin-token", Subject: "admin", Scopes: []string{"issues:read", "issues:write"}},
		),
	})
	hs := httptest.NewServer(house(srv))
	defer hs.Close()

	do := func(method, path, token, body string) {
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		out, _, _ := strings.Cut(strings.TrimSpace(string(b)), `,"invocation_id"`) // a new UUID each time
		fmt.Println(resp.StatusCode, out, resp.Header.Get("WWW-Authenticate"))
	}
	do("GET", "/v1/tools", "", "")
	do("POST", "/v1/tools/file_issue", "reader-token", `{"input":{"title":"bug"}}`)
	do("POST", "/v1/tools/file_issue", "admin-token", `{"input":{"title":"bug"}}`)
	// Output:
	// 401 {"detail":"Unauthorized"} Bearer
	// 403 {"detail":"Tool file_issue needs the scope issues:write, which this caller does not have."} Bearer error="insufficient_scope", scope="issues:write"
	// 200 {"result":"filed by admin","error":null
}

// A hook of one's own names its caller with WithPrincipal: the Subject is
// who the caller is for history, idempotency keys, sessions and rate
// limits, and what handlers read with PrincipalFromContext.
func ExampleWithPrincipal() {
	users := map[string]string{"s3cret-ada": "ada", "s3cret-bob": "bob"}
	hook := func(r *http.Request) (context.Context, error) {
		name, ok := users[r.Header.Get("X-Session-Token")]
		if !ok {
			return nil, runtime.ErrBadCredentials
		}
		return runtime.WithPrincipal(r.Context(), &runtime.Principal{Subject: name}), nil
	}
	whoami := runtime.MustNewTool("whoami", "Says who calls.", func(ctx context.Context, _ struct{}) (string, error) {
		p, _ := runtime.PrincipalFromContext(ctx)
		return p.Subject, nil
	})
	srv := runtime.NewServer(runtime.ToolList{whoami}, &runtime.Options{
		AllowExecute: true, AuthHook: hook, Logger: slog.New(slog.DiscardHandler),
	})
	hs := httptest.NewServer(house(srv))
	defer hs.Close()

	req, _ := http.NewRequest("POST", hs.URL+"/v1/tools/whoami", strings.NewReader(`{"input":{}}`))
	req.Header.Set("X-Session-Token", "s3cret-ada")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out, _, _ := strings.Cut(string(b), `,"invocation_id"`)
	fmt.Println(out)
	// Output:
	// {"result":"ada","error":null
}
