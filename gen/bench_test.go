package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// The generator benchmark: generating for a synthetic package of n tools
// (step=generate), against only loading that package with go/packages in
// the mode the generator loads it in (step=load, the floor nothing can
// beat). The ratio of the two is the generator's own cost; to have both
// sides measured under the same machine load, run the benchmark once per
// -count in a loop, so that the steps alternate, and compare with
// benchstat -col /step. See BENCHMARKS.md.

// benchSizes are the package sizes measured: one as packages are in
// practice, one large enough that the generator's own work shows.
var benchSizes = []int{20, 1000}

// synthPackage writes a module with one package of n tools, each with its
// own three-field input type (doc comments, tags, a shared enum; no two
// schemas alike), an example, and a structured result.
func synthPackage(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	var b strings.Builder
	b.WriteString(`// Package synth is a synthetic package of many tools.
package synth

import "context"

// Unit is a unit.
//
//toolgen:enum
type Unit string

const (
	Metric   Unit = "metric"
	Imperial Unit = "imperial"
)

// Out is every tool's result.
type Out struct {
	// Value computed.
	Value float64 ` + "`json:\"value\"`" + `
	Notes []string ` + "`json:\"notes,omitempty\"`" + `
}
`)
	for i := range n {
		fmt.Fprintf(&b, `
// Input%[1]d is the input of tool %[1]d.
type Input%[1]d struct {
	// Name to look up.
	Name string `+"`json:\"name\" jsonschema:\"minLength=1\"`"+`
	// How many results.
	Count int `+"`json:\"count,omitempty\" jsonschema:\"minimum=1,maximum=%[2]d,default=10\"`"+`
	Unit Unit `+"`json:\"unit,omitempty\"`"+`
}

// Tool%[1]d computes value number %[1]d.
//
//toolgen:tool readonly
//toolgen:example {"name":"x","count":2}
func Tool%[1]d(ctx context.Context, in Input%[1]d) (Out, error) { return Out{Value: %[1]d}, nil }
`, i, 100+i)
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write("go.mod", "module example.com/synth\n\ngo 1.24\n")
	write("synth.go", b.String())
	return dir
}

func BenchmarkGenerate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) { benchGenerate(b, n) })
	}
}

func benchGenerate(b *testing.B, n int) {
	dir := synthPackage(b, n)
	// Warm the build cache both ways first, so that neither side pays
	// for compiling the package's export data.
	if _, err := Generate(Config{Dir: dir}, nil); err != nil {
		b.Fatal(err)
	}
	b.Run("step=load", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			pkgs, err := packages.Load(&packages.Config{Mode: loadMode, Dir: dir}, ".")
			if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
				b.Fatalf("load: %v %v", err, pkgs)
			}
		}
	})
	b.Run("step=generate", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			files, err := Generate(Config{Dir: dir}, nil)
			if err != nil || len(files) != 1 {
				b.Fatalf("generate: %v", err)
			}
		}
	})
}

// reportCPU starts counting CPU time and returns what reports it, as
// cpu-ns/op, beside the wall time: on a machine shared with other work,
// the CPU a step uses varies much less than how long it takes.
func reportCPU(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		end, _ := cpuTime()
		if ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// The synthetic package generates: every tool, with its example.
func TestSynthPackage(t *testing.T) {
	dir := synthPackage(t, 20)
	files, err := Generate(Config{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := string(files[0].Content)
	if got := len(regexp.MustCompile(`\nfunc toolgenTool\d+Handler\(`).FindAllString(out, -1)); got != 20 {
		t.Errorf("%d handlers, want 20", got)
	}
	if got := strings.Count(out, "toolgenTool19Handler"); got != 3 { // declared, documented, listed
		t.Errorf("tool19's handler appears %d times, want 3", got)
	}
}

// The generator's scale (DESIGN.md, "Scale of the generator"): its time
// grows linearly with the input. BenchmarkGenerateWideStruct generates one
// tool whose input is a struct of n fields, BenchmarkGenerateDeepChain one
// whose input is the head of a chain of n nested struct types. The sizes
// are fixed, whatever b.N is; see BENCHMARKS.md for the figures.

func BenchmarkGenerateWideStruct(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("fields=%d", n), func(b *testing.B) {
			benchGenerateOnce(b, wideStructPackage(b, n))
		})
	}
}

func BenchmarkGenerateDeepChain(b *testing.B) {
	for _, n := range []int{500, 2000} {
		b.Run(fmt.Sprintf("depth=%d", n), func(b *testing.B) {
			benchGenerateOnce(b, deepChainPackage(b, n))
		})
	}
}

// benchGenerateOnce measures Generate on the module in dir, after one
// warming run (which also checks that it generates).
func benchGenerateOnce(b *testing.B, dir string) {
	if _, err := Generate(Config{Dir: dir}, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := Generate(Config{Dir: dir}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// synthModule writes a module of one package, package synth, whose
// source is src, and returns its directory.
func synthModule(tb testing.TB, src string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range map[string]string{
		"go.mod":   "module example.com/synth\n\ngo 1.24\n",
		"synth.go": src,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// wideStructPackage is a package with one tool whose input is a struct of
// n documented fields of mixed kinds and tags.
func wideStructPackage(tb testing.TB, n int) string {
	var b strings.Builder
	b.WriteString("// Package synth has one tool of a wide input.\npackage synth\n\nimport \"context\"\n\n// Wide is a wide input.\ntype Wide struct {\n")
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "\t// F%[1]d is field %[1]d.\n\tF%[1]d string `json:\"f%[1]d\" jsonschema:\"minLength=1\"`\n", i)
		case 1:
			fmt.Fprintf(&b, "\t// F%[1]d is field %[1]d.\n\tF%[1]d int `json:\"f%[1]d,omitempty\" jsonschema:\"minimum=0,default=%[1]d\"`\n", i)
		case 2:
			fmt.Fprintf(&b, "\t// F%[1]d is field %[1]d.\n\tF%[1]d []string `json:\"f%[1]d,omitempty\"`\n", i)
		default:
			fmt.Fprintf(&b, "\t// F%[1]d is field %[1]d.\n\tF%[1]d *bool `json:\"f%[1]d,omitempty\"`\n", i)
		}
	}
	b.WriteString("}\n\n// Take takes a wide input.\n//\n//toolgen:tool\nfunc Take(ctx context.Context, in Wide) (string, error) { return \"\", nil }\n")
	return synthModule(tb, b.String())
}

// deepChainPackage is a package with one tool whose input is the head of
// a chain of n struct types, each holding the next.
func deepChainPackage(tb testing.TB, n int) string {
	var b strings.Builder
	b.WriteString("// Package synth has one tool of a deep input.\npackage synth\n\nimport \"context\"\n")
	for i := range n {
		fmt.Fprintf(&b, "\n// T%[1]d is link %[1]d.\ntype T%[1]d struct {\n\t// Name of link %[1]d.\n\tName string `json:\"name\" jsonschema:\"minLength=1\"`\n", i)
		if i+1 < n {
			fmt.Fprintf(&b, "\t// Next link.\n\tNext *T%d `json:\"next,omitempty\"`\n", i+1)
		}
		b.WriteString("}\n")
	}
	b.WriteString("\n// Take takes a deep input.\n//\n//toolgen:tool\nfunc Take(ctx context.Context, in T0) (string, error) { return \"\", nil }\n")
	return synthModule(tb, b.String())
}
