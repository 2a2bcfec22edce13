package gen

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadMode is what the loader needs: the packages' syntax (for directives
// and docs) and types; dependencies come from export data.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedSyntax

// loadGo loads Go packages and reads their tools. Packages without tools
// are skipped, unless they have an output file from an earlier run (it is
// regenerated, empty, so that it never goes stale).
func (g *generator) loadGo(patterns []string) []*unit {
	cfg := &packages.Config{
		Mode:  loadMode,
		Dir:   g.cfg.Dir,
		Tests: false,
		Logf:  nil,
		Env:   g.cfg.env,
	}
	if len(g.cfg.Tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(g.cfg.Tags, ",")}
	}
	g.clock.lap(PhaseModel) // the tools.yaml files read before
	pkgs, err := packages.Load(cfg, patterns...)
	if overlay := staleClauses(pkgs); err == nil && overlay != nil {
		// A generated file of another package name (the user renamed the
		// package): loaded again as a bare clause of the user's name, so
		// that regenerating it fixes it, as it fixes any stale file.
		cfg.Overlay = overlay
		pkgs, err = packages.Load(cfg, patterns...)
	}
	g.clock.lap(PhaseLoad)
	if err != nil {
		g.errs.add(token.Position{}, "loading packages: %v", err)
		return nil
	}
	if len(pkgs) == 0 {
		g.errs.add(token.Position{}, "no packages match %s", strings.Join(patterns, " "))
		return nil
	}
	var units []*unit
	for _, pkg := range pkgs {
		if u := g.readPackage(pkg); u != nil {
			units = append(units, u)
		}
	}
	g.checkExamples()
	return units
}

// foundPackages is go list's error for a directory of two package names.
var foundPackages = regexp.MustCompile(`^found packages (\S+) \((\S+)\) and (\S+) \((\S+)\) in (.+)$`)

// staleClauses returns, for the packages whose directory go list found
// two package names in because one file is toolgen's, that file's
// contents as a bare package clause of the other name; nil when there
// are none.
func staleClauses(pkgs []*packages.Package) map[string][]byte {
	var overlay map[string][]byte
	for _, pkg := range pkgs {
		for _, e := range pkg.Errors {
			m := foundPackages.FindStringSubmatch(e.Msg)
			if e.Kind != packages.ListError || m == nil {
				continue
			}
			for _, side := range [][2]string{{m[2], m[3]}, {m[4], m[1]}} { // a file, the other name
				path := filepath.Join(m[5], side[0])
				if generatedByToolgen(path) && token.IsIdentifier(side[1]) {
					if overlay == nil {
						overlay = map[string][]byte{}
					}
					overlay[path] = []byte("package " + side[1] + "\n")
				}
			}
		}
	}
	return overlay
}

// loadErrors reports a package's errors, except those that regenerating
// fixes: anything in a file toolgen generated (it may be stale) and uses of
// the symbols it defines (they may not exist yet).
func (g *generator) loadErrors(pkg *packages.Package) bool {
	ok := true
	for _, e := range pkg.Errors {
		pos := parsePos(e.Pos)
		if pos.Filename != "" && generatedByToolgen(pos.Filename) {
			continue
		}
		if e.Kind == packages.TypeError && (e.Msg == "undefined: Tools" || e.Msg == "undefined: Prompts" || e.Msg == "undefined: NewClient" ||
			strings.HasSuffix(e.Msg, " has no field or method Tools)")) {
			// Uses of Tools, Prompts, (*T).Tools or NewClient before toolgen
			// wrote them.
			continue
		}
		if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
			// The compiler's report from go list -export: the same
			// problems come again as type errors, which are filtered above.
			continue
		}
		msg := e.Msg
		if e.Kind == packages.ListError && pos.Filename == "" {
			msg = fmt.Sprintf("package %s: %s", pkg.PkgPath, e.Msg)
		}
		g.errs.add(pos, "%s", msg)
		ok = false
	}
	return ok
}

// parsePos reads a go/packages error position: "file:line:col",
// "file:line" or "".
func parsePos(s string) token.Position {
	var p token.Position
	if s == "" || s == "-" {
		return p
	}
	parts := strings.Split(s, ":")
	nums := 0
	for i := len(parts) - 1; i > 0 && nums < 2; i-- {
		var n int
		if _, err := fmt.Sscanf(parts[i], "%d", &n); err != nil {
			break
		}
		nums++
	}
	p.Filename = strings.Join(parts[:len(parts)-nums], ":")
	if nums >= 1 {
		fmt.Sscanf(parts[len(parts)-nums], "%d", &p.Line)
	}
	if nums == 2 {
		fmt.Sscanf(parts[len(parts)-1], "%d", &p.Column)
	}
	return p
}

