package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/internal/typeschema"
	"github.com/toolgen-go/toolgen/runtime"
)

// funcPrompt reads a function's //toolgen:prompt directive (ds are its
// directives), or returns nil when it has none.
func (g *generator) funcPrompt(pkg *packages.Package, fd *ast.FuncDecl, ds []*directive) *prompt {
	var pd *directive
	isTool := false
	for _, d := range ds {
		switch d.name {
		case "prompt":
			if pd != nil {
				g.errs.add(d.pos, "second //toolgen:prompt on %s", fd.Name.Name)
				continue
			}
			pd = d
		case "tool":
			isTool = true
		}
	}
	if pd == nil {
		return nil
	}
	pos := pkg.Fset.Position(fd.Name.Pos())
	if isTool {
		g.errs.add(pd.pos, "%s is both a tool and a prompt", fd.Name.Name)
		return nil
	}
	if fd.Recv != nil || fd.Type.TypeParams != nil {
		g.errs.add(pos, "//toolgen:prompt on %s: prompts are top-level, non-generic functions", fd.Name.Name)
		return nil
	}
	p := &prompt{name: snakeCase(fd.Name.Name), pos: pos}
	_, ok := g.directiveArgs(pd, map[string]*string{"name": &p.name, "title": &p.title, "description": &p.description}, nil,
		"name=, title=, description=")
	if !runtime.ValidToolName(p.name) {
		g.errs.add(pd.pos, "//toolgen:prompt: invalid prompt name %q: use 1 to 128 letters, digits, '_', '-' or '.'", p.name)
		ok = false
	}
	if !ok {
		return nil
	}
	if p.description == "" {
		p.description = funcDescription(docText(fd.Doc), fd.Name.Name)
	}
	fn, ok := pkg.Types.Scope().Lookup(fd.Name.Name).(*types.Func)
	if !ok {
		return nil
	}
	call, ok := g.promptSignature(fn, pos)
	if !ok {
		return nil
	}
	p.fn = call
	schema, err := typeschema.ForType(g.env.of(call.input))
	if err != nil {
		g.schemaError(pos, fd.Name.Name, err)
		return nil
	}
	raw, err := schema.MarshalJSON()
	if err != nil {
		g.errs.add(pos, "%s: %v", fd.Name.Name, err)
		return nil
	}
	for _, a := range typeschema.Arguments(raw) {
		if !stringType(a.Type) {
			g.errs.add(pos, "%s: prompt argument %s is %s: prompt arguments are strings", fd.Name.Name, a.Name, a.Type)
			ok = false
			continue
		}
		p.args = append(p.args, promptArg{name: a.Name, description: a.Description, required: a.Required})
	}
	if !ok {
		return nil
	}
	return p
}

// stringType reports whether a rendered type is a string: "string", or an
// enum of string literals.
func stringType(t string) bool {
	if t == "string" {
		return true
	}
	for _, alt := range strings.Split(t, " | ") {
		if len(alt) < 2 || alt[0] != '"' || alt[len(alt)-1] != '"' {
			return false
		}
	}
	return true
}

func (g *generator) promptSignature(fn *types.Func, pos token.Position) (*promptCall, bool) {
	sig := fn.Type().(*types.Signature)
	bad := func(format string, args ...any) (*promptCall, bool) {
		g.errs.add(pos, "%s: "+format, append([]any{fn.Name()}, args...)...)
		return nil, false
	}
	const form = "a prompt is func(ctx context.Context, in T) (string or []runtime.PromptMessage, error), T a struct of strings"
	c := &promptCall{name: fn.Name()}
	params := sig.Params()
	i := 0
	if params.Len() > 0 && isNamed(params.At(0).Type(), "context", "Context") {
		c.ctx = true
		i = 1
	}
	if params.Len()-i != 1 || sig.Variadic() || !isStructInput(params.At(i).Type()) {
		return bad("%s", form)
	}
	t := types.Unalias(params.At(i).Type())
	if p, ok := t.(*types.Pointer); ok {
		c.inPtr = true
		t = types.Unalias(p.Elem())
	}
	c.input = t
	res := sig.Results()
	errType := types.Universe.Lookup("error").Type()
	switch {
	case res.Len() == 2 && types.Identical(res.At(1).Type(), errType):
		c.err = true
	case res.Len() == 1:
	default:
		return bad("%s", form)
	}
	r := types.Unalias(res.At(0).Type())
	if b, ok := r.(*types.Basic); ok && b.Kind() == types.String {
		return c, true
	}
	if s, ok := r.(*types.Slice); ok && isNamed(s.Elem(), runtimePath, "PromptMessage") {
		c.messages = true
		return c, true
	}
	return bad("%s", form)
}

