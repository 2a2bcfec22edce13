package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
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

// The generator reads YAML with go.yaml.in/yaml/v3, the maintained
// successor of the archived gopkg.in/yaml.v3: the command links the one
// and not the other, and the main module requires the old path only
// indirectly (a dependency of a test-only dependency may still need it).
func TestYAMLFromMaintainedModule(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "go.yaml.in/yaml/v3") {
		t.Errorf("cmd/toolgen does not link go.yaml.in/yaml/v3")
	}
	if slices.Contains(deps, "gopkg.in/yaml.v3") {
		t.Errorf("cmd/toolgen links the archived gopkg.in/yaml.v3")
	}
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mf.Require {
		if r.Mod.Path == "gopkg.in/yaml.v3" && !r.Indirect {
			t.Errorf("go.mod requires gopkg.in/yaml.v3 directly; import go.yaml.in/yaml/v3 instead")
		}
	}
}
