package gen

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/internal/toolsyaml/synth"
)

// The generated code of a large catalog compiles in time and memory linear
// in its number of tools (issue #44): a tools.yaml of 5,000 tools shaped
// like a published API's generates, no function of the file exceeds a
// bound that does not grow with the catalog, and go build of the package
// (without -race, whatever the test runs under) stays under a generous
// ceiling. One Tools function of every tool took 3.5 GB for 2,000 small
// tools and was killed at 10,000; this catalog now takes about 0.6 GB a
// thousand tools (BENCHMARKS.md, "The generator at catalog scale"). The
// ceilings are several times that, so that only a regression to a
// function that grows with the catalog trips them, not a loaded machine.
func TestCatalogBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package of 5,000 tools: a minute or two")
	}
	const (
		n           = 5000
		maxRSS      = 8 << 30 // bytes, the build's peak resident set
		maxBuild    = 15 * time.Minute
		maxFuncLine = 1500 // lines of one generated function
	)
	dir := catalogModule(t, n)
	files, err := Generate(Config{Dir: dir}, []string{"cat/tools.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("%d files", len(files))
	}
	if err := os.WriteFile(files[0].Path, files[0].Content, 0o644); err != nil {
		t.Fatal(err)
	}
	longest, name := longestFunc(files[0].Content)
	if longest > maxFuncLine {
		t.Errorf("%s is %d lines, more than %d: a generated function grows with the catalog", name, longest, maxFuncLine)
	}
	if got := bytes.Count(files[0].Content, []byte("\n\tListIssue0(ctx context.Context")); got != 1 {
		t.Errorf("Handlers declares ListIssue0 %d times", got)
	}
	start := time.Now()
	rss, out, err := goBuild(dir, "./cat")
	took := time.Since(start)
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("%d tools: %d KB of Go, longest function %d lines (%s); go build %s, peak RSS %d MiB", n, len(files[0].Content)>>10, longest, name, took.Round(time.Millisecond), rss>>20)
	if rss > maxRSS {
		t.Errorf("go build of %d tools peaked at %d MiB, more than %d MiB", n, rss>>20, maxRSS>>20)
	}
	if took > maxBuild {
		t.Errorf("go build of %d tools took %s, more than %s", n, took, maxBuild)
	}
}

// catalogModule writes a module, in a workspace with toolgen's own, whose
// package cat is a synthetic tools.yaml of n tools, and a file whose
// random constant makes go build compile the package afresh (the build
// cache would otherwise answer a second run).
func catalogModule(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	for name, content := range map[string]string{
		"go.mod":         "module example.com/catalog\n\ngo 1.26.0\n",
		"go.work":        "go 1.26.0\n\nuse (\n\t.\n\t" + moduleRoot(t) + "\n)\n",
		"cat/tools.yaml": string(synth.Catalog("cat", n)),
		"cat/nonce.go":   "package cat\n\nconst buildNonce = \"" + hex.EncodeToString(nonce[:]) + "\"\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goBuild runs go build in dir's workspace, without the flags of the test
// (-race), and returns the peak resident set of the go command and the
// compiler and linker it ran, in bytes.
func goBuild(dir string, args ...string) (int64, []byte, error) {
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK="+filepath.Join(dir, "go.work"))
	out, err := cmd.CombinedOutput()
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10 // KiB on Linux
	}
	return rss, out, err
}

// longestFunc is the length in lines of src's longest top-level function,
// and its first line.
func longestFunc(src []byte) (int, string) {
	longest, name, start, cur := 0, "", 0, ""
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "func "):
			start, cur = line, l
		case l == "}" && cur != "":
			if line-start+1 > longest {
				longest, name = line-start+1, cur
			}
			cur = ""
		}
	}
	return longest, name
}
