package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen-go/toolgen/internal/typeschema"
	"github.com/toolgen-go/toolgen/runtime"
)

const runtimePath = "github.com/toolgen-go/toolgen/runtime"

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
	}
	if len(g.cfg.Tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(g.cfg.Tags, ",")}
	}
	pkgs, err := packages.Load(cfg, patterns...)
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

// loadErrors reports a package's errors, except those that regenerating
// fixes: anything in a file toolgen generated (it may be stale) and uses of
// the symbols it defines (it may not exist yet).
func (g *generator) loadErrors(pkg *packages.Package) bool {
	ok := true
	for _, e := range pkg.Errors {
		pos := parsePos(e.Pos)
		if pos.Filename != "" && generatedByToolgen(pos.Filename) {
			continue
		}
		if e.Kind == packages.TypeError && (e.Msg == "undefined: Tools" || e.Msg == "undefined: Prompts") {
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
		return g.loadYAML(filepath.Join(dir, yaml))
	}
	if !g.loadErrors(pkg) || pkg.Types == nil {
		return nil
	}
	u := &unit{path: out, pkgName: pkg.Name, pkgPath: pkg.PkgPath, source: "package " + pkg.PkgPath}
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

	kit := g.toolkit(pkg, files)
	seen := map[string]*tool{}
	seenPrompts := map[string]*prompt{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			ds := directives(pkg.Fset, fd.Doc, &g.errs)
			if p := g.funcPrompt(pkg, fd, ds); p != nil {
				if prev, dup := seenPrompts[p.name]; dup {
					g.errs.add(p.pos, "duplicate prompt name %q (also at %s)", p.name, g.errs.rel(prev.pos))
				} else {
					seenPrompts[p.name] = p
					u.prompts = append(u.prompts, p)
				}
			}
			t := g.funcTool(pkg, fd, kit, ds)
			if t == nil {
				continue
			}
			if prev, dup := seen[t.name]; dup {
				g.errs.add(t.pos, "duplicate tool name %q (also at %s)", t.name, g.errs.rel(prev.pos))
				continue
			}
			seen[t.name] = t
			u.tools = append(u.tools, t)
		}
	}
	if len(u.tools) == 0 && len(u.prompts) == 0 {
		if _, err := os.Stat(out); err != nil {
			return nil
		}
	}
	return u
}

type toolkit struct {
	name, version string
}

