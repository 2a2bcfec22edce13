package gen

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// signature is a checked tool or prompt function: the model's call, and the
// go/types the loader builds schemas from.
type signature struct {
	call   *call
	input  types.Type   // the struct form's input type, without the pointer
	params []*types.Var // the flat form's parameters
	// keywords are the flat form's //toolgen:param keywords, by parameter.
	keywords map[string][]typeschema.Keyword
	resType  types.Type // the first result, unless it is the error
	fnType   *typeExpr  // the function's type, for its guard; nil when unwritable
}

const promptForm = "a prompt is func(ctx context.Context, in T) (string or []runtime.PromptMessage, error), T a struct of strings"

// checkSignature is the one signature checker, for tools and prompts: an
// optional context.Context first; then the struct form (one parameter, a
// struct or a pointer to one, whose fields are the arguments) or, for
// tools only, the flat form (each named parameter an argument); results
// (R, error), R, error or nothing, R saying how the result is shaped.
// Prompts take the struct form and return a string or
// []runtime.PromptMessage, with or without an error.
func (g *generator) checkSignature(fn *types.Func, pos token.Position, prompt bool, w *exprWriter) (*signature, bool) {
	sig := fn.Type().(*types.Signature)
	s := &signature{call: &call{fn: fn.Name()}}
	c := s.call
	bad := func(format string, args ...any) (*signature, bool) {
		if prompt {
			format, args = "%s", []any{promptForm}
		}
		g.errs.add(pos, "%s: "+format, append([]any{fn.Name()}, args...)...)
		return nil, false
	}
	if sig.Variadic() {
		return bad("variadic functions cannot be tools")
	}
	params := sig.Params()
	var rest []*types.Var
	for i := range params.Len() {
		if i == 0 && isNamed(params.At(0).Type(), "context", "Context") {
			c.ctx = true
			continue
		}
		rest = append(rest, params.At(i))
	}
	switch {
	case len(rest) == 1 && isStructInput(rest[0].Type()):
		t := types.Unalias(rest[0].Type())
		if p, ok := t.(*types.Pointer); ok {
			c.inPtr = true
			t = p.Elem()
		}
		s.input = t
	case prompt:
		return bad("")
	default:
		for i, p := range rest {
			if p.Name() == "" || p.Name() == "_" {
				return bad("parameter %d (%s) has no name: a flat-parameter tool names each argument after its parameter", params.Len()-len(rest)+i+1, typeString(p.Type(), fn.Pkg()))
			}
			if isNamed(p.Type(), "context", "Context") {
				return bad("context.Context must be the first parameter")
			}
		}
		s.params = rest
	}

	res := sig.Results()
	errType := types.Universe.Lookup("error").Type()
	switch res.Len() {
	case 0:
	case 1:
		if types.Identical(res.At(0).Type(), errType) {
			c.err = true
		} else {
			s.resType = res.At(0).Type()
		}
	case 2:
		if !types.Identical(res.At(1).Type(), errType) {
			return bad("the second result must be error, not %s", typeString(res.At(1).Type(), fn.Pkg()))
		}
		s.resType, c.err = res.At(0).Type(), true
	default:
		return bad("a tool returns (R, error), R, error or nothing; this one returns %d results", res.Len())
	}
	c.result = classify(s.resType, prompt)
	switch {
	case prompt && c.result != resultText && c.result != resultMessages:
		return bad("")
	case c.result == resultNone && s.resType != nil:
		return bad("return *runtime.Result, not runtime.Result")
	case s.resType != nil && (isNamed(s.resType, "context", "Context") || types.Identical(s.resType, errType)):
		return bad("cannot return %s as a result", typeString(s.resType, fn.Pkg()))
	}
	return s, g.renderSignature(s, fn, pos, w, prompt)
}

// renderSignature writes the Go types a handler needs into the call: the
// input (for the flat form, a struct of the parameters, one field each) and
// the result, and for a tool the plans of its decoder and encoder.
func (g *generator) renderSignature(s *signature, fn *types.Func, pos token.Position, w *exprWriter, prompt bool) bool {
	c := s.call
	ok := true
	render := func(t types.Type) *typeExpr {
		e, writable := w.expr(t)
		if !writable {
			g.errs.add(pos, "%s: toolgen cannot write the type %s in the generated file", fn.Name(), typeString(t, fn.Pkg()))
			ok = false
		}
		return e
	}
	switch {
	case s.input != nil:
		c.in = render(s.input)
		if ok && !prompt { // a prompt's arguments are strings: DecodePromptArgs
			c.read = planOf(w, s.input, false)
		}
	case len(s.params) > 0:
		c.in = &typeExpr{kind: exprStruct}
		c.spread = paramFields(s.params)
		for i, p := range s.params {
			c.in.fields = append(c.in.fields, field{name: c.spread[i], typ: render(p.Type()), tag: fmt.Sprintf("json:%q", p.Name())})
		}
		if ok && !prompt {
			c.read = flatPlanOf(w, s.params, c.spread, c.in)
		}
	}
	if s.resType != nil {
		c.res = render(s.resType)
		if ok && c.result == resultStructured {
			c.write = planOf(w, s.resType, true)
		}
	}
	if e, writable := w.expr(fn.Type()); writable {
		s.fnType = e
	}
	return ok
}

// paramFields names the fields of the struct that flat parameters are
// decoded into: the parameter's name capitalised, or P1, P2... when that
// would not be unique.
func paramFields(params []*types.Var) []string {
	names := make([]string, len(params))
	used := map[string]bool{}
	for i, p := range params {
		n := capitalise(p.Name())
		if used[n] || !strings.ContainsAny(n[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			n = fmt.Sprintf("P%d", i+1)
			for used[n] {
				n += "_"
			}
		}
		used[n] = true
		names[i] = n
	}
	return names
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

// classify says how a result type becomes a tool's (or a prompt's) result;
// resultNone means it cannot.
func classify(t types.Type, prompt bool) resultKind {
	if t == nil {
		return resultNone
	}
	t = types.Unalias(t)
	if s, ok := t.(*types.Slice); ok {
		switch {
		case isNamed(s.Elem(), runtimePath, "Content") && !prompt:
			return resultContents
		case isNamed(s.Elem(), runtimePath, "PromptMessage") && prompt:
			return resultMessages
		}
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.String {
		return resultText
	}
	switch {
	case prompt, isNamed(t, runtimePath, "Result"):
		return resultNone
	case isNamed(t, runtimePath, "Content"):
		return resultContent
	}
	if p, ok := t.(*types.Pointer); ok && isNamed(p.Elem(), runtimePath, "Result") {
		return resultResult
	}
	return resultStructured
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// typeString renders t for messages as every message spells a type: the
// types of package own by their names alone, others' qualified by their
// packages' names.
func typeString(t types.Type, own *types.Package) string {
	return types.TypeString(t, qualifier(own))
}

// qualifier qualifies the types of packages other than own by their names.
func qualifier(own *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == own {
			return ""
		}
		return p.Name()
	}
}
