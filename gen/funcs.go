package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/toolgen-go/toolgen/internal/policy"
	"github.com/toolgen-go/toolgen/internal/toolname"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// pkgReader reads one code-first package's tool and prompt functions into
// its unit.
type pkgReader struct {
	g   *generator
	pkg *packages.Package
	kit toolkit
	w   *exprWriter
	u   *unit

	toolNames   map[string]*tool
	promptNames map[string]*prompt
	funcGuards  []guard
	// receivers are the types whose methods are tools, by type: nil for
	// one that cannot have them (its error is reported once).
	receivers map[*types.Named]*receiver
	defaults  *defaultSet
	// shaping are the named types shapeOf is inside of, to stop at one
	// that holds itself.
	shaping map[*types.Named]bool
	// reported are the positions of the fields an error was reported at
	// once already.
	reported map[string]bool
	// objects lists the fields of the struct types defaults are read
	// from, each nested type's schema built once.
	objects *typeschema.Objects
	// resultSigs are the result parts of signatures, by output schema.
	resultSigs map[string]string
	// outputs are the output schemas built, by result type: tools often
	// share one (a package's tools all returning its Result type).
	outputs map[types.Type]builtSchema
	// inputFields are the properties of the struct types input schemas
	// were built for (inputSchema), by objOf's key: objOf reads a type's
	// defaults from them without building it a second time.
	inputFields map[string][]typeschema.ObjectField
	// decoders and encoders are the tools' decoders and encoders, by
	// type: tools of one input (result) type share one.
	decoders, encoders codecSet
}

// codecSet names the decoders (or encoders) of a package's tools: one for
// each type, declared with the first tool of that type and called by
// the others, so that a package whose tools share a result type (their
// package's Result, say) has one encoder for it, not one a tool.
type codecSet struct {
	first typeutil.Map // *codec, by type
}

// codec is a decoder or an encoder: its name, and whether tools other
// than the one that declares it call it.
type codec struct {
	name   string
	shared bool
}

// name is the codec of typ for a tool whose own would be named own, and
// whether the tool declares it. typ is nil for the flat form's input,
// which is the tool's own.
func (cs *codecSet) name(typ types.Type, own string) (*codec, bool) {
	if typ == nil {
		return &codec{name: own}, true
	}
	if first, ok := cs.first.At(typ).(*codec); ok {
		first.shared = true
		return first, false
	}
	c := &codec{name: own}
	cs.first.Set(typ, c)
	return c, true
}

// builtSchema is a schema as JSON, or why it could not be built.
type builtSchema struct {
	raw json.RawMessage
	err error
}

// outputSchema is the output schema of result type t, built once for the
// package. (Building it again for the same type would give the same
// schema and read the same struct types, whose guards are recorded the
// first time.)
func (r *pkgReader) outputSchema(t types.Type) (json.RawMessage, error) {
	if b, ok := r.outputs[t]; ok {
		return b.raw, b.err
	}
	var b builtSchema
	out, err := typeschema.ForOutput(r.g.env.of(t))
	if err == nil {
		b.raw, err = out.MarshalJSON()
	}
	b.err = err
	if r.outputs == nil {
		r.outputs = map[types.Type]builtSchema{}
	}
	r.outputs[t] = b
	return b.raw, b.err
}