// toolkit reads //toolgen:toolkit from the package doc comments; the name
// defaults to the package name, capitalised.
func (g *generator) toolkit(pkg *packages.Package, files []*ast.File) toolkit {
	kit := toolkit{name: capitalise(pkg.Name)}
	var at *directive
	for _, f := range files {
		for _, d := range directives(pkg.Fset, f.Doc, &g.errs) {
			if d.name != "toolkit" {
				g.errs.add(d.pos, "//toolgen:%s does not apply to a package (package directive: toolkit)", d.name)
				continue
			}
			if at != nil {
				g.errs.add(d.pos, "second //toolgen:toolkit in the package (first at %s)", g.errs.rel(at.pos))
				continue
			}
			at = d
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

// funcTool reads one function's tool directive (ds are its directives), or
// returns nil when it has none.
func (g *generator) funcTool(pkg *packages.Package, fd *ast.FuncDecl, kit toolkit, ds []*directive) *tool {
	var td *directive
	var examples []*directive
	for _, d := range ds {
		switch d.name {
		case "tool":
			if td != nil {
				g.errs.add(d.pos, "second //toolgen:tool on %s", fd.Name.Name)
				continue
			}
			td = d
		case "example":
			examples = append(examples, d)
		case "prompt":
			// Prompts are read by the prompt loader.
		default:
			g.errs.add(d.pos, "//toolgen:%s does not apply to a function (function directives: tool, example, prompt)", d.name)
		}
	}
	if td == nil {
		for _, d := range examples {
			g.errs.add(d.pos, "//toolgen:example without //toolgen:tool on %s", fd.Name.Name)
		}
		return nil
	}
	pos := pkg.Fset.Position(fd.Name.Pos())
	t := &tool{pos: pos, toolkit: kit.name, version: kit.version}
	if fd.Recv != nil {
		g.errs.add(pos, "//toolgen:tool on method %s: tools are top-level functions", fd.Name.Name)
		return nil
	}
	if fd.Type.TypeParams != nil {
		g.errs.add(pos, "//toolgen:tool on generic function %s: a tool's types must be known", fd.Name.Name)
		return nil
	}
	if !g.toolDirective(t, td, fd.Name.Name) {
		return nil
	}
	if t.description == "" {
		t.description = funcDescription(docText(fd.Doc), fd.Name.Name)
	}

	fn, ok := pkg.Types.Scope().Lookup(fd.Name.Name).(*types.Func)
	if !ok {
		return nil
	}
	call, ok := g.signature(fn, pos)
	if !ok {
		return nil
	}
	t.fn = call

	var in *typeschema.Schema
	var err error
	if call.input != nil {
		in, err = typeschema.ForType(g.env.of(call.input))
	} else {
		params := make([]typeschema.Param, len(call.params))
		for i, p := range call.params {
			params[i] = typeschema.Param{Name: p.Name(), Type: g.env.of(p.Type()), Pos: g.env.position(p.Pos())}
		}
		in, err = typeschema.ForParams(params)
	}
	if err != nil {
		g.schemaError(pos, fd.Name.Name, err)
		return nil
	}
	if t.input, err = in.MarshalJSON(); err != nil {
		g.errs.add(pos, "%s: %v", fd.Name.Name, err)
		return nil
	}
	hint := ""
	switch call.result {
	case resultStructured:
		out, err := typeschema.ForOutput(g.env.of(call.resType))
		if err != nil {
			g.schemaError(pos, fd.Name.Name+" result", err)
			return nil
		}
		if t.output, err = out.MarshalJSON(); err != nil {
			g.errs.add(pos, "%s: %v", fd.Name.Name, err)
			return nil
		}
	case resultText:
		hint = "string"
	case resultContent, resultContents, resultResult:
		hint = "content"
	}
	for _, d := range examples {
		raw := []byte(d.args)
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			g.errs.add(d.at(0), "//toolgen:example needs a JSON object of arguments: %s", jsonProblem(raw, err))
			continue
		}
		ex := compactJSON(raw)
		t.examples = append(t.examples, ex)
		g.exampleChecks = append(g.exampleChecks, exampleCheck{tool: t.name, schema: t.input, example: ex, pos: d.at(0)})
	}
	t.signature = typeschema.Signature(t.name, t.input, t.output, hint)
	return t
}

func jsonProblem(raw []byte, err error) string {
	var v any
	if jerr := json.Unmarshal(raw, &v); jerr != nil {
		return jerr.Error()
	}
	switch v.(type) {
	case []any:
		return "got an array"
	case nil:
		return "got null"
	case string, float64, bool:
		return "got " + string(bytes.TrimSpace(raw))
	}
	return err.Error()
}

// schemaError reports an error of the schema rules at the culprit's
// position when it has one, else at the function.
func (g *generator) schemaError(pos token.Position, what string, err error) {
	if se, ok := err.(*typeschema.Error); ok {
		msg := se.Msg
		if se.Path != "" {
			msg = se.Path + ": " + msg
		}
		if se.Pos != "" {
			g.errs.list = append(g.errs.list, &Error{Pos: parsePos(se.Pos), Msg: msg})
			return
		}
		g.errs.add(pos, "%s: %s", what, msg)
		return
	}
	g.errs.add(pos, "%s: %v", what, err)
}

// toolDirective reads //toolgen:tool's arguments into t.
func (g *generator) toolDirective(t *tool, d *directive, funcName string) bool {
	t.name = snakeCase(funcName)
	yes, no := true, false
	hints := map[string]func(){
		"readonly":    func() { t.annotations.readOnly = &yes },
		"destructive": func() { t.annotations.destructive = &yes },
		"idempotent":  func() { t.annotations.idempotent = &yes },
		"openworld":   func() { t.annotations.openWorld = &yes },
		"closedworld": func() { t.annotations.openWorld = &no },
	}
	set, ok := g.directiveArgs(d,
		map[string]*string{"name": &t.name, "title": &t.title, "description": &t.description, "version": &t.version}, hints,
		"name=, title=, description=, version=, readonly, destructive, idempotent, openworld, closedworld")
	if set == nil {
		return false
	}
	if set["openworld"] && set["closedworld"] {
		g.errs.add(d.pos, "//toolgen:tool: openworld and closedworld contradict each other")
		ok = false
	}
	if set["readonly"] && set["destructive"] {
		g.errs.add(d.pos, "//toolgen:tool: readonly and destructive contradict each other")
		ok = false
	}
	if !runtime.ValidToolName(t.name) {
		g.errs.add(d.pos, "//toolgen:tool: invalid tool name %q: use 1 to 128 letters, digits, '_', '-' or '.'", t.name)
		ok = false
	}
	return ok
}

// signature checks a tool function's signature and says how to call it.
func (g *generator) signature(fn *types.Func, pos token.Position) (*funcCall, bool) {
	sig := fn.Type().(*types.Signature)
	c := &funcCall{name: fn.Name()}
	bad := func(format string, args ...any) (*funcCall, bool) {
		g.errs.add(pos, "%s: "+format, append([]any{fn.Name()}, args...)...)
		return nil, false
	}
	if sig.Variadic() {
		return bad("variadic functions cannot be tools")
	}
	params := sig.Params()
	start := 0
	if params.Len() > 0 && isNamed(params.At(0).Type(), "context", "Context") {
		c.ctx = true
		start = 1
	}
	var rest []*types.Var
	for i := start; i < params.Len(); i++ {
		rest = append(rest, params.At(i))
	}
	if len(rest) == 1 && isStructInput(rest[0].Type()) {
		t := types.Unalias(rest[0].Type())
		if p, ok := t.(*types.Pointer); ok {
			c.inPtr = true
			t = types.Unalias(p.Elem())
		}
		c.input = t
	} else {
		for _, p := range rest {
			if p.Name() == "" || p.Name() == "_" {
				return bad("parameter %d (%s) has no name: a flat-parameter tool names each argument after its parameter", indexOf(params, p)+1, typeString(p.Type()))
			}
			if isNamed(p.Type(), "context", "Context") {
				return bad("context.Context must be the first parameter")
			}
		}
		c.params = rest
	}

	res := sig.Results()
	errType := types.Universe.Lookup("error").Type()
	switch res.Len() {
	case 0:
	case 1:
		if types.Identical(res.At(0).Type(), errType) {
			c.err = true
		} else {
			c.resType = res.At(0).Type()
		}
	case 2:
		if !types.Identical(res.At(1).Type(), errType) {
			return bad("the second result must be error, not %s", typeString(res.At(1).Type()))
		}
		c.resType, c.err = res.At(0).Type(), true
	default:
		return bad("a tool returns (R, error), R, error or nothing; this one returns %d results", res.Len())
	}
	if c.resType != nil {
		c.result = classify(c.resType)
		if c.result == resultNone {
			return bad("return *runtime.Result, not runtime.Result")
		}
		if isNamed(c.resType, "context", "Context") || types.Identical(c.resType, errType) {
			return bad("cannot return %s as a result", typeString(c.resType))
		}
	}
	return c, true
}

func indexOf(t *types.Tuple, v *types.Var) int {
	for i := range t.Len() {
		if t.At(i) == v {
			return i
		}
	}
	return -1
}

// isStructInput reports whether a lone parameter is the struct form's input:
// a struct type or a pointer to one (time.Time, a struct that is a JSON
// string, excepted).
func isStructInput(t types.Type) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	_, isStruct := t.Underlying().(*types.Struct)
	return isStruct && !isNamed(t, "time", "Time")
}

// classify says how a result type becomes a tool result; resultNone means
// it cannot.
func classify(t types.Type) resultKind {
	t = types.Unalias(t)
	switch {
	case isNamed(t, runtimePath, "Content"):
		return resultContent
	case isNamed(t, runtimePath, "Result"):
		return resultNone
	}
	if p, ok := t.(*types.Pointer); ok && isNamed(p.Elem(), runtimePath, "Result") {
		return resultResult
	}
	if s, ok := t.(*types.Slice); ok && isNamed(s.Elem(), runtimePath, "Content") {
		return resultContents
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.String {
		return resultText
	}
	return resultStructured
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func compactJSON(raw []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
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
