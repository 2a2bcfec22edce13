package serve

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/toolgen-go/toolgen/"

// goList runs go list with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// floor is where a package of the runtime stands in the house: a package
// may import only packages on lower floors (and its own surface's
// internals). -1 is not the runtime's.
func floor(pkg string) int {
	p, ok := strings.CutPrefix(pkg, module)
	if !ok {
		return -1
	}
	switch {
	case p == "runtime/serve":
		return 4 // the house: mounts every surface
	case p == "runtime/otel":
		return 5 // registers its setup with serve
	case p == "runtime/explorer", p == "runtime/oxp", p == "runtime/qmcp", p == "runtime/ops", p == "runtime/mcp":
		return 3 // the surfaces
	case p == "runtime/internal/surface", p == "runtime/internal/testtools":
		return 2 // what the surfaces share of the core
	case p == "runtime":
		return 1 // the core
	case strings.HasPrefix(p, "runtime/"), strings.HasPrefix(p, "internal/"), p == "web":
		return 0 // leaf packages: the history stores, httpkit, jsonread, ...
	}
	return -1
}

// Imports run one way: serve → surfaces → core → leaf packages. No
// surface imports another, the core imports no surface, and no leaf
// package imports the core.
func TestImportsRunOneWay(t *testing.T) {
	lines := goList(t, "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/toolgen-go/toolgen/runtime/...")
	checked := 0
	for _, line := range lines {
		f := strings.Fields(line)
		pkg, imports := f[0], f[1:]
		from := floor(pkg)
		if from < 0 {
			continue
		}
		checked++
		for _, imp := range imports {
			to := floor(imp)
			if to < 0 {
				continue
			}
			// A history store's test helpers import the store package
			// beside them; leaves import leaves.
			if to >= from && !(from == 0 && to == 0) {
				t.Errorf("%s (floor %d) imports %s (floor %d): imports must run down", strings.TrimPrefix(pkg, module), from, strings.TrimPrefix(imp, module), to)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d packages checked: %v", checked, lines)
	}
}

// A program that mounts one surface links none of the others: not their
// packages, not Prometheus (runtime/ops), not the explorer's web assets.
func TestOneSurfaceLinksNoOther(t *testing.T) {
	surfaces := []string{"runtime/explorer", "runtime/oxp", "runtime/qmcp", "runtime/ops", "runtime/mcp", "runtime/serve", "web"}
	for _, c := range []struct {
		program string
		mounts  string
	}{
		{"./testdata/oxpalone", "runtime/oxp"},
		{"./testdata/exploreralone", "runtime/explorer"},
		{"./testdata/mcpalone", "runtime/mcp"},
	} {
		t.Run(c.mounts, func(t *testing.T) {
			deps := goList(t, "-deps", c.program)
			if !slices.Contains(deps, module+c.mounts) || !slices.Contains(deps, module+"runtime") {
				t.Fatalf("%s does not link %s and the core: %v", c.program, c.mounts, deps)
			}
			for _, d := range deps {
				p := strings.TrimPrefix(d, module)
				if strings.HasPrefix(d, "github.com/prometheus/") {
					t.Errorf("%s links Prometheus: %s", c.program, d)
				}
				if slices.Contains(surfaces, p) && p != c.mounts && !(c.mounts == "runtime/explorer" && p == "web") {
					t.Errorf("%s, which mounts %s, links %s", c.program, c.mounts, p)
				}
			}
		})
	}
}

// A tool author's package names no go-sdk type: every example's tools ask,
// log and report through the runtime's helpers and runtime/mcp's own
// types (mcp.Ask, mcp.Question, runtime.ElicitAs). Its direct imports are
// what the author wrote; the go-sdk still reaches it through the core,
// whose runtime.MCPCaller (contract) takes a go-sdk client session.
func TestToolPackagesImportNoSDK(t *testing.T) {
	lines := goList(t, "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"examples/...")
	seen := false
	for _, line := range lines {
		f := strings.Fields(line)
		seen = seen || f[0] == module+"examples/conformance"
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, "github.com/modelcontextprotocol/") {
				t.Errorf("%s imports %s", strings.TrimPrefix(f[0], module), imp)
			}
		}
	}
	if !seen || len(lines) < 3 {
		t.Fatalf("examples/conformance not among the packages listed: %v", lines)
	}
}
