package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The guards work: the guards golden case, copied with its generated file
// into a module of its own, builds as generated, and stops building when a
// field's type, a json tag, a function's result, or a struct of another
// package changes without regenerating; the compiler names the guard.
func TestGuardsStopStaleBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	root := moduleRoot(t)
	src := filepath.Join(root, goldenDir, "guards")
	const oldPath, newPath = "github.com/toolgen-go/toolgen/" + goldenDir + "/guards", "example.com/guards"
	dir := t.TempDir()
	files := map[string]string{}
	for _, name := range []string{"guards.go", DefaultOutput, "parts/parts.go"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = strings.ReplaceAll(string(b), oldPath, newPath)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	files["go.mod"] = "module example.com/guards\n\ngo 1.25.0\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\nreplace github.com/toolgen-go/toolgen => " + root + "\n"
	write := func(files map[string]string) {
		t.Helper()
		for name, content := range files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	build := func() (string, bool) {
		t.Helper()
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err == nil
	}
	// guardLine is the line of the generated file that starts with text.
	guardLine := func(text string) string {
		t.Helper()
		for i, l := range strings.Split(files[DefaultOutput], "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), text) {
				return DefaultOutput + ":" + strconv.Itoa(i+1) + ":"
			}
		}
		t.Fatalf("no line %q in the generated file", text)
		return ""
	}

	write(files)
	if out, ok := build(); !ok {
		t.Fatalf("the generated code does not build as generated:\n%s", out)
	}
	for _, c := range []struct {
		name, file, old, new, guard string
		onlyGuard                   bool // nothing but the guard notices
	}{
		{"field type", "guards.go", "Count  int ", "Count  int64 ", "_ Input = struct", true},
		{"json tag", "guards.go", `json:"count"`, `json:"total"`, "_ Input = struct", true},
		{"result type", "guards.go", "(Saved, error) {\n\treturn Saved{", "(*Saved, error) {\n\treturn &Saved{", "_ func(context.Context, *Input) (Saved, error)", true},
		{"flat parameter type", "guards.go", "func Resize(width int,", "func Resize(width int32,", "_ func(int, parts.Size)", false},
		{"field of another package", "parts/parts.go", "Author string `json:\"author\"`", "Author []string `json:\"author\"`", "_ parts.Meta = struct", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			changed := strings.Replace(files[c.file], c.old, c.new, 1)
			if changed == files[c.file] {
				t.Fatalf("%q is not in %s", c.old, c.file)
			}
			write(map[string]string{c.file: changed})
			defer write(map[string]string{c.file: files[c.file]})
			out, ok := build()
			if ok {
				t.Fatalf("a stale generated file still builds after changing the %s", c.name)
			}
			if want := guardLine(c.guard); !strings.Contains(out, want) {
				t.Errorf("the build failed, but not at the guard (%s):\n%s", want, out)
			}
			if c.onlyGuard && strings.Count(out, ".go:") != 1 {
				t.Errorf("want the guard's error alone:\n%s", out)
			}
		})
	}
}
