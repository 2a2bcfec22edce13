package gen

import (
	"errors"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/internal/toolsyaml"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// yamlUnit is what a tools.yaml adds to a unit: the Go types of its
// schemas and, per tool, its Go method name and argument and result types.
type yamlUnit struct {
	types *toolsyaml.Types
	tools []*toolsyaml.Tool
}

func tokenPosition(file string) token.Position { return token.Position{Filename: file} }

// loadYAML reads a schema-first tools.yaml into a unit. Parsing is strict
// and every schema is compiled (internal/toolsyaml); errors carry the
// file's line and column.
func (g *generator) loadYAML(path string) *unit {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(g.cfg.Dir, path)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		g.errs.add(tokenPosition(path), "%v", err)
		return nil
	}
	f, err := toolsyaml.Parse(abs, data)
	if err != nil {
		g.yamlErrors(err)
		return nil
	}
	ts, err := toolsyaml.GoTypes(f)
	if err != nil {
		g.yamlErrors(err)
		return nil
	}
	dir := filepath.Dir(abs)
	u := &unit{
		path:    filepath.Join(dir, g.cfg.output()),
		pkgName: f.Package,
		// The file's name, not its path: the output must not depend on
		// the directory toolgen runs in (-check compares bytes).
		source: filepath.Base(abs),
		yaml:   &yamlUnit{types: ts, tools: f.Tools},
	}
	for _, yt := range f.Tools {
		t := &tool{
			name:        yt.Name,
			title:       yt.Title,
			description: yt.Description,
			version:     yt.Version,
			toolkit:     yt.Toolkit,
			input:       yt.Input.JSON,
			examples:    yt.Examples,
			pos:         token.Position{Filename: abs, Line: yt.Pos.Line, Column: yt.Pos.Col},
		}
		if a := yt.Annotations; a != nil {
			t.annotations = annotations{readOnly: a.ReadOnlyHint, destructive: a.DestructiveHint, idempotent: a.IdempotentHint, openWorld: a.OpenWorldHint}
		}
		hint := "content"
		if yt.Output != nil {
			t.output = yt.Output.JSON
			hint = ""
		}
		t.signature = typeschema.Signature(t.name, t.input, t.output, hint)
		u.tools = append(u.tools, t)
	}
	for _, yp := range f.Prompts {
		p := &prompt{name: yp.Name, title: yp.Title, description: yp.Description, template: yp.Template,
			pos: token.Position{Filename: abs, Line: yp.Pos.Line, Column: yp.Pos.Col}}
		for _, a := range yp.Arguments {
			p.args = append(p.args, promptArg{name: a.Name, description: a.Description, required: a.Required})
		}
		u.prompts = append(u.prompts, p)
	}
	return u
}

func (g *generator) yamlErrors(err error) {
	var list toolsyaml.ErrorList
	if !errors.As(err, &list) {
		g.errs.add(token.Position{}, "%v", err)
		return
	}
	for _, e := range list {
		g.errs.add(token.Position{Filename: e.File, Line: e.Pos.Line, Column: e.Pos.Col}, "%s", e.Msg)
	}
}

// emitYAML writes a schema-first package: the Go types of the schemas, the
// Handlers interface to implement, UnimplementedHandlers to embed, and
// Tools(h).
func emitYAML(f *jen.File, u *unit) {
	y := u.yaml
	for _, d := range y.types.Decls {
		emitDecl(f, d)
	}

	f.Comment("Handlers implements the tools of " + u.source + ", one method each. Embed")
	f.Comment("UnimplementedHandlers so that a tool added to the file later does not")
	f.Comment("break the build: it answers that the tool is not implemented until a")
	f.Comment("method of your own replaces it.")
	methods := make([]jen.Code, 0, len(y.tools))
	for i, yt := range y.tools {
		if i > 0 {
			methods = append(methods, jen.Line())
		}
		methods = append(methods, commentLines(methodDoc(yt))...)
		methods = append(methods, jen.Id(yt.GoName).Params(
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("in").Add(yamlType(y.types.Input[yt.Name])),
		).Params(resultType(y, yt), jen.Error()))
	}
	f.Type().Id("Handlers").Interface(methods...)
	f.Line()

	f.Comment("UnimplementedHandlers answers every tool with an error saying it is not")
	f.Comment("implemented. Embed it in your Handlers for forward compatibility.")
	f.Type().Id("UnimplementedHandlers").Struct()
	for _, yt := range y.tools {
		f.Line()
		notImplemented := jen.Qual("errors", "New").Call(jen.Lit("tool " + yt.Name + " is not implemented"))
		var body []jen.Code
		if out := y.types.Output[yt.Name]; out != nil {
			body = []jen.Code{jen.Var().Id("out").Add(yamlType(out)), jen.Return(jen.Id("out"), notImplemented)}
		} else {
			body = []jen.Code{jen.Return(jen.Nil(), notImplemented)}
		}
		f.Comment(yt.GoName + " answers that the tool " + yt.Name + " is not implemented.")
		f.Func().Params(jen.Id("UnimplementedHandlers")).Id(yt.GoName).Params(
			jen.Qual("context", "Context"),
			yamlType(y.types.Input[yt.Name]),
		).Params(resultType(y, yt), jen.Error()).Block(body...)
	}
	f.Line()

	f.Comment("Tools returns the tools of " + u.source + ", served by h: each call's")
	f.Comment("arguments, validated against the tool's schema as written, are decoded")
	f.Comment("into its input type and passed to h's method.")
	items := make([]jen.Code, len(u.tools))
	for i, t := range u.tools {
		items[i] = toolLiteral(t, yamlHandler(y, y.tools[i]))
	}
	f.Func().Id("Tools").Params(jen.Id("h").Id("Handlers")).Qual(runtimePath, "ToolList").Block(
		jen.Return(jen.Qual(runtimePath, "ToolList").Values(items...)),
	)
}