func (g *generator) readPackage(pkg *packages.Package) *unit {
	dir := pkg.Dir
	if dir == "" && len(pkg.GoFiles) > 0 {
		dir = filepath.Dir(pkg.GoFiles[0])
	}
	out := filepath.Join(dir, g.cfg.output())
	if yaml := yamlSource(out); yaml != "" {
		// Generated from a tools.yaml: regenerate from it, so that a
		// pattern such as ./... covers schema-first packages too (and
		// errors in Go code that uses a stale output do not stop it).
		if fn := firstDirective(pkg, "tool", "prompt"); fn != nil {
			g.errs.add(pkg.Fset.Position(fn.Pos()), "%s has //toolgen: functions, but %s is generated from %s: a package is either code-first or schema-first", pkg.PkgPath, filepath.Base(out), yaml)
			return nil
		}
		u := g.loadYAML(filepath.Join(dir, yaml))
		if u != nil && pkg.Types != nil {
			g.checkDeclared(u, ownDeclaration(pkg, out))
		}
		return u
	}
	if !g.loadErrors(pkg) || pkg.Types == nil {
		return nil
	}
	if g.docs == nil {
		g.docs = newDocIndex(pkg.Fset)
		g.env = newTypeEnv(pkg.Fset, g.docs, &g.errs)
	}
	var files []*ast.File
	for _, f := range pkg.Syntax {
		name := pkg.Fset.Position(f.Package).Filename
		if name == out || generatedByToolgen(name) {
			continue
		}
		g.docs.addFile(f)
		files = append(files, f)
	}
	declared := ownDeclaration(pkg, out)
	r := &pkgReader{
		g:   g,
		pkg: pkg,
		kit: g.toolkit(pkg, files),
		w: newExprWriter(pkg.Types, func(name string) bool {
			_, ok := declared(name)
			return ok
		}),
		u:           &unit{path: out, pkgName: pkg.Name, pkgPath: pkg.PkgPath, source: "package " + pkg.PkgPath},
		toolNames:   map[string]*tool{},
		promptNames: map[string]*prompt{},
		receivers:   map[*types.Named]*receiver{},
		defaults:    newDefaultSet(),
		resultSigs:  map[string]string{},
	}
	r.u.kit = r.kit
	g.env.structsRead() // this package's record starts empty
	g.env.pkg = pkg.Types
	for _, f := range files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				r.readFunc(fd)
			}
		}
	}
	r.readForms(files)
	u := r.u
	if len(u.tools) == 0 && len(u.prompts) == 0 && len(u.forms) == 0 {
		if _, err := os.Stat(out); err != nil {
			return nil
		}
	}
	u.nameDefaultFuncs()
	u.guards = append(r.structGuards(), r.funcGuards...)
	u.imports = r.w.imports
	g.checkDeclared(u, declared)
	return u
}

// ownDeclaration finds a package-level declaration of the package by name,
// leaving out the files toolgen wrote (they are about to be replaced).
func ownDeclaration(pkg *packages.Package, out string) func(name string) (token.Position, bool) {
	return func(name string) (token.Position, bool) {
		obj := pkg.Types.Scope().Lookup(name)
		if obj == nil {
			return token.Position{}, false
		}
		pos := pkg.Fset.Position(obj.Pos())
		if pos.Filename == out || generatedByToolgen(pos.Filename) {
			return token.Position{}, false
		}
		return pos, true
	}
}

// siblings is what the Go files beside a tools.yaml declare: those the
// default build context builds, test files and the files toolgen wrote
// left out, as ownDeclaration leaves them out for a package loaded by
// pattern. The files are parsed, not type-checked: until its file is
// generated again the package may not compile. A file that does not parse
// is skipped; the compiler reports it.
type siblings struct {
	pkg, pkgFile string // the package clause's name, and a file that has it
	names        map[string]token.Position
}

func readSiblings(dir, out string) *siblings {
	s := &siblings{names: map[string]token.Position{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return s
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || path == out || generatedByToolgen(path) {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		if s.pkg == "" {
			s.pkg, s.pkgFile = f.Name.Name, name
		}
		for _, id := range topLevelNames(f) {
			if _, ok := s.names[id.Name]; !ok {
				s.names[id.Name] = fset.Position(id.Pos())
			}
		}
	}
	return s
}

// lookup finds a declaration by name, for checkDeclared.
func (s *siblings) lookup(name string) (token.Position, bool) {
	pos, ok := s.names[name]
	return pos, ok
}

// topLevelNames are the identifiers f declares in its package's scope:
// its functions (not methods), types, variables and constants.
func topLevelNames(f *ast.File) []*ast.Ident {
	var ids []*ast.Ident
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				ids = append(ids, d.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					ids = append(ids, sp.Name)
				case *ast.ValueSpec:
					ids = append(ids, sp.Names...)
				}
			}
		}
	}
	return ids
}

