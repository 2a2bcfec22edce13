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
// package changes without regenerating; the compiler names the guard, and
// running toolgen again (which reads a package whose generated file does
// not compile) makes it build. The compiler's own message says what to do
// (it names toolsGenIsStale_RunGoGenerate), under go build and go vet
// alike, on a line short enough to read rather than spelling out the
// struct type.
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
	run := func(verb string) (string, bool) {
		cmd := exec.Command("go", verb, "./...")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err == nil
	}
	build := func() (string, bool) { return run("build") }

	// For go build and for the loader alike: the module's go.sum may
	// gain lines, and nothing is downloaded.
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	writeFiles(t, dir, files)
	if out, ok := build(); !ok {
		t.Fatalf("the generated code does not build as generated:\n%s", out)
	}
	for _, c := range []struct {
		name, file, old, new, guard string
		onlyGuard                   bool // nothing but the guard notices
	}{
		{"field type", "guards.go", "Count  int ", "Count  int64 ", "var _ Input = " + staleGuard + "{}", true},
		{"json tag", "guards.go", `json:"count"`, `json:"total"`, "var _ Input = " + staleGuard + "{}", true},
		{"result type", "guards.go", "(Saved, error) {\n\treturn Saved{", "(*Saved, error) {\n\treturn &Saved{", "var _ " + staleGuard + " = Save", true},
		{"flat parameter type", "guards.go", "func Resize(width int,", "func Resize(width int32,", "var _ " + staleGuard + " = Resize", false},
		{"field of another package", "parts/parts.go", "Author string `json:\"author\"`", "Author []string `json:\"author\"`", "var _ parts.Meta = " + staleGuard + "{}", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			changed := strings.Replace(files[c.file], c.old, c.new, 1)
			if changed == files[c.file] {
				t.Fatalf("%q is not in %s", c.old, c.file)
			}
			writeFiles(t, dir, map[string]string{c.file: changed})
			defer writeFiles(t, dir, files)
			out, ok := build()
			if ok {
				t.Fatalf("a stale generated file still builds after changing the %s", c.name)
			}
			want := lineOf(t, files[DefaultOutput], c.guard)
			if !strings.Contains(out, want) {
				t.Errorf("the build failed, but not at the guard (%s):\n%s", want, out)
			}
			// The compiler's own message says what to do, in a line
			// that a reader can take in (the struct is not spelt out).
			checkHint(t, "go build", out, want)
			if out, ok := run("vet"); ok {
				t.Errorf("go vet passes a stale generated file")
			} else {
				checkHint(t, "go vet", out, want)
			}
			if c.onlyGuard && strings.Count(out, ".go:") != 1 {
				t.Errorf("want the guard's error alone:\n%s", out)
			}
			regenerated, err := Generate(Config{Dir: dir}, []string{"."})
			if err != nil {
				t.Fatalf("toolgen on the stale package: %v", err)
			}
			if _, err := Write(regenerated); err != nil {
				t.Fatal(err)
			}
			if out, ok := build(); !ok {
				t.Errorf("still does not build after running toolgen again:\n%s", out)
			}
		})
	}

	// A renamed package: go list finds two package names in the
	// directory, one of them the generated file's. Running toolgen again
	// fixes it, as it fixes any stale file.
	t.Run("package renamed", func(t *testing.T) {
		renamed := strings.Replace(files["guards.go"], "package guards", "package renamed", 1)
		writeFiles(t, dir, map[string]string{"guards.go": renamed})
		defer writeFiles(t, dir, files)
		if _, ok := build(); ok {
			t.Fatal("a directory of two package names builds")
		}
		regenerated, err := Generate(Config{Dir: dir}, []string{"."})
		if err != nil {
			t.Fatalf("toolgen on the renamed package: %v", err)
		}
		if _, err := Write(regenerated); err != nil {
			t.Fatal(err)
		}
		if out, ok := build(); !ok {
			t.Errorf("still does not build after running toolgen again:\n%s", out)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, DefaultOutput)); !strings.Contains(string(b), "\npackage renamed\n") {
			t.Errorf("the generated file is not of the package's new name")
		}
	})
}

// checkHint fails unless the compiler's line for the guard at want
// ("tools_gen.go:N:") names staleGuard and is short.
func checkHint(t *testing.T, tool, out, want string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, want) {
			continue
		}
		if !strings.Contains(l, staleGuard) {
			t.Errorf("%s's message for the stale guard does not name %s:\n%s", tool, staleGuard, l)
		}
		if len(l) > 200 {
			t.Errorf("%s's message for the stale guard is %d characters long:\n%s", tool, len(l), l)
		}
		return
	}
	t.Errorf("%s gave no message at %s:\n%s", tool, want, out)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
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

// lineOf is "file:N:" for the first line of the generated file src that
// starts with text, as the compiler names it.
func lineOf(t *testing.T, src, text string) string {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), text) {
			return DefaultOutput + ":" + strconv.Itoa(i+1) + ":"
		}
	}
	t.Fatalf("no line %q in the generated file", text)
	return ""
}
