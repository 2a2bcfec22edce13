// Package gen is toolgen's generator. It reads tools from annotated Go
// functions (loaded with golang.org/x/tools/go/packages) or from tools.yaml
// files into one model, and writes each package's tools_gen.go with
// github.com/dave/jennifer.
//
// The data flows one way: input → model → output. [Generate] does all of it
// and writes nothing; the caller (cmd/toolgen) decides what to do with the
// files, so that nothing is written when anything failed.
//
//   - Load: load.go and funcs.go read Go packages (directives, one signature
//     checker in signature.go, schemas through internal/typeschema over
//     gotypes.go, Go types rendered as data by typeexpr.go); yaml.go reads
//     a tools.yaml (internal/toolsyaml).
//   - Model: model.go. Both loaders give a unit of plain values;
//     defaults.go builds the part that applies defaults, from either.
//   - Emit: emit.go (the file, Tools and (*T).Tools, Prompts, schemas,
//     guards), emit_code.go (types, Handlers) and
//     emit_defaults.go (the code that applies defaults); emit_text.go
//     writes the schema constants and the Tools bodies, emit_handler.go
//     the handlers, as gofmt-ready text: most of a large file's bytes.
//   - Format: formatFile (emit.go) runs gofmt on the rendered file and
//     groups its imports; the text pieces then go in where render left
//     their placeholders.
//
// Beside the Go files:
//
//   - openapi.go: with Config.OpenAPI, Generate also returns the OpenAPI
//     3.1 document of the tools (toolgen -openapi), built from the model
//     by internal/openapi, which the runtime's GET /openapi.json uses too.
//   - client.go: with Config.Client, Generate also returns each unit's
//     typed client, tools_client_gen.go (toolgen -client), from the same
//     model.
//   - init.go: [Init] renders a new server module from the templates
//     package (toolgen init), generating its tools_gen.go in a scratch
//     module; [WriteNew] writes files that must not exist yet; [Tidy]
//     runs go mod tidy.
//
// Warnings (a tool or an argument without a description) go to
// Config.Warn, or with Config.Strict are errors.
//
// gen does not import the runtime that generated code calls: rules both
// sides share live in leaf packages (internal/toolname, internal/typeschema).
//
// Users' guides: https://github.com/toolgen-go/toolgen/blob/main/docs/code-first.md (the
// directives and type rules this package implements) and
// https://github.com/toolgen-go/toolgen/blob/main/docs/tools-yaml.md; working on the generator
// (golden files, go test ./gen -update): https://github.com/toolgen-go/toolgen/blob/main/CONTRIBUTING.md.
package gen

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultOutput is the generated file's name.
const DefaultOutput = "tools_gen.go"

// Config says what to generate.
type Config struct {
	// Dir is the directory patterns are resolved in and error positions are
	// shown relative to. Empty means the current directory.
	Dir string
	// Tags are build tags, as for go build -tags.
	Tags []string
	// Output is the generated file's name in each package directory, or a
	// path when there is one input. Empty means [DefaultOutput].
	Output string
	// Warn, when set, receives the warnings (a tool or an argument without
	// a description), in file order, each once.
	Warn func(*Error)
	// Strict makes warnings errors.
	Strict bool
	// Lint names the model providers' profiles (LintProfiles: "claude",
	// "openai", "gemini") whose rules every tool's input schema is checked
	// against, each finding a warning (see lint.go).
	Lint []string

	// Timed, when set, is told how long each phase of Generate took:
	// PhaseLoad, PhaseModel, PhaseEmit and PhaseFormat, in that order,
	// once each, when Generate returns (toolgen -v prints them).
	Timed func(phase string, d time.Duration)

	// Client adds, beside each generated file, its typed client:
	// [DefaultClientOutput], with NewClient(runtime.Caller) and one method
	// a tool (toolgen -client).
	Client bool

	// OpenAPI, when set, adds to the files the OpenAPI 3.1 document of
	// all the tools generated, as a server of them answers it at
	// GET /openapi.json.
	OpenAPI *OpenAPIConfig

	// Lock adds, beside each generated file, its tools.lock: the contract
	// of its tools (see lock.go). A lock already there is kept current
	// without it.
	Lock bool

	// env is the go command's environment (nil: the process's).
	env []string
}

func (c *Config) output() string {
	if c.Output == "" {
		return DefaultOutput
	}
	return filepath.Base(c.Output)
}

// File is a generated file.
type File struct {
	Path    string // where it goes
	Content []byte
	// Contract is the contract of a generated tools file's tools (nil
	// for the other files).
	Contract *Contract
}

// Stale reports whether the file on disk differs from f (or is missing).
func (f *File) Stale() bool {
	old, err := os.ReadFile(f.Path)
	return err != nil || !bytes.Equal(old, f.Content)
}

type generator struct {
	cfg   Config
	errs  errs
	warns errs
	docs  *docIndex
	env   *typeEnv
	// examples checks the examples against their tools' input schemas
	// while the tools are read.
	examples exampleChecker
	// defaultChecks are the answers of checkDefault, by field schema.
	defaultChecks map[string]error
	clock         *phaseClock
}

// warn records a warning.
func (g *generator) warn(pos token.Position, format string, args ...any) {
	g.warns.add(pos, format, args...)
}

// reportWarnings hands the warnings to cfg.Warn, or with cfg.Strict makes
// them errors.
func (g *generator) reportWarnings() {
	if g.warns.err() == nil {
		return
	}
	for _, w := range g.warns.list {
		if g.cfg.Strict {
			g.errs.list = append(g.errs.list, w)
			continue
		}
		w.Warning = true
		if g.cfg.Warn != nil {
			g.cfg.Warn(w)
		}
	}
	g.warns.list = nil
}