// readFunc reads the tool or the prompt a function declares, if any.
func (r *pkgReader) readFunc(fd *ast.FuncDecl) {
	g := r.g
	d, examples, params := r.funcDirectives(fd)
	if d == nil {
		return
	}
	kind := d.name
	pos := r.pkg.Fset.Position(fd.Name.Pos())
	if fd.Recv != nil && kind == "prompt" {
		g.errs.add(pos, "//toolgen:prompt on method %s: prompts are top-level functions", fd.Name.Name)
		return
	}
	if fd.Type.TypeParams != nil {
		g.errs.add(pos, "//toolgen:%s on generic function %s: a %s's types must be known", kind, fd.Name.Name, kind)
		return
	}
	info, ok := r.funcInfo(d, fd)
	if !ok {
		return
	}
	fn, recv, ok := r.lookupFunc(fd, pos)
	if !ok {
		return
	}
	sig, ok := g.checkSignature(fn, pos, kind == "prompt", r.w)
	if !ok {
		return
	}
	if sig.keywords, ok = r.paramKeywords(sig, params, fd.Name.Name); !ok {
		return
	}
	paramTags(sig)
	in, input, undocumented, ok := r.inputSchema(sig, pos, fd.Name.Name)
	if !ok {
		return
	}
	base := capitalise(fd.Name.Name)
	guardFn := fn.Name()
	if recv != nil {
		sig.call.recv, sig.call.recvType = "t", recv.ptr
		base = capitalise(recv.name) + fd.Name.Name
		guardFn = "(*" + recv.name + ")." + fn.Name()
		sig.fnType = r.methodExprType(fn)
	}
	if kind == "tool" {
		if sig.input != nil {
			sig.call.defaults = r.inputDefaults(sig.input, base)
		} else if len(sig.params) > 0 {
			sig.call.defaults = r.flatDefaults(sig, in, base)
		}
	}
	if sig.fnType != nil {
		r.funcGuards = append(r.funcGuards, guard{typ: sig.fnType, fn: guardFn})
	}
	if kind == "prompt" {
		p := &prompt{name: info.name, title: info.title, description: info.description, pos: pos, call: sig.call, idents: promptIdents(base)}
		if p.args, ok = r.promptArgs(input, pos, fd.Name.Name); ok {
			r.addPrompt(p)
		}
		return
	}
	t := &tool{name: info.name, title: info.title, description: info.description, version: info.version,
		annotations: info.annotations, secrets: info.secrets, scopes: info.scopes, rate: info.rate, timeout: info.timeout, approval: info.approval, task: info.task, input: input, pos: pos, call: sig.call, toolkit: r.kit.name, recv: recv}
	if t.version == "" {
		t.version = r.kit.version
	}
	hint := ""
	switch sig.call.result {
	case resultStructured:
		var err error
		if t.output, err = r.outputSchema(sig.resType); err != nil {
			g.schemaError(pos, fd.Name.Name+" result", err)
			return
		}
	case resultText:
		hint = "string"
	case resultContent, resultContents, resultResult:
		hint = "content"
	}
	r.warnUndocumented(t, undocumented)
	t.idents = toolIdents(base, t.output != nil)
	t.examples = r.examples(t, examples)
	if len(bytes.TrimSpace(t.output)) > 0 {
		hint = r.resultSignature(t.output)
	}
	t.signature = typeschema.Signature(t.name, t.input, nil, hint)
	if prev, dup := r.toolNames[t.name]; dup {
		g.errs.add(t.pos, "duplicate tool name %q (also at %s)", t.name, g.errs.rel(prev.pos))
		return
	}
	r.toolNames[t.name] = t
	if t.call.read != nil {
		t.call.decode, t.call.declaresDecode = r.decoders.name(sig.input, t.idents.decode)
	}
	if t.call.write != nil {
		t.call.encode, t.call.declaresEncode = r.encoders.name(sig.resType, t.idents.encode)
	}
	r.u.tools = append(r.u.tools, t)
}

// lookupFunc finds the function a declaration declares; for a method, also
// its receiver type, which must be a named, non-generic type of the package
// without a Tools member of its own (toolgen declares (*T).Tools).
func (r *pkgReader) lookupFunc(fd *ast.FuncDecl, pos token.Position) (*types.Func, *receiver, bool) {
	if fd.Recv == nil {
		fn, ok := r.pkg.Types.Scope().Lookup(fd.Name.Name).(*types.Func)
		return fn, nil, ok
	}
	base := fd.Recv.List[0].Type
	for {
		switch e := base.(type) {
		case *ast.StarExpr:
			base = e.X
			continue
		case *ast.ParenExpr:
			base = e.X
			continue
		case *ast.IndexExpr, *ast.IndexListExpr:
			r.g.errs.add(pos, "//toolgen:tool on method %s of a generic type: a tool's types must be known", fd.Name.Name)
			return nil, nil, false
		}
		break
	}
	id, ok := base.(*ast.Ident)
	if !ok {
		return nil, nil, false
	}
	tn, ok := r.pkg.Types.Scope().Lookup(id.Name).(*types.TypeName)
	if !ok {
		return nil, nil, false
	}
	named, ok := types.Unalias(tn.Type()).(*types.Named)
	if !ok {
		return nil, nil, false
	}
	var fn *types.Func
	for m := range named.Methods() {
		if m.Name() == fd.Name.Name {
			fn = m
		}
	}
	if fn == nil {
		return nil, nil, false
	}
	if recv, seen := r.receivers[named]; seen {
		return fn, recv, recv != nil
	}
	r.receivers[named] = nil
	if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), false, r.pkg.Types, "Tools"); obj != nil {
		if at := r.pkg.Fset.Position(obj.Pos()); at.Filename != r.u.path && !generatedByToolgen(at.Filename) {
			r.g.errs.add(at, "%s has a Tools member, but toolgen declares (*%s).Tools for its //toolgen:tool methods: rename this one", named.Obj().Name(), named.Obj().Name())
			return nil, nil, false
		}
	}
	ptr, writable := r.w.expr(types.NewPointer(named))
	if !writable {
		return nil, nil, false
	}
	recv := &receiver{name: named.Obj().Name(), ptr: ptr}
	r.receivers[named] = recv
	r.u.receivers = append(r.u.receivers, recv)
	return fn, recv, true
}

