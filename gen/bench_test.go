package gen

import (
	"fmt"
	"os"
	"path/filepath"
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
	if got := strings.Count(out, "\nfunc toolgenTool"); got != 20 {
		t.Errorf("%d handlers, want 20", got)
	}
	if got := strings.Count(out, "toolgenTool19Handler"); got != 3 { // declared, documented, listed
		t.Errorf("tool19's handler appears %d times, want 3", got)
	}
}
