package gen

import (
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// typeCode writes a type expression; jennifer adds the imports.
func typeCode(t *typeExpr) jen.Code {
	switch t.kind {
	case exprNamed:
		s := jen.Id(t.name)
		if t.path != "" {
			s = jen.Qual(t.path, t.name)
		}
		if len(t.args) > 0 {
			s = s.Types(typeCodes(t.args)...)
		}
		return s
	case exprPointer:
		return jen.Op("*").Add(typeCode(t.elem))
	case exprSlice:
		return jen.Index().Add(typeCode(t.elem))
	case exprArray:
		return jen.Index(jen.Lit(int(t.len))).Add(typeCode(t.elem))
	case exprMap:
		return jen.Map(typeCode(t.key)).Add(typeCode(t.elem))
	case exprChan:
		switch t.dir {
		case chanSend:
			return jen.Chan().Op("<-").Add(typeCode(t.elem))
		case chanRecv:
			return jen.Op("<-").Chan().Add(typeCode(t.elem))
		}
		return jen.Chan().Add(typeCode(t.elem))
	case exprStruct:
		return jen.Struct(fieldCodes(t.fields)...)
	case exprFunc:
		params := typeCodes(t.params)
		if t.variadic {
			last := t.params[len(t.params)-1]
			params[len(params)-1] = jen.Op("...").Add(typeCode(last.elem))
		}
		s := jen.Func().Params(params...)
		if len(t.results) == 1 {
			return s.Add(typeCode(t.results[0]))
		}
		if len(t.results) > 1 {
			s = s.Params(typeCodes(t.results)...)
		}
		return s
	}
	return jen.Any()
}

func typeCodes(ts []*typeExpr) []jen.Code {
	out := make([]jen.Code, len(ts))
	for i, t := range ts {
		out[i] = typeCode(t)
	}
	return out
}

// fieldCodes writes struct fields, each with its doc comment, if any.
func fieldCodes(fields []field) []jen.Code {
	var out []jen.Code
	for _, fd := range fields {
		out = append(out, commentLines(fd.doc)...)
		s := jen.Add(typeCode(fd.typ))
		if !fd.embedded {
			s = jen.Id(fd.name).Add(typeCode(fd.typ))
		}
		switch {
		case fd.tag == "":
		case strings.Contains(fd.tag, "`"):
			s = s.Lit(fd.tag)
		default:
			s = s.Op("`" + fd.tag + "`")
		}
		out = append(out, s)
	}
	return out
}

// emitHandlers writes a schema-first file's Handlers interface, one method
// a tool, and UnimplementedHandlers.
func emitHandlers(f *jen.File, u *unit) {
	f.Comment("Handlers implements the tools of " + u.source + ", one method each. Embed")
	f.Comment("UnimplementedHandlers so that a tool added to the file later does not")
	f.Comment("break the build: it answers that the tool is not implemented until a")
	f.Comment("method of your own replaces it.")
	methods := make([]jen.Code, 0, len(u.tools))
	for i, t := range u.tools {
		if i > 0 {
			methods = append(methods, jen.Line())
		}
		methods = append(methods, commentLines(methodDoc(t))...)
		methods = append(methods, jen.Id(t.call.fn).Params(
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("in").Add(typeCode(t.call.in)),
		).Params(methodResult(t.call), jen.Error()))
	}
	f.Type().Id("Handlers").Interface(methods...)
	f.Line()

	f.Comment("UnimplementedHandlers answers every tool with an error saying it is not")
	f.Comment("implemented. Embed it in your Handlers for forward compatibility.")
	f.Type().Id("UnimplementedHandlers").Struct()
	for _, t := range u.tools {
		f.Line()
		notImplemented := jen.Id(notImplementedIdent).Call(jen.Lit(t.name))
		body := []jen.Code{jen.Return(jen.Nil(), notImplemented)}
		if t.call.res != nil {
			body = []jen.Code{jen.Var().Id("out").Add(typeCode(t.call.res)), jen.Return(jen.Id("out"), notImplemented)}
		}
		f.Comment(t.call.fn + " answers that the tool " + t.name + " is not implemented.")
		f.Func().Params(jen.Id("UnimplementedHandlers")).Id(t.call.fn).Params(
			jen.Qual("context", "Context"),
			typeCode(t.call.in),
		).Params(methodResult(t.call), jen.Error()).Block(body...)
	}
	if len(u.tools) > 0 {
		f.Line()
		f.Comment(notImplementedIdent + " is the error of an UnimplementedHandlers method,")
		f.Comment("made here rather than in each method so that a large catalog's build")
		f.Comment("does not compile it a tool each.")
		f.Comment("")
		f.Comment("//go:noinline")
		f.Func().Id(notImplementedIdent).Params(jen.Id("tool").String()).Error().Block(
			jen.Return(jen.Qual("errors", "New").Call(jen.Lit("tool ").Op("+").Id("tool").Op("+").Lit(" is not implemented"))),
		)
	}
	f.Line()
	emitBind(f, u)
}

// notImplementedIdent names the function that makes the error of an
// UnimplementedHandlers method. Kept from being inlined: an errors.New in
// each method, or this function inlined into each, cost the build of
// 1,000 two-property tools 7% more peak memory (331 against 308 MiB;
// BENCHMARKS.md, "The generator at catalog scale").
const notImplementedIdent = identPrefix + "NotImplemented"

// bindIdent names the function that makes a schema-first tool's handler
// of h: runtime.Handler(toolgenBind(h, toolgenAddHandler)).
const bindIdent = identPrefix + "Bind"

// emitBind writes toolgenBind, which makes each tool's handler, a plain
// function of (ctx, h, args), the runtime.Handler that calls it with h.
//
// One closure for the file, not one a tool: a function of h returning a
// closure, a tool each, cost the compiler two functions a tool and, as
// such a small function is inlined into Tools, a copy of its closure at
// the call too. toolgenBind is kept from being inlined for the same
// reason (a generic helper in runtime would not do: its instantiation for
// Handlers, an interface, has a method of its own for each of Handlers'
// methods). On a catalog of 1,000 tools this took the build's peak memory
// from about 600 to 460 MB (BENCHMARKS.md, "The generator at catalog
// scale").
func emitBind(f *jen.File, u *unit) {
	if len(u.tools) == 0 {
		return
	}
	handler := jen.Func().Params(jen.Qual("context", "Context"), jen.Id("Handlers"), jen.Qual("encoding/json", "RawMessage")).
		Params(jen.Op("*").Qual(runtimePath, "Result"), jen.Error())
	f.Comment(bindIdent + " returns the handler of a tool that calls fn with h. It is not")
	f.Comment("inlined, so that the compiler makes its closure once, not once a tool.")
	f.Comment("")
	f.Comment("//go:noinline")
	f.Func().Id(bindIdent).Params(jen.Id("h").Id("Handlers"), jen.Id("fn").Add(handler)).Qual(runtimePath, "Handler").Block(
		jen.Return(jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Qual("encoding/json", "RawMessage")).
			Params(jen.Op("*").Qual(runtimePath, "Result"), jen.Error()).Block(
			jen.Return(jen.Id("fn").Call(jen.Id("ctx"), jen.Id("h"), jen.Id("args"))),
		)),
	)
	f.Line()
}