// methodExprType is the type of the method expression (*T).M, for the
// guard on a tool method's signature; nil when the file cannot write it.
func (r *pkgReader) methodExprType(fn *types.Func) *typeExpr {
	sig := fn.Type().(*types.Signature)
	recv := sig.Recv().Type()
	if _, isPtr := recv.(*types.Pointer); !isPtr {
		recv = types.NewPointer(recv)
	}
	params := []*types.Var{types.NewParam(token.NoPos, nil, "", recv)}
	for p := range sig.Params().Variables() {
		params = append(params, p)
	}
	e, ok := r.w.expr(types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic()))
	if !ok {
		return nil
	}
	return e
}

// funcDirectives returns a function's //toolgen:tool or //toolgen:prompt
// directive (nil for none, or for both), its examples and its parameters'
// //toolgen:param directives, reporting directives that do not belong.
func (r *pkgReader) funcDirectives(fd *ast.FuncDecl) (*directive, []*directive, []*directive) {
	errs := &r.g.errs
	var main *directive
	var examples, params []*directive
	hasTool, both := false, false
	for _, d := range directives(r.pkg.Fset, fd.Doc, errs) {
		switch d.name {
		case "tool", "prompt":
			hasTool = hasTool || d.name == "tool"
			switch {
			case main == nil:
				main = d
			case main.name == d.name:
				errs.add(d.pos, "second //toolgen:%s on %s", d.name, fd.Name.Name)
			default:
				errs.add(d.pos, "%s is both a tool and a prompt", fd.Name.Name)
				both = true
			}
		case "example":
			examples = append(examples, d)
		case "param":
			params = append(params, d)
		default:
			misplaced(errs, d, "a function", "function directives: tool, example, param, prompt")
		}
	}
	if !hasTool {
		for _, d := range append(examples, params...) {
			errs.add(d.pos, "//toolgen:%s without //toolgen:tool on %s", d.name, fd.Name.Name)
		}
	}
	if both {
		return nil, nil, nil
	}
	return main, examples, params
}

// paramTags writes a flat-form parameter's //toolgen:param keywords into
// its field of the input struct as the jsonschema tag a struct field would
// carry (and omitempty for an optional one), so that the struct reads as
// the struct form of the same tool.
func paramTags(sig *signature) {
	for i, p := range sig.params {
		kws := sig.keywords[p.Name()]
		if len(kws) == 0 {
			continue
		}
		var items []string
		optional := false
		for _, k := range kws {
			item := k.Key
			if k.HasValue {
				item += "=" + strings.ReplaceAll(k.Value, ",", `\,`)
			}
			items = append(items, item)
			on := !k.HasValue || k.Value == "true"
			switch {
			case k.Key == "default", k.Key == "optional" && on:
				optional = true
			case k.Key == "required" && on:
				optional = false
			}
		}
		jsonTag := p.Name()
		if optional {
			jsonTag += ",omitempty"
		}
		sig.call.in.fields[i].tag = fmt.Sprintf("json:%q jsonschema:%q", jsonTag, strings.Join(items, ","))
	}
}

