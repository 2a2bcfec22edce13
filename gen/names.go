package gen

import (
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// snakeCase turns a Go name into a tool name: GetWeather → get_weather,
// HTTPServer → http_server, ParseV2Data → parse_v2_data.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			nextLower := i > 0 && i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1])
			if prevLower || nextLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// funcDescription is a function's doc comment as a tool description: when
// it starts with the function's name ("GetWeather fetches ..."), the name is
// dropped and the next word capitalised ("Fetches ...").
func funcDescription(doc, name string) string {
	rest, ok := strings.CutPrefix(doc, name+" ")
	if !ok {
		return doc
	}
	rest = strings.TrimLeft(rest, " ")
	r, size := utf8.DecodeRuneInString(rest)
	if r == utf8.RuneError {
		return doc
	}
	return string(unicode.ToUpper(r)) + rest[size:]
}

// capitalise upper-cases the first letter.
func capitalise(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// The generated file's own pieces (schema constants, handler functions) are
// named after their tool's or prompt's Go name with this prefix, so that
// they read as what they are and do not collide with the package's own
// identifiers in practice; a collision that still happens is an error at
// load time (checkDeclared).
const identPrefix = "toolgen"

// toolIdents names a tool's pieces: base is its function's name
// capitalised, or its Go name in a tools.yaml.
func toolIdents(base string, output bool) idents {
	p := identPrefix + base
	ids := idents{input: p + "InputSchema", handler: p + "Handler", decode: p + "Decode", encode: p + "Encode"}
	if output {
		ids.output = p + "OutputSchema"
	}
	return ids
}

func promptIdents(base string) idents {
	return idents{handler: identPrefix + base + "PromptHandler"}
}

// declaration is a package-level name a generated file declares, and what
// for.
type declaration struct {
	name, what string
	pos        token.Position // of what it is for
	file       string         // the file that declares it, when not the unit's
}

// declarations lists every package-level name the unit's file declares.
func (u *unit) declarations() []declaration {
	var out []declaration
	add := func(what string, pos token.Position, names ...string) {
		for _, n := range names {
			if n != "" {
				out = append(out, declaration{name: n, what: what, pos: pos})
			}
		}
	}
	if u.funcTools() {
		add("the tools' list", token.Position{}, "Tools")
	}
	if len(u.prompts) > 0 {
		add("the prompts' list", token.Position{}, "Prompts")
	}
	if u.handlers {
		add("the tools' interface", token.Position{}, "Handlers", "UnimplementedHandlers")
		if len(u.tools) > 0 {
			add("the tools' handlers", token.Position{}, bindIdent, notImplementedIdent)
		}
	}
	for _, d := range u.decls {
		add("a schema's type", token.Position{}, d.name)
		for _, c := range d.consts {
			add("an enum value", token.Position{}, c.name)
		}
	}
	for _, t := range u.tools {
		add("tool "+strconv.Quote(t.name), t.pos, t.idents.input, t.idents.output, t.idents.handler)
		if t.call.declaresDecode {
			add("tool "+strconv.Quote(t.name), t.pos, t.idents.decode)
		}
		if t.call.declaresEncode {
			add("tool "+strconv.Quote(t.name), t.pos, t.idents.encode)
		}
	}
	for _, p := range u.prompts {
		add("prompt "+strconv.Quote(p.name), p.pos, p.idents.handler)
	}
	for _, o := range u.defaultFuncs {
		add("the defaults of "+o.name, token.Position{}, o.fn)
	}
	u.formDeclarations(add)
	for _, r := range append([]*receiver{nil}, u.receivers...) {
		var tools []*tool
		for _, t := range u.tools {
			if t.recv == r {
				tools = append(tools, t)
			}
		}
		if c := newToolsChunks(u, r, tools); c != nil {
			add("the tools' list", token.Position{}, c.names()...)
		}
	}
	return out
}

// checkDeclared reports the names the unit's file would declare twice: for
// two of its pieces, or where the package (lookup) declares one itself.
func (g *generator) checkDeclared(u *unit, lookup func(name string) (token.Position, bool)) {
	seen := map[string]declaration{}
	clashed := map[[2]string]bool{} // reported once a pair
	decls := u.declarations()
	if g.cfg.Client {
		decls = append(decls, clientDeclarations()...)
	}
	for _, d := range decls {
		if prev, dup := seen[d.name]; dup {
			if pair := [2]string{prev.what, d.what}; !clashed[pair] {
				clashed[pair] = true
				g.errs.add(d.pos, "%s and %s (at %s) would both declare %s in the generated file: rename one", d.what, prev.what, g.errs.rel(prev.pos), d.name)
			}
			continue
		}
		seen[d.name] = d
		if pos, ok := lookup(d.name); ok {
			file := d.file
			if file == "" {
				file = filepath.Base(u.path)
			}
			g.errs.add(pos, "%s is declared here and by toolgen in %s, for %s: rename this one", d.name, file, d.what)
		}
	}
	aliasFixedImports(u, lookup)
}

// fixedImports are the packages a generated file may import whatever its
// types are, by their names: the packages of the types record theirs as
// they are used (exprWriter.use).
var fixedImports = []struct{ path, name string }{
	{runtimePath, "runtime"}, {"context", "context"}, {"encoding/json", "json"}, {"errors", "errors"},
	{jsonreadPath, "jsonread"}, {jsonwritePath, "jsonwrite"},
}

// aliasFixedImports gives each fixed import whose name the package
// declares itself (a var json = jsoniter.Config..., a func errors) an
// alias, name+"pkg", as exprWriter.use does for the packages of its
// types: the file would not compile with both.
func aliasFixedImports(u *unit, lookup func(name string) (token.Position, bool)) {
	taken := func(name string) bool {
		if _, ok := lookup(name); ok {
			return true
		}
		for _, in := range u.imports {
			if in.alias && in.name == name {
				return true
			}
		}
		return false
	}
	for _, fi := range fixedImports {
		if _, ok := lookup(fi.name); !ok || u.imports[fi.path].alias {
			continue // free, or named already by exprWriter.use
		}
		name := fi.name + "pkg"
		for taken(name) {
			name += "pkg"
		}
		if u.imports == nil {
			u.imports = map[string]importName{}
		}
		u.imports[fi.path] = importName{name: name, alias: true}
	}
}
