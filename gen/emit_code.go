package gen

import (
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"
)

// emitHandler is the one handler emitter, for tools and prompts, code-first
// and schema-first alike: a named function that decodes a call's arguments
// into the typed input, calls the Go function (or the Handlers method), and
// shapes its result. A Handlers method needs h, so its handler is made by
// a function of h.
func emitHandler(f *jen.File, name, what string, c *call, prompt bool) {
	argsType, decode, resultType := jen.Qual("encoding/json", "RawMessage"), "DecodeArgs", "Result"
	if prompt {
		argsType, decode, resultType = jen.Map(jen.String()).String(), "DecodePromptArgs", "PromptResult"
	}
	var body, args []jen.Code
	if c.ctx {
		args = append(args, jen.Id("ctx"))
	}
	if c.in != nil {
		body = append(body, jen.Var().Id("in").Add(typeCode(c.in)))
		if c.defaults != nil && c.defaults.prefilled() {
			body = append(body, jen.Comment("The defaults of what the call leaves out; decoding overwrites what it gives."))
			body = append(body, prefill(c.defaults, jen.Id("in"))...)
		}
		body = append(body, jen.If(
			jen.Err().Op(":=").Qual(runtimePath, decode).Call(jen.Id("args"), jen.Op("&").Id("in")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())))
		if c.defaults != nil && !c.defaults.prefilled() {
			body = append(body, jen.If(
				jen.Err().Op(":=").Id(c.defaults.fn).Call(jen.Id("args"), jen.Op("&").Id("in")),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Return(jen.Nil(), jen.Err())))
		}
		switch {
		case len(c.spread) > 0:
			for _, fld := range c.spread {
				args = append(args, jen.Id("in").Dot(fld))
			}
		case c.inPtr:
			args = append(args, jen.Op("&").Id("in"))
		default:
			args = append(args, jen.Id("in"))
		}
	}
	callee := jen.Id(c.fn)
	if c.recv != "" {
		callee = jen.Id(c.recv).Dot(c.fn)
	}
	body = append(body, returnResult(c, callee.Call(args...), prompt)...)

	params := func(names ...string) *jen.Statement {
		ps := []jen.Code{jen.Qual("context", "Context"), argsType}
		for i, n := range names {
			ps[i] = jen.Id(n).Add(ps[i])
		}
		return jen.Params(ps...)
	}
	results := jen.Params(jen.Op("*").Qual(runtimePath, resultType), jen.Error())
	f.Line()
	if c.recv != "" {
		comment(f, name+" returns the handler of "+what+": it decodes the arguments and calls "+c.recv+"."+c.fn+".")
		f.Func().Id(name).Params(jen.Id(c.recv).Add(typeCode(c.recvType))).Func().Add(params()).Add(results).Block(
			jen.Return(jen.Func().Add(params("ctx", "args")).Add(results).Block(body...)),
		)
		return
	}
	comment(f, name+" is the handler of "+what+": it decodes the arguments and calls "+c.fn+".")
	ctxName, argsName := "ctx", "args"
	if !c.ctx {
		ctxName = "_"
	}
	if c.in == nil {
		argsName = "_"
	}
	f.Func().Id(name).Add(params(ctxName, argsName)).Add(results).Block(body...)
}

// returnResult calls the function and returns its result as the handler's.
func returnResult(c *call, call jen.Code, prompt bool) []jen.Code {
	failed := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
	switch {
	case c.result == resultNone && c.err:
		return []jen.Code{
			jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Qual(runtimePath, "ContentResult").Call(), jen.Nil()),
		}
	case c.result == resultNone:
		return []jen.Code{call, jen.Return(jen.Qual(runtimePath, "ContentResult").Call(), jen.Nil())}
	case c.result == resultResult && c.err:
		return []jen.Code{jen.Return(call)}
	case c.result == resultStructured && c.err:
		return []jen.Code{
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
			failed,
			jen.Return(jen.Qual(runtimePath, "StructuredResult").Call(jen.Id("out"))),
		}
	case c.result == resultStructured:
		return []jen.Code{jen.Return(jen.Qual(runtimePath, "StructuredResult").Call(call))}
	case c.err:
		return []jen.Code{
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
			failed,
			jen.Return(wrapResult(c, jen.Id("out"), prompt), jen.Nil()),
		}
	}
	return []jen.Code{jen.Return(wrapResult(c, call, prompt), jen.Nil())}
}

// wrapResult makes a function's result out the handler's result.
func wrapResult(c *call, out jen.Code, prompt bool) jen.Code {
	switch c.result {
	case resultText:
		if !c.res.isString() {
			out = jen.String().Call(out)
		}
		if prompt {
			return jen.Qual(runtimePath, "TextPrompt").Call(out)
		}
		return jen.Qual(runtimePath, "TextResult").Call(out)
	case resultContent:
		return jen.Qual(runtimePath, "ContentResult").Call(out)
	case resultContents:
		return jen.Qual(runtimePath, "ContentResult").Call(jen.Add(out).Op("..."))
	case resultMessages:
		return jen.Op("&").Qual(runtimePath, "PromptResult").Values(jen.Dict{jen.Id("Messages"): out})
	}
	return out // resultResult
}

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
		notImplemented := jen.Qual("errors", "New").Call(jen.Lit("tool " + t.name + " is not implemented"))
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
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > 77 {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
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
