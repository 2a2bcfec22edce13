package gen

import (
	"bytes"
	"encoding/json"
	"flag"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The golden cases, sqlc-style: testdata/golden/<case>/ holds an input
// package (or a tools.yaml) and either the exact expected output
// (tools_gen.go) or the exact expected errors (errors.txt), and the exact
// expected warnings when there are any (warnings.txt). A case may carry
// its own _test.go that runs the generated tools. A case whose name has
// "client" in it is generated with Config.Client, and expects
// tools_client_gen.go too.
//
//	go test ./gen -update   rewrites the expected files.

var update = flag.Bool("update", false, "rewrite the golden files")

const goldenDir = "testdata/golden"

// moduleRoot is where golden positions are relative to.
func moduleRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// testGenerator is a generator as Generate starts one, in dir.
func testGenerator(t testing.TB, dir string) *generator {
	t.Helper()
	g, err := newGenerator(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func goldenCases(t *testing.T) []string {
	entries, err := os.ReadDir(filepath.Join(moduleRoot(t), goldenDir))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	return cases
}

func TestGolden(t *testing.T) {
	root := moduleRoot(t)
	var compiled []string
	for _, name := range goldenCases(t) {
		dir := filepath.Join(root, goldenDir, name)
		arg := "./" + goldenDir + "/" + name
		if _, err := os.Stat(filepath.Join(dir, "tools.yaml")); err == nil {
			arg += "/tools.yaml"
		}
		outPath := filepath.Join(dir, DefaultOutput)
		errPath := filepath.Join(dir, "errors.txt")
		warnPath := filepath.Join(dir, "warnings.txt")
		client := strings.Contains(name, "client")
		clientPath := filepath.Join(dir, DefaultClientOutput)
		ok := t.Run(name, func(t *testing.T) {
			var warnings strings.Builder
			files, err := Generate(Config{Dir: root, Client: client, Warn: func(w *Error) {
				warnings.WriteString(w.Error() + "\n")
			}}, []string{arg})
			if *update {
				if warnings.Len() > 0 {
					writeGolden(t, warnPath, []byte(warnings.String()))
				} else {
					os.Remove(warnPath)
				}
			} else if want, _ := os.ReadFile(warnPath); warnings.String() != string(want) {
				t.Errorf("warnings differ\n got:\n%s\nwant:\n%s", warnings.String(), want)
			}
			if err != nil {
				got := err.Error() + "\n"
				if *update {
					writeGolden(t, errPath, []byte(got))
					os.Remove(outPath)
					return
				}
				want, rerr := os.ReadFile(errPath)
				if rerr != nil {
					t.Fatalf("unexpected errors:\n%s", got)
				}
				if got != string(want) {
					t.Errorf("errors differ\n got:\n%s\nwant:\n%s", got, want)
				}
				if _, serr := os.Stat(outPath); serr == nil {
					t.Errorf("a failing case has %s", DefaultOutput)
				}
				return
			}
			if client {
				if len(files) != 2 || files[0].Path != outPath || files[1].Path != clientPath {
					t.Fatalf("generated %d files, want %s and %s", len(files), outPath, clientPath)
				}
				checkGolden(t, clientPath, files[1].Content)
			} else if len(files) != 1 || files[0].Path != outPath {
				t.Fatalf("generated %d files, want just %s", len(files), outPath)
			}
			got := files[0].Content
			// gofmt-clean, so that -update cannot bless a text piece
			// (emit_text.go) that is laid out otherwise than gofmt would.
			for _, f := range files {
				if clean, err := format.Source(f.Content); err != nil || !bytes.Equal(clean, f.Content) {
					t.Errorf("%s is not gofmt-clean (%v):\n%s", f.Path, err, lineDiff(string(f.Content), string(clean)))
				}
			}
			again, err := Generate(Config{Dir: root, Client: client}, []string{arg})
			if err != nil || !bytes.Equal(again[0].Content, got) || client && !bytes.Equal(again[1].Content, files[1].Content) {
				t.Errorf("a second run gave different output (%v)", err)
			}
			if *update {
				writeGolden(t, outPath, got)
				os.Remove(errPath)
				return
			}
			if _, err := os.Stat(errPath); err == nil {
				t.Errorf("case expects errors (errors.txt) but generated without any")
			}
			want, err := os.ReadFile(outPath)
			if err != nil {
				t.Fatalf("no golden output: %v (run go test ./gen -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run go test ./gen -update and review the diff):\n%s", outPath, lineDiff(string(want), string(got)))
			}
		})
		if ok {
			if _, err := os.Stat(outPath); err == nil {
				compiled = append(compiled, "./"+goldenDir+"/"+name)
			}
		}
	}
	if testing.Short() || len(compiled) == 0 {
		return
	}
	// Every expected output compiles and is vet-clean, and every case's
	// checks (its *_checks.go) pass: all run by one test binary,
	// testdata/golden's TestCases, so the step links once, not once a case.
	t.Run("compile", func(t *testing.T) {
		harness, err := os.ReadFile(filepath.Join(root, goldenDir, "cases_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range compiled {
			checks, _ := filepath.Glob(filepath.Join(root, c, "*_checks.go"))
			if len(checks) > 0 && !bytes.Contains(harness, []byte(`"github.com/toolgen-go/toolgen/`+strings.TrimPrefix(c, "./")+`"`)) {
				t.Errorf("%s has checks that %s/cases_test.go does not run", c, goldenDir)
			}
		}
		goCmd(t, root, append([]string{"vet"}, compiled...)...)
		goCmd(t, root, append([]string{"build"}, compiled...)...)
		goCmd(t, root, "test", "-count=1", "-vet=off", "./"+goldenDir)
	})
}

// checkGolden compares a generated file with its golden copy, or with
// -update rewrites it.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		writeGolden(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden output: %v (run go test ./gen -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test ./gen -update and review the diff):\n%s", path, lineDiff(string(want), string(got)))
	}
}

func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func writeGolden(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineDiff shows the first lines where two texts differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line ")
			b.WriteString(strconv.Itoa(i + 1))
			b.WriteString(":\n-")
			b.WriteString(wl)
			b.WriteString("\n+")
			b.WriteString(gl)
			b.WriteString("\n")
			if shown++; shown == 10 {
				break
			}
		}
	}
	return b.String()
}

// The type rules only write schemas that compile (the generator relies on
// it and compiles a schema only to check examples): every input and output
// schema of every golden case compiles as the runtime compiles it.
func TestGoldenSchemasCompile(t *testing.T) {
	root := moduleRoot(t)
	for _, name := range goldenCases(t) {
		if _, err := os.Stat(filepath.Join(root, goldenDir, name, DefaultOutput)); err != nil {
			continue
		}
		g := testGenerator(t, root)
		arg := "./" + goldenDir + "/" + name
		var units []*unit
		if _, err := os.Stat(filepath.Join(root, goldenDir, name, "tools.yaml")); err == nil {
			units = []*unit{g.loadYAML(arg + "/tools.yaml")}
		} else {
			units = g.loadGo([]string{arg})
		}
		if err := g.errs.err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, u := range units {
			for _, tl := range u.tools {
				for _, s := range []json.RawMessage{tl.input, tl.output} {
					if s == nil {
						continue
					}
					if err := checkSchema(s); err != nil {
						t.Errorf("%s: %s: %v\n%s", name, tl.name, err, s)
					}
				}
			}
		}
	}
}