// paramKeywords reads //toolgen:param NAME key=value... directives: the
// schema keywords of a flat-form parameter, with the keys and values of a
// jsonschema tag (description="..." too), one directive a parameter.
func (r *pkgReader) paramKeywords(sig *signature, ds []*directive, fn string) (map[string][]typeschema.Keyword, bool) {
	if len(ds) == 0 {
		return nil, true
	}
	g := r.g
	if sig.input != nil || len(sig.params) == 0 {
		for _, d := range ds {
			g.errs.add(d.pos, "//toolgen:param on %s, which takes no flat parameters: describe a struct input's fields with doc comments and jsonschema tags", fn)
		}
		return nil, false
	}
	known := map[string]bool{}
	for _, p := range sig.params {
		known[p.Name()] = true
	}
	out := map[string][]typeschema.Keyword{}
	seen := map[string]*directive{}
	ok := true
	for _, d := range ds {
		args, err := splitArgs(d.args)
		if err != nil {
			g.argError(d, err)
			ok = false
			continue
		}
		if len(args) == 0 || args[0].hasValue {
			g.errs.add(d.at(0), "//toolgen:param needs the parameter's name: //toolgen:param NAME description=\"...\" [key=value...]")
			ok = false
			continue
		}
		name := args[0].key
		switch {
		case !known[name]:
			g.errs.add(d.at(0), "//toolgen:param %s: %s has no parameter %s", name, fn, name)
			ok = false
			continue
		case seen[name] != nil:
			g.errs.add(d.pos, "second //toolgen:param %s on %s (first at %s)", name, fn, g.errs.rel(seen[name].pos))
			ok = false
			continue
		}
		seen[name] = d
		kws := []typeschema.Keyword{}
		for _, a := range args[1:] {
			kws = append(kws, typeschema.Keyword{Key: a.key, Value: a.value, HasValue: a.hasValue, Pos: g.errs.rel(d.at(a.off)).String()})
		}
		out[name] = kws
	}
	return out, ok
}

// funcInfo is what a //toolgen:tool or //toolgen:prompt directive says,
// defaults filled in.
type funcInfo struct {
	name, title, description, version string
	annotations                       annotations
	secrets, scopes                   []string
	rate                              rateLimit
	timeout                           time.Duration
	approval                          string
	task                              string
}

// funcInfo reads the directive's arguments: a prompt takes name, title and
// description; a tool also a version and the hint flags.
func (r *pkgReader) funcInfo(d *directive, fd *ast.FuncDecl) (funcInfo, bool) {
	g := r.g
	info := funcInfo{name: snakeCase(fd.Name.Name)}
	values := map[string]*string{"name": &info.name, "title": &info.title, "description": &info.description}
	want := "name=, title=, description="
	var set map[string]bool
	var ok bool
	if d.name == "tool" {
		var secrets, scopes, rate, timeout, approval, task string
		values["version"] = &info.version
		values["secrets"] = &secrets
		values["scopes"] = &scopes
		values["ratelimit"] = &rate
		values["timeout"] = &timeout
		values["approval"] = &approval
		values["task"] = &task
		set, ok = g.directiveArgs(d, values, info.annotations.flags(), want+", version=, secrets=, scopes=, ratelimit=, timeout=, approval=, task=, readonly, destructive, idempotent, openworld, closedworld")
		if !g.checkHints(d, set) {
			ok = false
		}
		if set["secrets"] {
			var good bool
			info.secrets, good = g.listValues(d, secretList, secrets)
			ok = ok && good
		}
		if set["scopes"] {
			var good bool
			info.scopes, good = g.listValues(d, scopeList, scopes)
			ok = ok && good
		}
		if set != nil && !g.policyArgs(d, set, rate, timeout, approval, task, &info) {
			ok = false
		}
	} else {
		set, ok = g.directiveArgs(d, values, nil, want)
	}
	if set == nil {
		return info, false
	}
	if !toolname.Valid(info.name) {
		g.errs.add(d.pos, "//toolgen:%s: invalid %s name %q: use %s", d.name, d.name, info.name, toolname.Rule)
		ok = false
	}
	if info.description == "" {
		info.description = funcDescription(docText(fd.Doc), fd.Name.Name)
	}
	return info, ok
}

// listKind describes a comma-separated list argument of //toolgen:tool
// (secrets=, scopes=) for its checks and their messages.
type listKind struct {
	key         string // the argument: "secrets"
	noun, label string // an item in words and as a placeholder: "id", "ID"
	what        string // an item in an error: "secret id"
	rule        string // what an item may be
	valid       func(string) bool
}

var (
	secretList = listKind{key: "secrets", noun: "id", label: "ID", what: "secret id", rule: toolname.SecretRule, valid: toolname.ValidSecret}
	scopeList  = listKind{key: "scopes", noun: "scope", label: "SCOPE", what: "scope", rule: policy.ScopeRule, valid: policy.ValidScope}
)

