package gen

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/toolgen-go/toolgen/internal/contract"
	"go/format"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"text/template"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/toolgen-go/toolgen/internal/toolname"
	"github.com/toolgen-go/toolgen/templates"
)

// toolgen init: a new server module rendered from templates.Init(). The
// tool functions (tools.go) import only the standard library, so that the
// generated file is written before the module's dependencies are
// resolved: the generator runs on tools.go alone, in a scratch module of
// the same path, and gives the bytes go generate gives in the new module.

// ModulePath is toolgen's module path, which a new server requires.
const ModulePath = "github.com/toolgen-go/toolgen"

// InitGoVersion is the go line of a new server's go.mod: the one toolgen's
// own go.mod has, which a module requiring toolgen needs.
const InitGoVersion = "1.26.0"

// DevelVersion is the toolgen version a new server requires when the
// running toolgen is a development build (its own version unknown) and
// InitConfig.Replace names a checkout: under a replace directive any
// version does, and this is the one the go command writes for a module it
// cannot look up.
const DevelVersion = "v0.0.0-00010101000000-000000000000"

// InitConfig says what [Init] writes.
type InitConfig struct {
	// Dir is the new module's directory, created if missing. Relative
	// paths are relative to the current directory.
	Dir string
	// Module is the module path. Empty means Dir's base name.
	Module string
	// Replace, when set, is a local checkout of toolgen that go.mod's
	// replace directive points at, for a toolgen that is not published
	// (or to try changes to it). A relative path is relative to the
	// current directory; it is written relative to Dir.
	Replace string
	// Version is the toolgen version go.mod requires. Empty means the
	// running toolgen's (from its build information); when that is a
	// development build, DevelVersion with Replace, else an error.
	Version string
}

// initData is what the templates see.
type initData struct {
	Module         string // the module path
	ModuleQuoted   string // the same, quoted for go.mod when it needs it
	Name           string // the module path's last element
	Title          string // the explorer page's title
	Toolkit        string // the OXP toolkit: Name in Go case
	GoVersion      string // go.mod's go line
	ToolgenVersion string // the version of toolgen required
	Replace        string // the checkout, as written in go.mod ("" for none)
	ReplaceQuoted  string
}

// initExtraFiles are the files of a new module besides those of the
// templates: the generated file, and go.sum, which go mod tidy writes.
// Init refuses to overwrite any of them either.
var initExtraFiles = []string{DefaultOutput, DefaultClientOutput, contract.FileName, "go.sum"}

// Init returns the files of a new server module (go.mod, tools.go,
// main.go, tools_test.go, README.md, and tools_gen.go and
// tools_client_gen.go generated from tools.go) and writes nothing. It fails, naming each one, when any of
// those files or go.sum exists in cfg.Dir. [WriteNew] writes the files;
// [Tidy] then resolves the module's dependencies.
func Init(cfg InitConfig) ([]*File, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if cfg.Dir == "" {
		return nil, errors.New("toolgen init: no directory given")
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	tmpl, names, err := parseInitTemplates()
	if err != nil {
		return nil, err
	}

	// Nothing is overwritten: check every file first.
	var exist errs
	exist.base = wd
	for _, name := range slices.Concat(names, initExtraFiles) {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err == nil {
			exist.add(token.Position{Filename: p}, "already exists: toolgen init writes only new files, and wrote none")
		}
	}
	if err := exist.err(); err != nil {
		return nil, err
	}

	data, err := initTemplateData(cfg, dir, wd)
	if err != nil {
		return nil, err
	}
	var files []*File
	var toolsSrc []byte
	for _, name := range names {
		var b bytes.Buffer
		if err := tmpl.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
			return nil, fmt.Errorf("toolgen init: template %s: %v", name, err)
		}
		content := b.Bytes()
		if strings.HasSuffix(name, ".go") {
			formatted, err := format.Source(content)
			if err != nil {
				return nil, fmt.Errorf("toolgen init: template %s is not Go (a bug in toolgen: please report it): %v", name, err)
			}
			content = formatted
		}
		if name == "tools.go" {
			toolsSrc = content
		}
		files = append(files, &File{Path: filepath.Join(dir, name), Content: content})
	}
	if toolsSrc == nil {
		return nil, errors.New("toolgen init: the templates have no tools.go (a bug in toolgen: please report it)")
	}
	generated, err := generateScratch(data.Module, toolsSrc)
	if err != nil {
		return nil, err
	}
	files = append(files, &File{Path: filepath.Join(dir, DefaultOutput), Content: generated[0]},
		&File{Path: filepath.Join(dir, DefaultClientOutput), Content: generated[1]},
		&File{Path: filepath.Join(dir, contract.FileName), Content: generated[2]})
	return files, nil
}

