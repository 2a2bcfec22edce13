package gen

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// Forms: the types a package's tools ask their users for with
// runtime.ElicitAs[T]. toolgen finds each call, builds T's schema by the
// rules of a tool's input (doc comments, tags, enums), checks that it is
// a form MCP can show (a flat object of strings, numbers, booleans and
// enums), and writes the schema, a decoder without reflection, and an
// init function that registers them (runtime.RegisterForm). T is a struct
// type declared in the package that asks for it, so that the form is
// written where the type is.

// elicitAs is the runtime's function whose type argument is a form.
const elicitAs = "ElicitAs"

// form is a type the package asks for with runtime.ElicitAs.
type form struct {
	name   string // T, as the package declares it
	schema json.RawMessage
	ident  string // the schema's constant
	// call carries the decoder: in is T, read its plan, decode its name
	// (shared with a tool whose input is T).
	call *call
	pos  token.Position // the first call that asks for it
}

// readForms finds the calls of runtime.ElicitAs in files, in the order
// they are written, and makes a form of each type they ask for. It runs
// after the tools are read, so that a tool whose input is the same type
// declares the decoder both use.
//
// A call is found in the syntax, not the type checker's record of
// instances (which the loader does not ask for: it would cost every
// generation): runtime.ElicitAs[T], by the name the file imports the
// runtime as, with T a name of the package's scope.
func (r *pkgReader) readForms(files []*ast.File) {
	seen := map[*types.Named]bool{}
	for _, f := range files {
		rt := importedAs(f, runtimePath)
		if rt == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			sel, ok := ix.X.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != elicitAs {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != rt {
				return true
			}
			pos := r.pkg.Fset.Position(ix.Index.Pos())
			named, ok := r.formType(ix.Index, pos)
			if ok && !seen[named] {
				seen[named] = true
				r.addForm(named, pos)
			}
			return true
		})
	}
}

// importedAs is the name f refers to the package path by, or "" when it
// does not import it by name.
func importedAs(f *ast.File, path string) string {
	for _, spec := range f.Imports {
		if strings.Trim(spec.Path.Value, "`\"") != path {
			continue
		}
		if spec.Name != nil {
			if spec.Name.Name == "_" || spec.Name.Name == "." {
				return ""
			}
			return spec.Name.Name
		}
		return path[strings.LastIndexByte(path, '/')+1:]
	}
	return ""
}

// formType is the type expression e names, when it can be a form: a
// struct type declared in the package, not generic.
func (r *pkgReader) formType(e ast.Expr, pos token.Position) (*types.Named, bool) {
	if id, ok := e.(*ast.Ident); ok {
		if tn, ok := r.pkg.Types.Scope().Lookup(id.Name).(*types.TypeName); ok {
			named, ok := types.Unalias(tn.Type()).(*types.Named)
			if ok && named.Obj().Pkg() == r.pkg.Types && named.TypeParams().Len() == 0 {
				if _, isStruct := named.Underlying().(*types.Struct); isStruct {
					return named, true
				}
			}
		}
	}
	r.g.errs.add(pos, "runtime.ElicitAs[%s]: a form's type is a struct type declared in package %s, which toolgen writes its form in", types.ExprString(e), r.pkg.Name)
	return nil, false
}

// addForm builds named's form.
func (r *pkgReader) addForm(named *types.Named, pos token.Position) {
	g := r.g
	name := named.Obj().Name()
	what := "runtime.ElicitAs[" + name + "]"
	in, fields, _, err := typeschema.ForInput(g.env.of(named), nil)
	var raw json.RawMessage
	if err == nil {
		raw, err = in.MarshalJSON()
	}
	if err != nil {
		g.schemaError(pos, what, err)
		return
	}
	ok := true
	for _, f := range fields {
		if msg := formProperty(f.Schema); msg != "" {
			at := pos
			if f.Pos != "" {
				at = parsePos(f.Pos)
			}
			g.errs.add(at, "%s: property %s %s", what, f.Name, msg)
			ok = false
		}
	}
	typ, written := r.w.expr(named)
	if !ok || !written {
		return
	}
	base := identPrefix + capitalise(name) + "Form"
	fm := &form{name: name, schema: compactJSON(raw), ident: base + "Schema", pos: pos, call: &call{in: typ}}
	if pl := planOf(r.w, named, false); pl != nil {
		fm.call.read = pl
		fm.call.decode, fm.call.declaresDecode = r.decoders.name(named, base+"Decode")
	}
	r.u.forms = append(r.u.forms, fm)
}

