package gen

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/toolgen-go/toolgen/runtime"
)

// The version toolgen init requires comes from the running toolgen's build
// information; a development build has none.
func TestBuildVersion(t *testing.T) {
	dep := func(v string, replaced bool) *debug.BuildInfo {
		d := &debug.Module{Path: ModulePath, Version: v}
		if replaced {
			d.Replace = &debug.Module{Path: "../toolgen"}
		}
		return &debug.BuildInfo{Main: debug.Module{Path: "example.com/srv", Version: "(devel)"}, Deps: []*debug.Module{
			{Path: "golang.org/x/mod", Version: "v0.41.0"}, d}}
	}
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"go install @version", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v1.2.3"}}, "v1.2.3"},
		{"a pseudo-version", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v0.0.0-20260101120000-abcdefabcdef"}}, "v0.0.0-20260101120000-abcdefabcdef"},
		{"a checkout", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "(devel)"}}, ""},
		{"a modified checkout", &debug.BuildInfo{Main: debug.Module{Path: ModulePath, Version: "v0.0.0-20260101120000-abcdefabcdef+dirty"}}, ""},
		{"go tool toolgen", dep("v1.4.0", false), "v1.4.0"},
		{"go tool toolgen, replaced", dep("v1.4.0", true), ""},
		{"not toolgen at all", &debug.BuildInfo{Main: debug.Module{Path: "example.com/other", Version: "v1.0.0"}}, ""},
		{"no build information", nil, ""},
	} {
		if got := buildVersion(c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A new module needs the go version toolgen's own module needs, and the
// document's default title is the server's.
func TestInitConstants(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(moduleRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("go.mod", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Module.Mod.Path != ModulePath || f.Go.Version != InitGoVersion {
		t.Errorf("toolgen's go.mod: module %s, go %s; gen says %s, %s", f.Module.Mod.Path, f.Go.Version, ModulePath, InitGoVersion)
	}
	if DefaultOpenAPITitle != runtime.DefaultTitle {
		t.Errorf("DefaultOpenAPITitle %q, runtime.DefaultTitle %q", DefaultOpenAPITitle, runtime.DefaultTitle)
	}
}

// The rendered module: gofmt-clean Go, tool functions that need only the
// standard library (the generator runs on them before the module's
// dependencies are resolved), and no warnings.
func TestInitRender(t *testing.T) {
	root := moduleRoot(t)
	t.Chdir(t.TempDir())
	files, err := Init(InitConfig{Dir: "srv", Module: "example.com/me/weather-tools/v2", Replace: root})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	for _, f := range files {
		got[filepath.Base(f.Path)] = f.Content
		if strings.HasSuffix(f.Path, ".go") {
			if clean, err := format.Source(f.Content); err != nil || !bytes.Equal(clean, f.Content) {
				t.Errorf("%s is not gofmt-clean (%v)", f.Path, err)
			}
		}
	}
	for _, name := range []string{"go.mod", "tools.go", "main.go", "tools_test.go", "README.md", "tools_gen.go", "tools_client_gen.go"} {
		if got[name] == nil {
			t.Errorf("no %s", name)
		}
	}
	tools, err := parser.ParseFile(token.NewFileSet(), "tools.go", got["tools.go"], parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range tools.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
			t.Errorf("tools.go imports %s: the scaffold's tools import only the standard library", p)
		}
	}
	mod, err := modfile.Parse("go.mod", got["go.mod"], nil)
	if err != nil {
		t.Fatalf("go.mod: %v\n%s", err, got["go.mod"])
	}
	if mod.Module.Mod.Path != "example.com/me/weather-tools/v2" || mod.Go.Version != InitGoVersion ||
		len(mod.Require) != 1 || mod.Require[0].Mod != (module.Version{Path: ModulePath, Version: DevelVersion}) ||
		len(mod.Replace) != 1 || mod.Replace[0].New.Path != root ||
		len(mod.Tool) != 1 || mod.Tool[0].Path != ModulePath+"/cmd/toolgen" {
		t.Errorf("go.mod:\n%s", got["go.mod"])
	}
	for name, want := range map[string]string{
		"tools.go":     "//toolgen:toolkit WeatherTools version=0.1.0\n",
		"main.go":      `Title: "weather-tools"`,
		"tools_gen.go": "// Source: package example.com/me/weather-tools/v2\n",
		"README.md":    "## toolgen from a local checkout",
	} {
		if !strings.Contains(string(got[name]), want) {
			t.Errorf("%s has no %q", name, want)
		}
	}
}

// A version given is required as it is, with no replace directive; one
// that is not a version of toolgen is an error.
func TestInitVersion(t *testing.T) {
	t.Chdir(t.TempDir())
	files, err := Init(InitConfig{Dir: "srv", Version: "v1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	gomod := string(files[slices.IndexFunc(files, func(f *File) bool { return filepath.Base(f.Path) == "go.mod" })].Content)
	want := "module srv\n\ngo " + InitGoVersion + "\n\nrequire github.com/toolgen-go/toolgen v1.2.3\n\ntool github.com/toolgen-go/toolgen/cmd/toolgen\n"
	if gomod != want {
		t.Errorf("go.mod:\n%s\nwant:\n%s", gomod, want)
	}
	for _, v := range []string{"1.2.3", "v2.0.0", "latest"} {
		if _, err := Init(InitConfig{Dir: "srv", Version: v}); err == nil {
			t.Errorf("version %s: no error", v)
		}
	}
}

// WriteNew leaves no trace when a file exists: the files and directories
// it made before are removed, and the file is untouched.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "taken"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteNew([]*File{
		{Path: filepath.Join(dir, "a", "b", "one"), Content: []byte("1")},
		{Path: filepath.Join(dir, "taken"), Content: []byte("2")},
	})
	if err == nil || !strings.Contains(err.Error(), "taken: already exists: nothing was written") {
		t.Fatalf("error %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "taken")); string(b) != "mine" {
		t.Errorf("taken holds %q", b)
	}
}