// listValues reads the value of a list argument of //toolgen:tool: items
// separated by commas, each valid and given once. Errors point at the
// item when the value is written unquoted.
func (g *generator) listValues(d *directive, k listKind, value string) ([]string, bool) {
	valueOff, quoted := g.argValueOff(d, k.key)
	if valueOff < 0 {
		return nil, true // without a value: reported with the other arguments
	}
	var items []string
	ok := true
	seen := map[string]bool{}
	off := valueOff
	for _, item := range strings.Split(value, ",") {
		pos := d.at(off)
		if quoted {
			pos = d.at(valueOff)
		}
		off += len(item) + 1
		switch {
		case item == "":
			g.errs.add(pos, "//toolgen:tool: %s= has an empty %s: write %s=%s[,%s...]", k.key, k.noun, k.key, k.label, k.label)
			ok = false
		case !k.valid(item):
			g.errs.add(pos, "//toolgen:tool: invalid %s %q: use %s", k.what, item, k.rule)
			ok = false
		case seen[item]:
			g.errs.add(pos, "//toolgen:tool: %s %s given twice", strings.TrimSuffix(k.what, " id"), item)
			ok = false
		default:
			seen[item] = true
			items = append(items, item)
		}
	}
	return items, ok
}

// argValueOff returns the offset of key's value in the directive's
// arguments (-1 when it has none), and whether it is quoted.
func (g *generator) argValueOff(d *directive, key string) (int, bool) {
	args, err := splitArgs(d.args)
	if err != nil {
		return -1, false
	}
	for _, a := range args {
		if a.key == key && a.hasValue {
			off := a.off + len(key) + 1
			return off, strings.HasPrefix(d.args[off:], `"`)
		}
	}
	return -1, false
}

// policyArgs reads //toolgen:tool's ratelimit=, timeout=, approval= and task=,
// each checked as the runtime will read it, an error at the value.
func (g *generator) policyArgs(d *directive, set map[string]bool, rate, timeout, approval, task string, info *funcInfo) bool {
	ok := true
	// An argument without a value is reported with the other arguments.
	valued := func(key string) bool {
		off, _ := g.argValueOff(d, key)
		return set[key] && off >= 0
	}
	at := func(key string) token.Position {
		off, _ := g.argValueOff(d, key)
		return d.at(off)
	}
	if valued("ratelimit") {
		n, per, err := policy.ParseRate(rate)
		if err != nil {
			g.errs.add(at("ratelimit"), "//toolgen:tool: %v", err)
			ok = false
		}
		info.rate = rateLimit{n: n, per: per}
	}
	if valued("timeout") {
		d2, err := policy.ParseTimeout(timeout)
		if err != nil {
			g.errs.add(at("timeout"), "//toolgen:tool: %v", err)
			ok = false
		}
		info.timeout = d2
	}
	if valued("approval") {
		a, err := policy.ParseApproval(approval)
		if err != nil {
			g.errs.add(at("approval"), "//toolgen:tool: %v", err)
			ok = false
		}
		info.approval = a
	}
	if valued("task") {
		ts, err := policy.ParseTask(task)
		if err != nil {
			g.errs.add(at("task"), "//toolgen:tool: %v", err)
			ok = false
		}
		info.task = ts
	}
	return ok
}

// flags are //toolgen:tool's hint flags, each setting one annotation.
func (a *annotations) flags() map[string]func() {
	yes, no := true, false
	return map[string]func(){
		"readonly":    func() { a.readOnly = &yes },
		"destructive": func() { a.destructive = &yes },
		"idempotent":  func() { a.idempotent = &yes },
		"openworld":   func() { a.openWorld = &yes },
		"closedworld": func() { a.openWorld = &no },
	}
}

// checkHints reports hint flags that contradict each other.
func (g *generator) checkHints(d *directive, set map[string]bool) bool {
	ok := true
	for _, pair := range [][2]string{{"openworld", "closedworld"}, {"readonly", "destructive"}} {
		if set[pair[0]] && set[pair[1]] {
			g.errs.add(d.pos, "//toolgen:tool: %s and %s contradict each other", pair[0], pair[1])
			ok = false
		}
	}
	return ok
}

// params are the flat form's parameters for the schema rules.
func (r *pkgReader) params(sig *signature) []typeschema.Param {
	env := r.g.env
	params := make([]typeschema.Param, len(sig.params))
	for i, p := range sig.params {
		params[i] = typeschema.Param{Name: p.Name(), Type: env.of(p.Type()), Pos: env.position(p.Pos()), Keywords: sig.keywords[p.Name()]}
	}
	return params
}