// methodResult is a Handlers method's first result: the output type, or
// *runtime.Result for a tool without an output schema.
func methodResult(c *call) jen.Code {
	if c.res != nil {
		return typeCode(c.res)
	}
	return jen.Op("*").Qual(runtimePath, "Result")
}

func methodDoc(t *tool) string {
	desc := strings.TrimSpace(t.description)
	if desc == "" {
		return t.call.fn + " runs the tool " + t.name + "."
	}
	return t.call.fn + " runs the tool " + t.name + ": " + lowerFirst(desc)
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

// emitDecl declares one named type of a tools.yaml, with its doc comment
// (built from the schema's description), and an enum's constants, each
// with its own.
func emitDecl(f *jen.File, d *declaredType) {
	for _, c := range commentLines(wrapText(d.doc)) {
		f.Add(c)
	}
	if d.underlying == nil {
		f.Type().Id(d.name).Struct(fieldCodes(d.fields)...)
		f.Line()
		return
	}
	if d.alias {
		f.Type().Id(d.name).Op("=").Add(typeCode(d.underlying))
	} else {
		f.Type().Id(d.name).Add(typeCode(d.underlying))
	}
	f.Line()
	if len(d.consts) > 0 {
		var consts []jen.Code
		for _, c := range d.consts {
			consts = append(consts, commentLines(c.doc)...)
			consts = append(consts, jen.Id(c.name).Id(d.name).Op("=").Op(c.literal))
		}
		f.Comment("The values of " + d.name + ".")
		f.Const().Defs(consts...)
		f.Line()
	}
}

// wrapText wraps each paragraph of text at 77 columns, keeping its line
// breaks.
func wrapText(text string) string {
	var out []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len(line)+1+len(w) > 77 {
				out = append(out, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// comment writes a comment wrapped at 80 columns.
func comment(f *jen.File, text string) {
	for _, l := range wrapComment(text) {
		f.Comment(l)
	}
}

// wrapComment cuts text into the lines of a comment of 80 columns.
func wrapComment(text string) []string {
	var lines []string
	var line strings.Builder // one allocation a line, not one a word
	for _, w := range strings.Fields(text) {
		if line.Len() > 0 && line.Len()+1+len(w) > 77 {
			lines = append(lines, line.String())
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(w)
	}
	return append(lines, line.String())
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