// parseInitTemplates parses every NAME.tmpl of the init templates and
// returns the names of the files they render, sorted.
func parseInitTemplates() (*template.Template, []string, error) {
	fsys := templates.Init()
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".tmpl") {
			names = append(names, strings.TrimSuffix(p, ".tmpl"))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(names)
	t, err := template.New("").Option("missingkey=error").ParseFS(fsys, "*.tmpl")
	if err != nil {
		return nil, nil, fmt.Errorf("toolgen init: templates: %v", err)
	}
	return t, names, nil
}

// initTemplateData works out the module path, the version to require and
// the replace directive.
func initTemplateData(cfg InitConfig, dir, wd string) (*initData, error) {
	mod := cfg.Module
	if mod == "" {
		mod = filepath.Base(dir)
		if err := module.CheckImportPath(mod); err != nil {
			return nil, fmt.Errorf("toolgen init: the directory's name %q is not a module path: give one with -module (%v)", mod, err)
		}
	} else if err := module.CheckImportPath(mod); err != nil {
		return nil, fmt.Errorf("toolgen init: -module %s: %v", mod, err)
	}
	prefix, _, _ := module.SplitPathVersion(mod) // example.com/x/v2 is x
	name := prefix[strings.LastIndexByte(prefix, '/')+1:]
	if mod == ModulePath || strings.HasPrefix(mod, ModulePath+"/") {
		return nil, fmt.Errorf("toolgen init: -module %s: a new server cannot be toolgen's own module", mod)
	}
	kit := toolname.GoName(name)
	if len(kit) > 40 {
		// OXP names are Toolkit_Tool, at most 64 characters.
		kit = kit[:40]
	}
	data := &initData{
		Module:       mod,
		ModuleQuoted: modfile.AutoQuote(mod),
		Name:         name,
		Title:        name,
		Toolkit:      kit,
		GoVersion:    InitGoVersion,
	}

	if cfg.Replace != "" {
		checkout, err := filepath.Abs(cfg.Replace)
		if err != nil {
			return nil, err
		}
		gomod, err := os.ReadFile(filepath.Join(checkout, "go.mod"))
		if err != nil {
			return nil, fmt.Errorf("toolgen init: -replace %s: not a checkout of %s: %v", cfg.Replace, ModulePath, err)
		}
		if got := modfile.ModulePath(gomod); got != ModulePath {
			return nil, fmt.Errorf("toolgen init: -replace %s: not a checkout of %s: its go.mod says module %q", cfg.Replace, ModulePath, got)
		}
		rep := checkout
		if !filepath.IsAbs(cfg.Replace) {
			// Relative to the new module, where go.mod is read.
			if r, err := filepath.Rel(dir, checkout); err == nil {
				rep = filepath.ToSlash(r)
				if !strings.HasPrefix(rep, "../") && rep != ".." {
					rep = "./" + rep
				}
			}
		}
		data.Replace = rep
		data.ReplaceQuoted = modfile.AutoQuote(rep)
	}

	switch v := cfg.Version; {
	case v != "":
		if err := module.Check(ModulePath, v); err != nil {
			return nil, fmt.Errorf("toolgen init: %v", err)
		}
		data.ToolgenVersion = v
	default:
		bi, _ := debug.ReadBuildInfo()
		data.ToolgenVersion = buildVersion(bi)
	}
	if data.ToolgenVersion == "" {
		if cfg.Replace == "" {
			return nil, fmt.Errorf("toolgen init: this toolgen is a development build, so the version of %s to require is unknown: "+
				"give -replace with the checkout it was built from, or run a released toolgen (go run %s/cmd/toolgen@latest init ...)", ModulePath, ModulePath)
		}
		data.ToolgenVersion = DevelVersion
	}
	return data, nil
}

