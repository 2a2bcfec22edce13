package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"os"

	"github.com/toolgen-go/toolgen/runtime"
	_ "github.com/toolgen-go/toolgen/runtime/history/postgres" // -history postgres://... for replicas
	_ "github.com/toolgen-go/toolgen/runtime/history/sqlite"   // the default: a SQLite file
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func main() {
	token := os.Getenv("QMCP_OPERATOR_TOKEN")
	if token == "" {
		token = rand.Text()
		fmt.Fprintf(os.Stderr, "Operator token (scope approvals; set QMCP_OPERATOR_TOKEN to choose one): %s\n", token)
	}
	serve.Main(Tools(), options(token), projectLink)
}

// options configures the server. qmcp's clients send no credentials, and
// get none here either: a request without an Authorization header is the
// caller "anonymous", which may call every tool and read its own history.
// A request with the operator's bearer token is "operator", with the
// scopes approvals (to answer deploy's approval requests) and
// history:read; any other credential is refused.
func options(operatorToken string) *runtime.Options {
	operator := runtime.BearerCredentials(runtime.Credential{
		Secret:  operatorToken,
		Subject: "operator",
		Scopes:  []string{runtime.ScopeApprovals, runtime.ScopeHistoryRead},
	})
	return &runtime.Options{
		Name:    "qmcp",
		Title:   "qmcp tools",
		Version: "1.0.0",
		AuthHook: func(r *http.Request) (context.Context, error) {
			if r.Header.Get("Authorization") == "" {
				return runtime.WithPrincipal(r.Context(), &runtime.Principal{Subject: "anonymous"}), nil
			}
			return operator(r)
		},
	}
}

// projectLink makes the explorer page's header link to toolgen.
func projectLink(o *serve.Options) {
	o.Explorer.ProjectName, o.Explorer.ProjectURL = "toolgen", "https://github.com/toolgen-go/toolgen"
}