// inputSchema is the JSON Schema of a function's arguments, and the
// arguments without a description (for warnUndocumented).
func (r *pkgReader) inputSchema(sig *signature, pos token.Position, fn string) (_ *typeschema.Schema, _ json.RawMessage, undocumented []*typeschema.Error, ok bool) {
	env := r.g.env
	var in *typeschema.Schema
	var err error
	var fields []typeschema.ObjectField
	if sig.input != nil {
		in, fields, undocumented, err = typeschema.ForInput(env.of(sig.input), nil)
		if fields != nil {
			st := types.Unalias(sig.input)
			if p, ok := st.(*types.Pointer); ok {
				st = types.Unalias(p.Elem())
			}
			if r.inputFields == nil {
				r.inputFields = map[string][]typeschema.ObjectField{}
			}
			r.inputFields[types.TypeString(st, nil)] = fields
		}
	} else {
		in, _, undocumented, err = typeschema.ForInput(nil, r.params(sig))
	}
	var raw json.RawMessage
	if err == nil {
		raw, err = in.MarshalJSON()
	}
	if err != nil {
		r.g.schemaError(pos, fn, err)
		return nil, nil, nil, false
	}
	return in, raw, undocumented, true
}

// warnUndocumented warns of a tool without a description, and of its
// arguments without one: a model has only their names to go by.
func (r *pkgReader) warnUndocumented(t *tool, undocumented []*typeschema.Error) {
	g := r.g
	if strings.TrimSpace(t.description) == "" {
		g.warn(t.pos, "tool %s has no description: write a doc comment on %s (or description=)", t.name, t.call.fn)
	}
	for _, e := range undocumented {
		msg := fmt.Sprintf("field %s has no description: write a doc comment on it (or description= in its jsonschema tag)", e.Path)
		if e.Msg == "parameter without a description" {
			msg = fmt.Sprintf("parameter %s of %s has no description: give it one with //toolgen:param %s description=\"...\"", e.Path, t.call.fn, e.Path)
		}
		g.warns.list = append(g.warns.list, &Error{Pos: parsePos(e.Pos), Msg: msg})
	}
}

// promptArgs lists a prompt's arguments from its input schema: all strings.
func (r *pkgReader) promptArgs(input json.RawMessage, pos token.Position, fn string) ([]promptArg, bool) {
	var args []promptArg
	ok := true
	for _, a := range typeschema.Arguments(input) {
		if !stringType(a.Type) {
			r.g.errs.add(pos, "%s: prompt argument %s is %s: prompt arguments are strings", fn, a.Name, a.Type)
			ok = false
			continue
		}
		args = append(args, promptArg{name: a.Name, description: a.Description, required: a.Required})
	}
	return args, ok
}

func (r *pkgReader) addPrompt(p *prompt) {
	if prev, dup := r.promptNames[p.name]; dup {
		r.g.errs.add(p.pos, "duplicate prompt name %q (also at %s)", p.name, r.g.errs.rel(prev.pos))
		return
	}
	r.promptNames[p.name] = p
	r.u.prompts = append(r.u.prompts, p)
}

// examples reads a tool's //toolgen:example directives; each is checked
// against the input schema beside the reading (see exampleChecker).
func (r *pkgReader) examples(t *tool, ds []*directive) []json.RawMessage {
	var out []json.RawMessage
	for _, d := range ds {
		raw := []byte(d.args)
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			r.g.errs.add(d.at(0), "//toolgen:example needs a JSON object of arguments: %s", jsonProblem(raw, err))
			continue
		}
		ex := compactJSON(raw)
		out = append(out, ex)
		r.g.examples.add(exampleCheck{tool: t.name, schema: t.input, example: ex, pos: d.at(0)})
	}
	return out
}

// structGuards are the guards of the named struct types the package's
// schemas describe field for field: each is written as the struct type it
// had, which stays assignable to it only while the field names, types,
// tags and embedding are the same. A type the generated file cannot write
// out (unexported fields in another package, say) gets none.
func (r *pkgReader) structGuards() []guard {
	var out []guard
	for _, n := range r.g.env.structsRead() {
		typ, ok1 := r.w.expr(n)
		st, ok2 := r.w.expr(n.Underlying())
		if ok1 && ok2 {
			out = append(out, guard{typ: typ, structure: st})
		}
	}
	return out
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

func compactJSON(raw []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// resultSignature is typeschema.Result of an output schema, rendered once
// for the tools of a package that share it (one result type, often).
func (r *pkgReader) resultSignature(output json.RawMessage) string {
	if sig, ok := r.resultSigs[string(output)]; ok {
		return sig
	}
	sig := typeschema.Result(output)
	r.resultSigs[string(output)] = sig
	return sig
}