func methodDoc(yt *toolsyaml.Tool) string {
	desc := strings.TrimSpace(yt.Description)
	if desc == "" {
		return yt.GoName + " runs the tool " + yt.Name + "."
	}
	return yt.GoName + " runs the tool " + yt.Name + ": " + lowerFirst(desc)
}

// lowerFirst lower-cases a sentence's first letter, unless it starts an
// acronym ("HTTP ...").
func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 || !unicode.IsUpper(r[0]) || len(r) > 1 && unicode.IsUpper(r[1]) {
		return s
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// resultType is a method's first result: the output type, or
// *runtime.Result for a tool without an output schema.
func resultType(y *yamlUnit, yt *toolsyaml.Tool) jen.Code {
	if out := y.types.Output[yt.Name]; out != nil {
		return yamlType(out)
	}
	return jen.Op("*").Qual(runtimePath, "Result")
}

func yamlHandler(y *yamlUnit, yt *toolsyaml.Tool) jen.Code {
	body := []jen.Code{
		jen.Var().Id("in").Add(yamlType(y.types.Input[yt.Name])),
		jen.If(
			jen.Err().Op(":=").Qual(runtimePath, "DecodeArgs").Call(jen.Id("args"), jen.Op("&").Id("in")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())),
	}
	call := jen.Id("h").Dot(yt.GoName).Call(jen.Id("ctx"), jen.Id("in"))
	if y.types.Output[yt.Name] == nil {
		body = append(body, jen.Return(call))
	} else {
		body = append(body,
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Qual(runtimePath, "StructuredResult").Call(jen.Id("out"))),
		)
	}
	return jen.Func().Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("args").Qual("encoding/json", "RawMessage"),
	).Params(jen.Op("*").Qual(runtimePath, "Result"), jen.Error()).Block(body...)
}

// yamlType writes a Go type of the schema-first model.
func yamlType(t *toolsyaml.Type) jen.Code {
	switch t.Kind {
	case toolsyaml.KindString:
		return jen.String()
	case toolsyaml.KindInt:
		return jen.Int64()
	case toolsyaml.KindFloat:
		return jen.Float64()
	case toolsyaml.KindBool:
		return jen.Bool()
	case toolsyaml.KindTime:
		return jen.Qual("time", "Time")
	case toolsyaml.KindNamed:
		return jen.Id(t.Name)
	case toolsyaml.KindSlice:
		return jen.Index().Add(yamlType(t.Elem))
	case toolsyaml.KindMap:
		return jen.Map(jen.String()).Add(yamlType(t.Elem))
	case toolsyaml.KindPointer:
		return jen.Op("*").Add(yamlType(t.Elem))
	}
	return jen.Qual("encoding/json", "RawMessage")
}

// emitDecl declares one named type, with its description as its doc.
func emitDecl(f *jen.File, d *toolsyaml.Decl) {
	docComment(f, d.Name, d.Doc)
	switch d.Kind {
	case toolsyaml.DeclStruct:
		fields := make([]jen.Code, 0, len(d.Fields))
		for _, fd := range d.Fields {
			tag := fd.JSONName
			if fd.Optional {
				if fd.Type.ZeroOmit() {
					tag += ",omitzero"
				} else {
					tag += ",omitempty"
				}
			}
			field := jen.Id(fd.Name).Add(yamlType(fd.Type)).Tag(map[string]string{"json": tag})
			fields = append(fields, commentLines(fd.Doc)...)
			fields = append(fields, field)
		}
		f.Type().Id(d.Name).Struct(fields...)
	case toolsyaml.DeclEnum:
		f.Type().Id(d.Name).Add(yamlType(d.Underlying))
		f.Line()
		consts := make([]jen.Code, len(d.Values))
		for i, v := range d.Values {
			var lit jen.Code
			if d.Underlying.Kind == toolsyaml.KindInt {
				lit = jen.Op(string(v.Value)) // a JSON integer is a Go integer literal
			} else {
				s, _ := strconv.Unquote(string(v.Value))
				lit = jen.Lit(s)
			}
			consts[i] = jen.Id(v.Name).Id(d.Name).Op("=").Add(lit)
		}
		f.Comment("The values of " + d.Name + ".")
		f.Const().Defs(consts...)
	case toolsyaml.DeclDefined:
		f.Type().Id(d.Name).Add(yamlType(d.Underlying))
	}
	f.Line()
}

// docComment writes a type's doc comment, "Name: description", from its
// schema's description.
func docComment(f *jen.File, name, desc string) {
	desc = strings.TrimSpace(desc)
	if desc == "" {
		return
	}
	for _, c := range commentLines(name + ": " + desc) {
		f.Add(c)
	}
}

// commentLines writes a description as // comment lines, one per line
// (jennifer would make a multi-line comment a /* */ block).
func commentLines(s string) []jen.Code {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var out []jen.Code
	for _, l := range strings.Split(s, "\n") {
		out = append(out, jen.Comment(strings.TrimRight(l, " \t")))
	}
	return out
}
