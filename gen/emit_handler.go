package gen

import (
	"fmt"
	"go/format"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitHandler is the one handler emitter, for tools and prompts, code-first
// and schema-first alike: a named function that decodes a call's arguments
// into the typed input, calls the Go function (or the Handlers method), and
// shapes its result. A Handlers method needs h, so its handler is made by
// a function of h. Handlers are text pieces (emit_text.go): a file has one
// a tool, and they were most of what jennifer and format.Source still did.
func emitHandler(f *jen.File, text *textPieces, name, what string, c *call, prompt bool) {
	uses := []string{"context", runtimePath}
	if !prompt {
		// The arguments' type, and a default given as raw JSON (only
		// tools have defaults).
		uses = append(uses, "encoding/json")
	}
	if c.in != nil {
		uses = typePaths(c.in, uses)
	}
	f.Line()
	f.Add(text.add(func(q qualifiers) string { return handlerText(q, name, what, c, prompt) }, uses...))
	if c.declaresDecode {
		f.Line()
		uses := planPaths(c.read, []string{jsonreadPath})
		f.Add(text.add(func(q qualifiers) string { return decoderText(q, what, c) }, uses...))
	}
	if c.declaresEncode {
		f.Line()
		uses := planPaths(c.write, []string{jsonwritePath})
		f.Add(text.add(func(q qualifiers) string { return encoderText(q, what, c) }, uses...))
	}
}

// handlerText is a handler function as gofmt lays it out.
func handlerText(q qualifiers, name, what string, c *call, prompt bool) string {
	argsType, decode, resultType := q.qual("encoding/json", "RawMessage"), "DecodeArgs", "Result"
	if prompt {
		argsType, decode, resultType = "map[string]string", "DecodePromptArgs", "PromptResult"
	}
	results := "(*" + q.qual(runtimePath, resultType) + ", error)"
	var b strings.Builder
	ctxName, argsName := "ctx", "args"
	if !c.ctx {
		ctxName = "_"
	}
	if c.in == nil {
		argsName = "_"
	}
	if c.bound {
		for _, l := range wrapComment(name + " is the handler of " + what + ": it decodes the arguments and calls " + c.recv + "." + c.fn + ".") {
			b.WriteString("// " + l + "\n")
		}
		b.WriteString("func " + name + "(" + ctxName + " " + q.qual("context", "Context") + ", " + c.recv + " " + typeText(q, c.recvType) + ", " + argsName + " " + argsType + ") " + results + " {\n")
		writeHandlerBody(&b, q, 1, c, decode, prompt)
		b.WriteString("}\n")
		return b.String()
	}
	if c.recv != "" {
		for _, l := range wrapComment(name + " returns the handler of " + what + ": it decodes the arguments and calls " + c.recv + "." + c.fn + ".") {
			b.WriteString("// " + l + "\n")
		}
		b.WriteString("func " + name + "(" + c.recv + " " + typeText(q, c.recvType) + ") func(" + q.qual("context", "Context") + ", " + argsType + ") " + results + " {\n")
		b.WriteString("\treturn func(ctx " + q.qual("context", "Context") + ", args " + argsType + ") " + results + " {\n")
		writeHandlerBody(&b, q, 2, c, decode, prompt)
		b.WriteString("\t}\n}\n")
		return b.String()
	}
	for _, l := range wrapComment(name + " is the handler of " + what + ": it decodes the arguments and calls " + c.fn + ".") {
		b.WriteString("// " + l + "\n")
	}
	b.WriteString("func " + name + "(" + ctxName + " " + q.qual("context", "Context") + ", " + argsName + " " + argsType + ") " + results + " {\n")
	writeHandlerBody(&b, q, 1, c, decode, prompt)
	b.WriteString("}\n")
	return b.String()
}

// writeHandlerBody writes a handler's statements at depth tabs: decode the
// arguments into in (its defaults first, or after), call, return.
func writeHandlerBody(b *strings.Builder, q qualifiers, depth int, c *call, decode string, prompt bool) {
	indent := strings.Repeat("\t", depth)
	line := func(s string) { b.WriteString(indent + s + "\n") }
	returnOnError := func(cond string) {
		line("if " + cond + " {")
		line("\treturn nil, err")
		line("}")
	}
	var args []string
	if c.ctx {
		args = append(args, "ctx")
	}
	if c.in != nil {
		line("var in " + strings.ReplaceAll(typeText(q, c.in), "\n", "\n"+indent))
		if c.defaults != nil && c.defaults.prefilled() {
			line("// The defaults of what the call leaves out; decoding overwrites what it gives.")
			writePrefill(b, q, indent, c.defaults, "in")
		}
		if c.decode != nil {
			line("if !" + c.decode.name + "(args, &in) {")
			b.WriteString(indent + "\tif err := " + q.qual(runtimePath, decode) + "(args, &in); err != nil {\n")
			line("\t\treturn nil, err")
			line("\t}")
			line("}")
		} else {
			returnOnError("err := " + q.qual(runtimePath, decode) + "(args, &in); err != nil")
		}
		if c.defaults != nil && !c.defaults.prefilled() {
			returnOnError("err := " + c.defaults.fn + "(args, &in); err != nil")
		}
		switch {
		case len(c.spread) > 0:
			for _, fld := range c.spread {
				args = append(args, "in."+fld)
			}
		case c.inPtr:
			args = append(args, "&in")
		default:
			args = append(args, "in")
		}
	}
	call := c.fn
	if c.recv != "" {
		call = c.recv + "." + c.fn
	}
	call += "(" + strings.Join(args, ", ") + ")"
	rt := func(name string) string { return q.qual(runtimePath, name) }
	switch {
	case c.result == resultNone && c.err:
		returnOnError("err := " + call + "; err != nil")
		line("return " + rt("ContentResult") + "(), nil")
	case c.result == resultNone:
		line(call)
		line("return " + rt("ContentResult") + "(), nil")
	case c.result == resultResult && c.err:
		line("return " + call)
	case c.result == resultStructured && (c.err || c.encode != nil):
		if c.err {
			line("out, err := " + call)
			returnOnError("err != nil")
		} else {
			line("out := " + call)
		}
		if c.encode != nil {
			line("if b, ok := " + c.encode.name + "(out); ok {")
			line("\treturn " + rt("StructuredJSON") + "(b)")
			line("}")
		}
		line("return " + rt("StructuredResult") + "(out)")
	case c.result == resultStructured:
		line("return " + rt("StructuredResult") + "(" + call + ")")
	case c.err:
		line("out, err := " + call)
		returnOnError("err != nil")
		line("return " + wrapResultText(q, c, "out", prompt) + ", nil")
	default:
		line("return " + wrapResultText(q, c, call, prompt) + ", nil")
	}
}

// wrapResultText makes a function's result out the handler's result.
func wrapResultText(q qualifiers, c *call, out string, prompt bool) string {
	rt := func(name string) string { return q.qual(runtimePath, name) }
	switch c.result {
	case resultText:
		if !c.res.isString() {
			out = "string(" + out + ")"
		}
		if prompt {
			return rt("TextPrompt") + "(" + out + ")"
		}
		return rt("TextResult") + "(" + out + ")"
	case resultContent:
		return rt("ContentResult") + "(" + out + ")"
	case resultContents:
		return rt("ContentResult") + "(" + out + "...)"
	case resultMessages:
		return "&" + rt("PromptResult") + "{Messages: " + out + "}"
	}
	return out // resultResult
}

// writePrefill writes the assignments that set an input's defaults before
// decoding, for obj.prefilled inputs.
func writePrefill(b *strings.Builder, q qualifiers, indent string, obj *objDefaults, target string) {
	for _, f := range obj.fields {
		sel := target
		for _, p := range f.path {
			sel += "." + p.name
		}
		if f.value != nil {
			lit := f.literal
			if f.rawJSON {
				lit = q.qual("encoding/json", "RawMessage") + "(" + stringText(jsonText(f.value, false)) + ")"
			}
			b.WriteString(indent + sel + " = " + lit + "\n")
		}
		if f.below != nil {
			writePrefill(b, q, indent, f.below.obj, sel)
		}
	}
}

// typePaths adds the import paths t refers to to uses.
func typePaths(t *typeExpr, uses []string) []string {
	if t == nil {
		return uses
	}
	if t.kind == exprNamed && t.path != "" {
		uses = append(uses, t.path)
	}
	for _, a := range t.args {
		uses = typePaths(a, uses)
	}
	uses = typePaths(t.elem, uses)
	uses = typePaths(t.key, uses)
	for _, f := range t.fields {
		uses = typePaths(f.typ, uses)
	}
	for _, p := range t.params {
		uses = typePaths(p, uses)
	}
	for _, r := range t.results {
		uses = typePaths(r, uses)
	}
	return uses
}

// typeText writes a type expression as gofmt does. A struct type spans
// lines whose fields gofmt aligns: it is written plainly and formatted by
// format.Source (a few lines, where the whole file once was).
func typeText(q qualifiers, t *typeExpr) string {
	s := plainType(q, t)
	if !strings.Contains(s, "\n") {
		return s
	}
	const head = "package p\n\nvar _ "
	out, err := format.Source([]byte(head + s + "\n"))
	if err != nil {
		panic(fmt.Sprintf("a struct type does not format: %v", err)) // textPieces.write reports it
	}
	return strings.TrimSuffix(strings.TrimPrefix(string(out), head), "\n")
}

// plainType writes t as valid Go, laid out as gofmt does except for the
// alignment of a struct's fields: typeCode's text, for the pieces that
// are not built with jennifer.
func plainType(q qualifiers, t *typeExpr) string {
	switch t.kind {
	case exprNamed:
		s := t.name
		if t.path != "" {
			s = q.qual(t.path, t.name)
		}
		if len(t.args) > 0 {
			s += "[" + plainTypes(q, t.args) + "]"
		}
		return s
	case exprPointer:
		return "*" + plainType(q, t.elem)
	case exprSlice:
		return "[]" + plainType(q, t.elem)
	case exprArray:
		return "[" + strconv.FormatInt(t.len, 10) + "]" + plainType(q, t.elem)
	case exprMap:
		return "map[" + plainType(q, t.key) + "]" + plainType(q, t.elem)
	case exprChan:
		switch t.dir {
		case chanSend:
			return "chan<- " + plainType(q, t.elem)
		case chanRecv:
			return "<-chan " + plainType(q, t.elem)
		}
		return "chan " + plainType(q, t.elem)
	case exprStruct:
		if len(t.fields) == 0 {
			return "struct{}"
		}
		var b strings.Builder
		b.WriteString("struct {\n")
		for _, fd := range t.fields {
			if doc := strings.TrimSpace(fd.doc); doc != "" {
				for _, l := range strings.Split(doc, "\n") {
					b.WriteString(commentText(strings.TrimRight(l, " \t")) + "\n")
				}
			}
			if !fd.embedded {
				b.WriteString(fd.name + " ")
			}
			b.WriteString(plainType(q, fd.typ))
			switch {
			case fd.tag == "":
			case strings.Contains(fd.tag, "`"):
				b.WriteString(" " + fmt.Sprintf("%#v", fd.tag))
			default:
				b.WriteString(" `" + fd.tag + "`")
			}
			b.WriteString("\n")
		}
		b.WriteString("}")
		return b.String()
	case exprFunc:
		params := make([]string, len(t.params))
		for i, p := range t.params {
			params[i] = plainType(q, p)
		}
		if t.variadic {
			params[len(params)-1] = "..." + plainType(q, t.params[len(t.params)-1].elem)
		}
		s := "func(" + strings.Join(params, ", ") + ")"
		switch len(t.results) {
		case 0:
			return s
		case 1:
			return s + " " + plainType(q, t.results[0])
		}
		return s + " (" + plainTypes(q, t.results) + ")"
	}
	return "any"
}

// commentText is a line of a comment as jennifer's Comment writes it.
func commentText(l string) string {
	if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") {
		return l
	}
	return "// " + l
}

func plainTypes(q qualifiers, ts []*typeExpr) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = plainType(q, t)
	}
	return strings.Join(out, ", ")
}
