package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// The typed client (toolgen -client): a second file beside the unit's,
// tools_client_gen.go, in the same package, with a Client whose methods
// call the tools through a runtime.Caller with the tools' own Go types:
// the input type (or, for the flat form, the parameters, each the tool
// does not require through a pointer, nil leaving it out), and the output
// type, a string for a text result, *runtime.Result for content, or
// nothing but an error for a tool that returns nothing. It reads the same
// model as tools_gen.go and nothing else.

// DefaultClientOutput is the typed client's file name, written beside the
// generated file when Config.Client is set.
const DefaultClientOutput = "tools_client_gen.go"

// clientPath is where a unit's client goes.
func clientPath(u *unit) string { return filepath.Join(filepath.Dir(u.path), DefaultClientOutput) }

// clientDeclarations are the package-level names the client file declares.
func clientDeclarations() []declaration {
	return []declaration{
		{name: "Client", what: "the typed client (-client)", file: DefaultClientOutput},
		{name: "NewClient", what: "the typed client's constructor (-client)", file: DefaultClientOutput},
	}
}

// emitClient adds u's client to the files, unless another file goes where
// it would.
func (g *generator) emitClient(u *unit, seen map[string]string, files *[]*File) {
	path := clientPath(u)
	if other, dup := seen[path]; dup {
		g.errs.add(tokenPosition(""), "the client of %s would be generated into %s, where %s is", u.source, path, other)
		return
	}
	seen[path] = u.source
	f, err := clientFile(u)
	g.clock.lap(PhaseEmit)
	if err != nil {
		g.errs.add(tokenPosition(path), "generating %s: %v", path, err)
		return
	}
	*files = append(*files, f)
}

// clientFile renders and formats a unit's client.
func clientFile(u *unit) (*File, error) {
	src, err := renderClient(u)
	if err != nil {
		return nil, err
	}
	out, err := formatFile(src)
	if err != nil {
		return nil, err
	}
	return &File{Path: clientPath(u), Content: out}, nil
}

func renderClient(u *unit) ([]byte, error) {
	var f *jen.File
	if u.pkgPath != "" {
		f = jen.NewFilePathName(u.pkgPath, u.pkgName)
	} else {
		f = jen.NewFile(u.pkgName)
	}
	f.NoFormat = true
	f.HeaderComment(header)
	f.HeaderComment("Source: " + u.source)
	nameImports(f, u)

	comment(f, "Client calls the tools of "+u.source+" through a runtime.Caller, with their own Go types. A tool's failure comes back as a *runtime.ToolError, arguments it refused as a *runtime.ValidationError.")
	f.Type().Id("Client").Struct(jen.Id("caller").Qual(runtimePath, "Caller"))
	f.Line()
	comment(f, "NewClient returns a Client that calls through c: runtime.InProcess(server) in this process, runtime.MCPCaller(session) over MCP, or runtime.RESTCaller(url, nil) over the explorer's REST protocol.")
	f.Func().Id("NewClient").Params(jen.Id("c").Qual(runtimePath, "Caller")).Op("*").Id("Client").Block(
		jen.Return(jen.Op("&").Id("Client").Values(jen.Dict{jen.Id("caller"): jen.Id("c")})),
	)
	names := clientMethodNames(u.tools)
	for i, t := range u.tools {
		f.Line()
		emitClientMethod(f, names[i], t)
	}
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, fmt.Errorf("toolgen could not render the client (a bug in toolgen: please report it): %v", err)
	}
	return b.Bytes(), nil
}

// clientMethodNames names each tool's method: its Go function's name,
// capitalised, or where two tools would share one (methods of two types),
// the tool's name in camel case, numbered if that is taken too.
func clientMethodNames(tools []*tool) []string {
	names := make([]string, len(tools))
	count := map[string]int{}
	for i, t := range tools {
		names[i] = capitalise(t.call.fn)
		count[names[i]]++
	}
	used := map[string]bool{}
	for i, t := range tools {
		if count[names[i]] > 1 {
			names[i] = camelName(t.name)
		}
		for n, k := names[i], 2; used[names[i]]; k++ {
			names[i] = n + strconv.Itoa(k)
		}
		used[names[i]] = true
	}
	return names
}

