package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The generator links none of the server's dependencies: gen imports a
// leaf package for the tool-name rule rather than the runtime, so that
// go list -deps ./cmd/toolgen shows no go-sdk, JWT, Prometheus, chromedp,
// URI templates or database drivers (nor the runtime and the web page that
// would bring them). toolgen init and -openapi keep to this: the templates
// are text, and the OpenAPI document is built by internal/openapi, which
// the runtime uses too.
func TestNoServerDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/toolgen-go/toolgen/gen") || !slices.Contains(deps, "github.com/dave/jennifer/jen") {
		t.Fatalf("go list -deps did not list the generator's own dependencies:\n%s", out)
	}
	for _, d := range deps {
		for _, bad := range []string{
			"github.com/modelcontextprotocol/",
			"github.com/golang-jwt/",
			"github.com/chromedp/",
			"github.com/yosida95/uritemplate",
			"github.com/prometheus/",
			"modernc.org/sqlite",
			"github.com/jackc/pgx",
			"github.com/toolgen-go/toolgen/runtime",
			"github.com/toolgen-go/toolgen/web",
			"github.com/invopop/", // the type rules' oracle: tests only
		} {
			if strings.HasPrefix(d, bad) {
				t.Errorf("cmd/toolgen depends on %s", d)
			}
		}
	}
}