type toolkit struct {
	name, version string
	// pos is where the version to raise for a removed tool is declared:
	// the //toolgen:toolkit directive, else the package clause (a
	// tools.yaml: its first line).
	pos token.Position
}

// toolkit reads //toolgen:toolkit from the package doc comments; the name
// defaults to the package name, capitalised.
func (g *generator) toolkit(pkg *packages.Package, files []*ast.File) toolkit {
	kit := toolkit{name: capitalise(pkg.Name)}
	if len(files) > 0 {
		kit.pos = pkg.Fset.Position(files[0].Package)
	}
	var at *directive
	for _, f := range files {
		for _, d := range directives(pkg.Fset, f.Doc, &g.errs) {
			if d.name != "toolkit" {
				misplaced(&g.errs, d, "a package", "package directive: toolkit")
				continue
			}
			if at != nil {
				g.errs.add(d.pos, "second //toolgen:toolkit in the package (first at %s)", g.errs.rel(at.pos))
				continue
			}
			at = d
			kit.pos = d.pos
			args, err := splitArgs(d.args)
			if err != nil {
				g.argError(d, err)
				continue
			}
			if len(args) == 0 || args[0].hasValue {
				g.errs.add(d.at(0), "//toolgen:toolkit needs a name: //toolgen:toolkit Name [version=V]")
				continue
			}
			kit.name = args[0].key
			for _, a := range args[1:] {
				if a.key != "version" || !a.hasValue {
					g.errs.add(d.at(a.off), "unknown //toolgen:toolkit argument %q (want version=V)", a.key)
					continue
				}
				kit.version = a.value
			}
		}
	}
	return kit
}

func (g *generator) argError(d *directive, err error) {
	if ae, ok := err.(*argError); ok {
		g.errs.add(d.at(ae.off), "//toolgen:%s: %s", d.name, ae.msg)
		return
	}
	g.errs.add(d.pos, "//toolgen:%s: %v", d.name, err)
}

// directiveArgs reads a directive's arguments: key=value ones into values,
// bare flags by calling flags[key]. want lists what the directive takes,
// for the error about an unknown argument. It returns the keys given (nil
// when the arguments do not even split) and whether all were good.
func (g *generator) directiveArgs(d *directive, values map[string]*string, flags map[string]func(), want string) (map[string]bool, bool) {
	args, err := splitArgs(d.args)
	if err != nil {
		g.argError(d, err)
		return nil, false
	}
	ok := true
	set := map[string]bool{}
	for _, a := range args {
		fail := func(format string, v ...any) {
			g.errs.add(d.at(a.off), "//toolgen:"+d.name+": "+format, v...)
			ok = false
		}
		if set[a.key] {
			fail("%s given twice", a.key)
			continue
		}
		set[a.key] = true
		if dst, valued := values[a.key]; valued {
			if !a.hasValue {
				fail("%s needs a value (%s=...)", a.key, a.key)
				continue
			}
			*dst = a.value
			continue
		}
		if a.hasValue && flags != nil {
			fail("%s is a flag and takes no value", a.key)
			continue
		}
		flag, known := flags[a.key]
		if !known || a.hasValue {
			fail("unknown argument %q (want %s)", a.key, want)
			continue
		}
		flag()
	}
	return set, ok
}

// generatedByToolgen reports whether a file starts with toolgen's header.
func generatedByToolgen(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(header)+3)
	n, _ := io.ReadFull(f, buf)
	return string(buf[:n]) == "// "+header
}

// yamlSource returns the tools.yaml a generated file was generated from
// (its "// Source:" header line), or "" when it is not one.
func yamlSource(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := io.ReadFull(f, buf)
	head := string(buf[:n])
	if !strings.HasPrefix(head, "// "+header+"\n// Source: ") {
		return ""
	}
	src, _, _ := strings.Cut(head[len("// "+header+"\n// Source: "):], "\n")
	if strings.HasSuffix(src, ".yaml") || strings.HasSuffix(src, ".yml") {
		return src
	}
	return ""
}

// firstDirective returns the first function declaration of pkg with one of
// the named toolgen directives.
func firstDirective(pkg *packages.Package, names ...string) *ast.FuncDecl {
	for _, f := range pkg.Syntax {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				for _, n := range names {
					if c.Text == directivePrefix+n || strings.HasPrefix(c.Text, directivePrefix+n+" ") {
						return fd
					}
				}
			}
		}
	}
	return nil
}