// buildVersion is the version of the toolgen module a program was built
// with, from its build information: the main module's (go install
// .../cmd/toolgen@v1.2.3, go run ...@v1.2.3) or a dependency's (go tool
// toolgen in a module that requires it). It is "" when there is no usable
// version: a development build ("(devel)", a modified checkout's
// "+dirty"), or a dependency replaced by a directory.
func buildVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return ""
	}
	m := &bi.Main
	if m.Path != ModulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == ModulePath {
				m = d
				break
			}
		}
	}
	if m == nil || m.Replace != nil || module.Check(ModulePath, m.Version) != nil {
		return ""
	}
	if _, build, _ := strings.Cut(m.Version, "+"); build != "" && build != "incompatible" {
		return "" // +dirty: no such version to fetch
	}
	return m.Version
}

// generateScratch generates tools_gen.go, its typed client
// tools_client_gen.go and the lock of its tools, tools.lock (as the
// line that runs go generate in tools.go asks: -lock -client), for
// tools.go in a scratch module of path mod: tools.go imports only the standard library, so the scratch
// module needs no dependencies, and the output is the same bytes as in the
// new module (the package path is the same; positions are not in it).
func generateScratch(mod string, toolsSrc []byte) ([3][]byte, error) {
	var none [3][]byte
	scratch, err := os.MkdirTemp("", "toolgen-init-")
	if err != nil {
		return none, err
	}
	defer os.RemoveAll(scratch)
	gomod := "module " + modfile.AutoQuote(mod) + "\n\ngo " + InitGoVersion + "\n"
	if err := os.WriteFile(filepath.Join(scratch, "go.mod"), []byte(gomod), 0o644); err != nil {
		return none, err
	}
	if err := os.WriteFile(filepath.Join(scratch, "tools.go"), toolsSrc, 0o644); err != nil {
		return none, err
	}
	env := append(goEnv(), "GOFLAGS=-mod=mod") // whatever the user's GOFLAGS say of vendoring
	files, err := Generate(Config{Dir: scratch, Strict: true, Client: true, Lock: true, env: env}, nil)
	if err != nil {
		return none, fmt.Errorf("toolgen init: generating %s: %v", DefaultOutput, err)
	}
	var out [3][]byte
	for _, f := range files {
		switch filepath.Base(f.Path) {
		case DefaultOutput:
			out[0] = f.Content
		case DefaultClientOutput:
			out[1] = f.Content
		case contract.FileName:
			out[2] = f.Content
		}
	}
	if len(files) != 3 || out[0] == nil || out[1] == nil || out[2] == nil {
		return none, fmt.Errorf("toolgen init: generating %s gave %d files", DefaultOutput, len(files))
	}
	return out, nil
}

// goEnv is the environment of the go commands init runs: outside any
// workspace, since the new module is in none.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off")
}

// WriteNew writes files that must not exist yet, creating their
// directories: a file that exists (or appears meanwhile) is not touched,
// and on any error the files (and directories) written so far are
// removed.
func WriteNew(files []*File) error {
	var made []string // files and directories, in the order made
	undo := func() {
		for _, p := range slices.Backward(made) {
			os.Remove(p) // a directory only if still empty
		}
	}
	for _, f := range files {
		if err := mkdirs(filepath.Dir(f.Path), &made); err != nil {
			undo()
			return err
		}
		w, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			undo()
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s: already exists: nothing was written", f.Path)
			}
			return err
		}
		made = append(made, f.Path)
		_, err = w.Write(f.Content)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			undo()
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
	}
	return nil
}

// mkdirs makes dir and its missing parents, recording those it made.
func mkdirs(dir string, made *[]string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := mkdirs(parent, made); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	*made = append(*made, dir)
	return nil
}

// Tidy runs go mod tidy in dir, which resolves a new module's
// dependencies into go.mod and go.sum (from the module proxy, or the
// module cache). Its error carries the go command's output.
func Tidy(dir string) error {
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = goEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("go mod tidy in %s: %s", dir, msg)
	}
	return nil
}