// camelName is a tool name as an exported Go name: get_weather →
// GetWeather.
func camelName(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' }) {
		b.WriteString(capitalise(part))
	}
	if b.Len() == 0 || !strings.ContainsAny(b.String()[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return "Tool" + b.String()
	}
	return b.String()
}

// clientReserved are the names a method's body uses: a parameter of the
// flat form with one of them is renamed.
var clientReserved = map[string]bool{
	"c": true, "ctx": true, "args": true, "argv": true, "res": true, "out": true, "err": true,
	"runtime": true, "json": true, "context": true, "any": true, "string": true,
}

// emitClientMethod writes the method that calls one tool.
func emitClientMethod(f *jen.File, name string, t *tool) {
	c := t.call
	params := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
	// args is the arguments' JSON: nil for none. prepare builds what
	// marshal reads, when it takes statements (parameters left out).
	var marshal jen.Code
	var prepare []jen.Code
	var optional []optionalParam
	switch {
	case c.in == nil:
	case len(c.spread) > 0:
		// A parameter the tool does not require (one with a default, or
		// marked optional) is one the caller may leave out: a pointer
		// (or a type that is nil already), nil for leaving it out, so that
		// the tool applies its default rather than the Go zero value.
		required, defaults := inputRequired(t.input)
		dict := jen.Dict{}
		var setOptional []jen.Code
		for _, fd := range c.in.fields {
			jsonName, _, _ := strings.Cut(reflect.StructTag(fd.tag).Get("json"), ",")
			id := jsonName
			if clientReserved[id] {
				id += "Arg"
			}
			if required[jsonName] {
				params = append(params, jen.Id(id).Add(typeCode(fd.typ)))
				dict[jen.Lit(jsonName)] = jen.Id(id)
				continue
			}
			value := jen.Id(id)
			if nilable(fd.typ) {
				params = append(params, jen.Id(id).Add(typeCode(fd.typ)))
			} else {
				params = append(params, jen.Id(id).Op("*").Add(typeCode(fd.typ)))
				value = jen.Op("*").Id(id)
			}
			setOptional = append(setOptional, jen.If(jen.Id(id).Op("!=").Nil()).Block(
				jen.Id("argv").Index(jen.Lit(jsonName)).Op("=").Add(value),
			))
			optional = append(optional, optionalParam{name: id, def: defaults[jsonName]})
		}
		marshal = jen.Map(jen.String()).Any().Values(dict)
		if len(setOptional) > 0 {
			prepare = append([]jen.Code{jen.Id("argv").Op(":=").Add(marshal)}, setOptional...)
			marshal = jen.Id("argv")
		}
	default:
		in := typeCode(c.in)
		if c.inPtr {
			in = jen.Op("*").Add(in)
		}
		params = append(params, jen.Id("in").Add(in))
		marshal = jen.Id("in")
	}

	var result jen.Code // the method's first result; nil for none
	switch c.result {
	case resultNone:
	case resultText, resultStructured:
		result = typeCode(c.res)
	default:
		result = jen.Op("*").Qual(runtimePath, "Result")
	}
	results := jen.Error()
	if result != nil {
		results = jen.Params(result, jen.Error())
	}

	// fail returns err, with the zero output.
	fail := func(err jen.Code) jen.Code {
		switch {
		case result == nil:
			return jen.Return(err)
		case c.result == resultStructured:
			return jen.Return(jen.Id("out"), err)
		case c.result == resultText:
			return jen.Return(jen.Lit(""), err)
		}
		return jen.Return(jen.Nil(), err)
	}
	var body []jen.Code
	if c.result == resultStructured {
		body = append(body, jen.Var().Id("out").Add(typeCode(c.res)))
	}
	args := jen.Code(jen.Nil())
	if marshal != nil {
		body = append(body, prepare...)
		body = append(body,
			jen.List(jen.Id("args"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(marshal),
			jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err())),
		)
		args = jen.Id("args")
	}
	call := jen.Id("c").Dot("caller").Dot("Call").Call(jen.Id("ctx"), jen.Lit(t.name), args)
	switch c.result {
	case resultNone:
		assign := ":="
		if marshal != nil {
			assign = "=" // err is declared
		}
		body = append(body, jen.List(jen.Id("_"), jen.Err()).Op(assign).Add(call), jen.Return(jen.Err()))
	case resultText:
		text := jen.Qual(runtimePath, "ResultText").Call(jen.Id("res"))
		if !c.res.isString() {
			text = typeCode(c.res).(*jen.Statement).Clone().Call(text)
		}
		body = append(body,
			jen.List(jen.Id("res"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err())),
			jen.Return(text, jen.Nil()),
		)
	case resultStructured:
		_, wrapped := typeschema.ObjectOutput(t.output)
		body = append(body,
			jen.List(jen.Id("res"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err())),
			jen.Err().Op("=").Qual(runtimePath, "DecodeResult").Call(jen.Id("res"), jen.Lit(wrapped), jen.Op("&").Id("out")),
			jen.Return(jen.Id("out"), jen.Err()),
		)
	default:
		body = append(body, jen.Return(call))
	}

	comment(f, clientMethodDoc(name, t, optional))
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(name).Params(params...).Add(results).Block(body...)
}