// emitPrompts writes func Prompts() []runtime.Prompt.
func emitPrompts(f *jen.File, u *unit) {
	if len(u.prompts) == 0 {
		return
	}
	f.Line()
	f.Comment("Prompts returns the package's MCP prompts; serve them with")
	f.Comment("runtime.Options{MCP: runtime.MCPOptions{Prompts: Prompts()}}.")
	items := make([]jen.Code, len(u.prompts))
	for i, p := range u.prompts {
		fields := []jen.Code{jen.Id("Name").Op(":").Lit(p.name)}
		add := func(name string, v jen.Code) { fields = append(fields, jen.Id(name).Op(":").Add(v)) }
		if p.title != "" {
			add("Title", stringLit(p.title))
		}
		if p.description != "" {
			add("Description", stringLit(p.description))
		}
		if len(p.args) > 0 {
			args := make([]jen.Code, len(p.args))
			for j, a := range p.args {
				kv := []jen.Code{jen.Id("Name").Op(":").Lit(a.name)}
				if a.description != "" {
					kv = append(kv, jen.Id("Description").Op(":").Add(stringLit(a.description)))
				}
				if a.required {
					kv = append(kv, jen.Id("Required").Op(":").True())
				}
				args[j] = jen.Values(kv...)
			}
			add("Arguments", jen.Index().Qual(runtimePath, "PromptArgument").Values(multiline(args)...))
		}
		if p.fn != nil {
			add("Handler", promptHandler(p.fn))
		} else {
			add("Handler", jen.Qual(runtimePath, "TemplatePrompt").Call(jen.Lit(p.name), stringLit(p.template)))
		}
		items[i] = jen.Values(multiline(fields)...)
	}
	f.Func().Id("Prompts").Params().Index().Qual(runtimePath, "Prompt").Block(
		jen.Return(jen.Index().Qual(runtimePath, "Prompt").Values(items...)),
	)
}

func promptHandler(c *promptCall) jen.Code {
	var callArgs []jen.Code
	ctxName := "_"
	if c.ctx {
		ctxName = "ctx"
		callArgs = append(callArgs, jen.Id("ctx"))
	}
	if c.inPtr {
		callArgs = append(callArgs, jen.Op("&").Id("in"))
	} else {
		callArgs = append(callArgs, jen.Id("in"))
	}
	body := []jen.Code{
		jen.Var().Id("in").Add(typeCode(c.input)),
		jen.If(
			jen.Err().Op(":=").Qual(runtimePath, "DecodePromptArgs").Call(jen.Id("args"), jen.Op("&").Id("in")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Err())),
	}
	call := jen.Id(c.name).Call(callArgs...)
	if c.err {
		body = append(body,
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(call),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
	} else {
		body = append(body, jen.Id("out").Op(":=").Add(call))
	}
	if c.messages {
		body = append(body, jen.Return(jen.Op("&").Qual(runtimePath, "PromptResult").Values(jen.Dict{jen.Id("Messages"): jen.Id("out")}), jen.Nil()))
	} else {
		body = append(body, jen.Return(jen.Qual(runtimePath, "TextPrompt").Call(jen.Id("out")), jen.Nil()))
	}
	return jen.Func().Params(
		jen.Id(ctxName).Qual("context", "Context"),
		jen.Id("args").Map(jen.String()).String(),
	).Params(jen.Op("*").Qual(runtimePath, "PromptResult"), jen.Error()).Block(body...)
}
