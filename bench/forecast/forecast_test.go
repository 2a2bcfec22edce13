package forecast

import (
	"testing"

	"github.com/toolgen-go/toolgen/gen"
)

// tools_gen.go is what toolgen generates from forecast.go now (what
// `go tool toolgen -check` checks): the benchmarks measure the code
// toolgen really writes.
func TestGeneratedIsCurrent(t *testing.T) {
	files, err := gen.Generate(gen.Config{}, []string{"."})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("%d files generated, want 1", len(files))
	}
	if files[0].Stale() {
		t.Errorf("%s is out of date: run go generate ./forecast in bench/", files[0].Path)
	}
}