// The phases of [Generate], as Config.Timed names them, in order.
const (
	PhaseLoad   = "load"   // loading Go packages (go/packages)
	PhaseModel  = "model"  // reading them and tools.yaml files into the model, with every check
	PhaseEmit   = "emit"   // rendering the files' Go (jennifer and text pieces), and the OpenAPI document
	PhaseFormat = "format" // gofmt of the rendered Go, and the text pieces put in
)

// Generate reads the inputs, Go package patterns or tools.yaml files
// (default "."), and returns the files to write. On any error it returns
// an [ErrorList] and no files.
func Generate(cfg Config, args []string) ([]*File, error) {
	g, err := newGenerator(cfg)
	if err != nil {
		return nil, err
	}
	defer g.reportTimes()
	units := g.read(args)
	if err := g.errs.err(); err != nil {
		return nil, err
	}
	files := g.emitAll(units)
	if err := g.errs.err(); err != nil {
		return nil, err
	}
	return files, nil
}

// newGenerator starts a generator for cfg, in cfg.Dir made absolute (the
// working directory when empty).
func newGenerator(cfg Config) (*generator, error) {
	if cfg.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		cfg.Dir = wd
	}
	if abs, err := filepath.Abs(cfg.Dir); err == nil {
		cfg.Dir = abs
	}
	return &generator{cfg: cfg, errs: errs{base: cfg.Dir}, warns: errs{base: cfg.Dir}, clock: newPhaseClock()}, nil
}

// read reads the inputs into units, one a file to generate, each with the
// path it is generated to.
func (g *generator) read(args []string) []*unit {
	if len(args) == 0 {
		args = []string{"."}
	}
	var patterns, yamls []string
	for _, a := range args {
		if strings.HasSuffix(a, ".yaml") || strings.HasSuffix(a, ".yml") {
			yamls = append(yamls, a)
		} else {
			patterns = append(patterns, a)
		}
	}
	var units []*unit
	for _, y := range yamls {
		if u := g.loadYAML(y); u != nil {
			sib := readSiblings(filepath.Dir(u.path), u.path)
			if sib.pkg != "" && sib.pkg != u.pkgName {
				// Written, the file would break the package's build
				// ("found packages a and b").
				g.errs.add(u.pkgPos, "the generated file's package is %s, but %s beside it is package %s: set package: %s", u.pkgName, sib.pkgFile, sib.pkg, sib.pkg)
				continue
			}
			g.checkDeclared(u, sib.lookup)
			units = append(units, u)
		}
	}
	if len(patterns) > 0 {
		units = append(units, g.loadGo(patterns)...)
	}
	g.lint(units)
	g.reportWarnings()
	g.clock.lap(PhaseModel)
	if g.errs.err() != nil {
		return nil
	}
	if out := g.cfg.Output; out != "" && filepath.Base(out) != out {
		if len(units) > 1 {
			g.errs.add(tokenPosition(""), "-o %s is a path, but %d files are generated: give a file name", out, len(units))
			return nil
		}
		for _, u := range units {
			u.path = out
			if !filepath.IsAbs(u.path) {
				u.path = filepath.Join(g.cfg.Dir, u.path)
			}
		}
	}
	return units
}

// emitAll emits the units' files, and the OpenAPI document when asked.
func (g *generator) emitAll(units []*unit) []*File {
	seen := map[string]string{}
	var files []*File
	for _, u := range units {
		if other, dup := seen[u.path]; dup {
			g.errs.add(tokenPosition(""), "%s and %s would both be generated into %s", other, u.source, u.path)
			continue
		}
		seen[u.path] = u.source
		src, text, err := render(u)
		g.clock.lap(PhaseEmit)
		var content []byte
		if err == nil {
			content, err = formatFile(src)
		}
		if err == nil {
			content, err = text.fill(content)
			g.clock.lap(PhaseFormat)
		}
		if err != nil {
			g.errs.add(tokenPosition(u.path), "generating %s: %v", u.path, err)
			continue
		}
		files = append(files, &File{Path: u.path, Content: content})
		g.contract(u, files[len(files)-1], &files)
		if g.cfg.Client {
			g.emitClient(u, seen, &files)
		}
	}
	if g.cfg.OpenAPI != nil {
		if f := g.openAPIFile(units, g.cfg.OpenAPI); f != nil {
			if src, dup := seen[f.Path]; dup {
				g.errs.add(tokenPosition(""), "-openapi %s is where %s is generated", g.cfg.OpenAPI.Path, src)
			}
			files = append(files, f)
		}
		g.clock.lap(PhaseEmit)
	}
	return files
}

// phaseClock adds up the time spent in each phase of Generate.
type phaseClock struct {
	last  time.Time
	spent map[string]time.Duration
}

func newPhaseClock() *phaseClock {
	return &phaseClock{last: time.Now(), spent: map[string]time.Duration{}}
}

// lap counts the time since the last lap as phase's.
func (c *phaseClock) lap(phase string) {
	now := time.Now()
	c.spent[phase] += now.Sub(c.last)
	c.last = now
}

// reportTimes tells Config.Timed how long each phase took, every phase in
// order (zero for a phase not reached), so that what it prints has one
// shape every time.
func (g *generator) reportTimes() {
	if g.cfg.Timed == nil {
		return
	}
	for _, phase := range []string{PhaseLoad, PhaseModel, PhaseEmit, PhaseFormat} {
		g.cfg.Timed(phase, g.clock.spent[phase])
	}
}