// optionalParam is a flat parameter the caller may leave out: its name
// in the method, and its default's JSON, if it has one.
type optionalParam struct {
	name string
	def  json.RawMessage
}

// inputRequired reads an input schema's required properties, and the
// defaults of its properties.
func inputRequired(input json.RawMessage) (map[string]bool, map[string]json.RawMessage) {
	var s struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	// The schema is toolgen's own JSON: it always decodes.
	_ = json.Unmarshal(input, &s)
	required := make(map[string]bool, len(s.Required))
	for _, r := range s.Required {
		required[r] = true
	}
	defaults := map[string]json.RawMessage{}
	for name, p := range s.Properties {
		if p.Default != nil {
			defaults[name] = p.Default
		}
	}
	return required, defaults
}

// nilable reports whether a parameter of type t can be left out as it is,
// by passing nil (a pointer, slice, map or interface), rather than
// through a pointer to it.
func nilable(t *typeExpr) bool {
	switch t.kind {
	case exprPointer, exprSlice, exprMap, exprAny:
		return true
	}
	return false
}

// clientMethodDoc is a method's doc comment: what it calls, the tool's
// description's first paragraph, and which parameters nil leaves out.
func clientMethodDoc(name string, t *tool, optional []optionalParam) string {
	doc := clientMethodSummary(name, t)
	if len(optional) == 0 {
		return doc
	}
	parts := make([]string, len(optional))
	withDefault := 0
	for i, o := range optional {
		parts[i] = o.name
		if o.def != nil {
			parts[i] += " (default " + string(o.def) + ")"
			withDefault++
		}
	}
	var list string
	switch len(parts) {
	case 1:
		list = parts[0]
	case 2:
		list = parts[0] + " or " + parts[1]
	default:
		list = strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
	}
	doc += " A nil " + list + " is left out of the call"
	switch {
	case withDefault == len(optional):
		return doc + ", and the tool applies its default."
	case withDefault > 0:
		return doc + ", and one with a default gets it."
	}
	return doc + "."
}

func clientMethodSummary(name string, t *tool) string {
	doc := name + " calls the tool " + t.name
	desc, _, _ := strings.Cut(strings.TrimSpace(t.description), "\n\n")
	if desc = strings.Join(strings.Fields(desc), " "); desc != "" {
		doc += ": " + lowerFirst(desc)
		if !strings.HasSuffix(doc, ".") {
			doc += "."
		}
	} else {
		doc += "."
	}
	return doc
}