// formHolds is what a form may hold, as MCP's elicitation allows.
const formHolds = ": a form holds strings, numbers, integers, booleans, enums and lists of enum values"

// formProperty says what keeps a property's schema out of a form, or "".
func formProperty(s *typeschema.Schema) string {
	b, err := s.MarshalJSON()
	if err != nil {
		return "has no schema"
	}
	var p struct {
		Type       any             `json:"type"`
		Enum       []any           `json:"enum"`
		Format     string          `json:"format"`
		Items      json.RawMessage `json:"items"`
		Properties json.RawMessage `json:"properties"`
		Ref        string          `json:"$ref"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return "has no schema"
	}
	typ, _ := p.Type.(string)
	switch {
	case p.Ref != "" || p.Properties != nil || typ == "object":
		return "is an object" + formHolds
	case typ == "":
		return "has no single type" + formHolds
	case typ == "string" && p.Format != "" && !strings.Contains(" email uri date date-time ", " "+p.Format+" "):
		return fmt.Sprintf("has the format %q: a form's strings have none, or email, uri, date or date-time", p.Format)
	case typ == "string", typ == "number", typ == "integer", typ == "boolean":
		return ""
	case typ == "array":
		var items struct {
			Type string `json:"type"`
			Enum []any  `json:"enum"`
		}
		if json.Unmarshal(p.Items, &items) == nil && items.Type == "string" && len(items.Enum) > 0 {
			return ""
		}
		return "is a list whose items are not enum values" + formHolds
	}
	return "is " + typ + formHolds
}

// formDeclarations are the names the forms' pieces declare.
func (u *unit) formDeclarations(add func(what string, pos token.Position, names ...string)) {
	for _, fm := range u.forms {
		what := "the form runtime.ElicitAs[" + fm.name + "]"
		add(what, fm.pos, fm.ident)
		if fm.call.declaresDecode {
			add(what, fm.pos, fm.call.decode.name)
		}
	}
}

// emitForms writes the init function that registers the forms, and each
// form's schema and decoder.
func emitForms(f *jen.File, text *textPieces, u *unit) {
	if len(u.forms) == 0 {
		return
	}
	uses := []string{runtimePath, "encoding/json"}
	for _, fm := range u.forms {
		uses = typePaths(fm.call.in, uses)
	}
	f.Line()
	f.Add(text.add(func(q qualifiers) string { return formsInitText(q, u.forms) }, uses...))
	for _, fm := range u.forms {
		emitSchema(f, text, fm.ident, "the JSON Schema of the form runtime.ElicitAs["+fm.name+"] asks with", fm.schema)
		if fm.call.declaresDecode {
			f.Line()
			c := fm.call
			f.Add(text.add(func(q qualifiers) string {
				return decoderDoc(q, c, func(name, v string) string {
					return name + " reads an answer to the form runtime.ElicitAs[" + fm.name + "] into " + v + " without reflection when it is plain JSON; false, " + v + " as it was, leaves it to encoding/json."
				})
			}, planPaths(c.read, []string{jsonreadPath})...))
		}
	}
}

// formsInitText is the init function that registers the forms.
func formsInitText(q qualifiers, forms []*form) string {
	var b strings.Builder
	b.WriteString("// init registers the forms the package's tools ask their users for with\n// runtime.ElicitAs.\n")
	b.WriteString("func init() {\n")
	for _, fm := range forms {
		t := typeText(q, fm.call.in)
		b.WriteString("\t" + q.qual(runtimePath, "RegisterForm") + "(" + q.qual(runtimePath, "Form") + "[" + t + "]{Schema: " + q.qual("encoding/json", "RawMessage") + "(" + fm.ident + ")")
		if fm.call.decode != nil {
			b.WriteString(", Decode: " + fm.call.decode.name)
		}
		b.WriteString("})\n")
	}
	b.WriteString("}\n")
	return b.String()
}
