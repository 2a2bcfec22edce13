package gen

import (
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"math/big"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/toolsyaml"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// Defaults are applied, not only documented: a property that a call leaves
// out gets its schema default before the handler runs. The generated code
// does it without reflection, in one of two ways:
//
//   - Prefilled: when every default of a tool's input is a plain value
//     (a number, string or bool) of a field reached through struct values,
//     the handler sets those fields before decoding the arguments into the
//     input, and decoding overwrites what the call gave.
//   - Given: otherwise the handler calls a generated function of the input
//     type after decoding, which decodes the arguments again into a
//     skeleton that records which properties the call gave (each a
//     json.RawMessage, nil when left out; a slice or map of them for
//     arrays and maps of objects) and sets each one left out. Objects
//     inside arrays, maps and pointers get their own functions, called for
//     each element, so that recursive types are covered too.
//
// A struct held by value gets the defaults of its fields even when the
// call leaves the whole object out (the Go value exists either way);
// through a pointer, only when the call gives the object.

// objDefaults is a struct type whose fields, or values inside them, have
// defaults.
type objDefaults struct {
	typ    *typeExpr // the struct type
	fields []*fieldDefault
	// fn is the function that applies them from the object's JSON
	// (named when the unit needs it, see unit.defaultFuncs).
	fn string
	// name is what fn is named after: the type's name, or a name made up
	// from the tool for a struct type without one.
	name string
	// what says what the object's JSON is, for fn's doc ("" for "the
	// JSON of a <name>").
	what string
	// settled is set once defaultSet.prune has pruned the fields.
	settled bool
}

// fieldDefault is one property of an object that has a default, or values
// with defaults inside it.
type fieldDefault struct {
	json string     // the property
	path []pathStep // the Go fields from the struct to it
	// value is the default, or nil. literal is its Go source when a plain
	// assignment sets it (rawJSON: a json.RawMessage of value); "" when
	// value is decoded into the field.
	value   json.RawMessage
	literal string
	rawJSON bool
	// decoded, when not nil, is what is decoded into the field in value's
	// stead: for a field with the ",string" option, the JSON inside
	// value's string (json.Unmarshal does not apply the option).
	decoded json.RawMessage
	below   *shape // the defaults inside the field's value, or nil
}

// decodedValue is the JSON decoded into the field when no literal sets it.
func (f *fieldDefault) decodedValue() json.RawMessage {
	if f.decoded != nil {
		return f.decoded
	}
	return f.value
}

// pathStep is a selector on the way to a field; a promoted field's path
// goes through the structs it is embedded in.
type pathStep struct {
	name string
	// alloc, for an embedded pointer, is the struct type to allocate when
	// it is nil and a default must be set through it.
	alloc *typeExpr
}

type shapeKind int

const (
	shapeStruct shapeKind = iota
	shapePointer
	shapeSlice
	shapeArray
	shapeMap
)

// shape is a Go value that holds objects with defaults: a struct, or a
// pointer, slice, array or map of such values.
type shape struct {
	kind shapeKind
	obj  *objDefaults // shapeStruct
	elem *shape
	key  *typeExpr // shapeMap
	len  int64     // shapeArray
}

// prefilled reports whether every default of obj can be set before
// decoding: plain values of fields reached through struct values.
func (o *objDefaults) prefilled() bool {
	for _, f := range o.fields {
		for _, s := range f.path[:len(f.path)-1] {
			if s.alloc != nil {
				return false
			}
		}
		if f.value != nil && (f.literal == "" || f.rawJSON) {
			return false
		}
		if f.below != nil && (f.below.kind != shapeStruct || f.value != nil || !f.below.obj.prefilled()) {
			return false
		}
	}
	return true
}

// defaultSet builds the defaults of one unit's tools, each struct type
// once.
type defaultSet struct {
	objs  map[string]*objDefaults // by type identity
	order []*objDefaults
	// pruned counts the objects of order that prune has settled.
	pruned int
}

func newDefaultSet() *defaultSet { return &defaultSet{objs: map[string]*objDefaults{}} }

// prune drops what leads to no default: the fields of objects that only
// lead to objects without any default they could reach.
//
// It runs after each tool's input is read, so it settles only the objects
// added since the last run: an object's fields lead only to objects read
// with it or before it, and a settled object is live exactly when it kept
// a field. (Pruning everything each time made reading n tools O(n²).)
func (d *defaultSet) prune() {
	fresh := d.order[d.pruned:]
	live := map[*objDefaults]bool{}
	reaches := func(o *objDefaults) bool {
		if o.settled {
			return len(o.fields) > 0
		}
		return live[o]
	}
	for changed := true; changed; {
		changed = false
		for _, o := range fresh {
			if live[o] {
				continue
			}
			for _, f := range o.fields {
				if f.value != nil || f.below != nil && reaches(f.below.leaf()) {
					live[o], changed = true, true
					break
				}
			}
		}
	}
	for _, o := range fresh {
		var keep []*fieldDefault
		for _, f := range o.fields {
			if f.below != nil && !reaches(f.below.leaf()) {
				f.below = nil
			}
			if f.value != nil || f.below != nil {
				keep = append(keep, f)
			}
		}
		o.fields = keep
	}
	for _, o := range fresh {
		o.settled = true
	}
	d.pruned = len(d.order)
}

// leaf is the object a shape holds.
func (s *shape) leaf() *objDefaults {
	for s.kind != shapeStruct {
		s = s.elem
	}
	return s.obj
}

// nameDefaultFuncs names the functions that the unit's handlers need (see
// defaults.go), in the order they are first reached from the tools'
// inputs, each once, and lists them in u.defaultFuncs.
func (u *unit) nameDefaultFuncs() {
	used := map[string]bool{}
	var visit func(o *objDefaults)
	visit = func(o *objDefaults) {
		if o.fn != "" {
			return
		}
		o.fn = identPrefix + "Defaults" + o.name
		for n := 2; used[o.fn]; n++ {
			o.fn = identPrefix + "Defaults" + o.name + strconv.Itoa(n)
		}
		used[o.fn] = true
		u.defaultFuncs = append(u.defaultFuncs, o)
		for _, f := range o.fields {
			if f.below != nil {
				visit(f.below.leaf())
			}
		}
	}
	for _, t := range u.tools {
		if d := t.call.defaults; d != nil && !d.prefilled() {
			visit(d)
		}
	}
}

// Code-first: the defaults of go/types types, from the jsonschema tags the
// schema rules read.

// inputDefaults returns the defaults of a struct-form input type, or nil.
func (r *pkgReader) inputDefaults(t types.Type, base string) *objDefaults {
	s := r.shapeOf(t, base+"Input")
	r.defaults.prune()
	if s == nil || s.kind != shapeStruct || len(s.obj.fields) == 0 {
		return nil
	}
	return s.obj
}

// flatDefaults returns the defaults of flat parameters: the properties of
// the input schema built for them, the fields of the call's input struct.
func (r *pkgReader) flatDefaults(sig *signature, in *typeschema.Schema, base string) *objDefaults {
	o := &objDefaults{typ: sig.call.in, name: base + "Args", what: "the arguments of " + sig.call.fn}
	for i, p := range sig.params {
		f := &fieldDefault{json: p.Name(), path: []pathStep{{name: sig.call.spread[i]}}}
		if i < len(in.Properties) {
			f.value = in.Properties[i].Schema.Default
		}
		if f.value != nil {
			pos := r.g.env.position(p.Pos())
			for _, k := range sig.keywords[p.Name()] {
				if k.Key == "default" {
					pos = k.Pos
				}
			}
			if err := r.g.checkDefault(in.Properties[i].Schema); err != nil {
				r.g.errs.list = append(r.g.errs.list, &Error{Pos: parsePos(pos), Msg: fmt.Sprintf("//toolgen:param %s: default %s %v", p.Name(), f.value, err)})
				f.value = nil
			} else if f.literal = r.literal(p.Type(), f.value, false, pos); isZeroLiteral(f.literal) {
				f.value, f.literal = nil, ""
			}
		}
		f.below = r.shapeOf(p.Type(), base+sig.call.spread[i])
		o.fields = append(o.fields, f)
	}
	r.defaults.objs["flat "+base] = o
	r.defaults.order = append(r.defaults.order, o)
	r.defaults.prune()
	if len(o.fields) == 0 {
		return nil
	}
	return o
}

// shapeOf returns the shape of the values of t that hold objects, or nil
// for a type whose JSON the rules do not describe field by field (its
// own unmarshalling, a verbatim schema, a scalar). name names an unnamed
// struct type's function.
func (r *pkgReader) shapeOf(t types.Type, name string) *shape {
	t = types.Unalias(t)
	if r.opaque(t) {
		return nil
	}
	// A named container that holds itself with no struct between (type
	// List []List, type Tree map[string]Tree) would be walked for ever: a
	// cycle through a struct objOf stops (with a function that calls
	// itself), this one stops here. Its values hold no object but
	// through the cycle, so it has no shape.
	if n, ok := t.(*types.Named); ok && !isStructType(n) {
		if r.shaping[n] {
			return nil
		}
		if r.shaping == nil {
			r.shaping = map[*types.Named]bool{}
		}
		r.shaping[n] = true
		defer delete(r.shaping, n)
	}
	wrap := func(kind shapeKind, elem types.Type) *shape {
		e := r.shapeOf(elem, name+"Item")
		if e == nil {
			return nil
		}
		return &shape{kind: kind, elem: e}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return wrap(shapePointer, u.Elem())
	case *types.Slice:
		return wrap(shapeSlice, u.Elem())
	case *types.Array:
		s := wrap(shapeArray, u.Elem())
		if s != nil {
			s.len = u.Len()
		}
		return s
	case *types.Map:
		key, ok := r.w.expr(u.Key())
		s := wrap(shapeMap, u.Elem())
		if s == nil || !ok {
			return nil
		}
		s.key = key
		return s
	case *types.Struct:
		// A struct ends the containers' cycle: its fields start afresh
		// (a cycle through it objOf stops, by its memo), so that a named
		// container met again below it is walked, not taken for one that
		// holds itself.
		outer := r.shaping
		r.shaping = nil
		o := r.objOf(t, name)
		r.shaping = outer
		if o != nil {
			return &shape{kind: shapeStruct, obj: o}
		}
	}
	return nil
}

// opaque reports whether the rules treat t as a whole: a type with its own
// JSON or text (un)marshalling, or a verbatim //toolgen:schema.
func (r *pkgReader) opaque(t types.Type) bool {
	st := r.g.env.of(t).(schemaType)
	if j, txt := st.Marshals(); j || txt {
		return true
	}
	if st.hasMethodNamed("UnmarshalJSON") || st.hasMethodNamed("UnmarshalText") {
		return true
	}
	raw, _ := st.Override()
	return raw != nil
}

// objOf reads the defaults of struct type t, once a type.
func (r *pkgReader) objOf(t types.Type, name string) *objDefaults {
	key := types.TypeString(t, nil)
	if o, ok := r.defaults.objs[key]; ok {
		return o
	}
	typ, ok := r.w.expr(t)
	if !ok {
		return nil
	}
	if n, isNamed := t.(*types.Named); isNamed {
		name = capitalise(n.Obj().Name())
	}
	o := &objDefaults{typ: typ, name: name}
	r.defaults.objs[key] = o
	r.defaults.order = append(r.defaults.order, o)
	fields, built := r.inputFields[key]
	if !built {
		if r.objects == nil {
			r.objects = typeschema.NewObjects()
		}
		var err error
		if fields, err = r.objects.Fields(r.g.env.of(t)); err != nil {
			return o // reported with the schema
		}
	}
	for _, of := range fields {
		f := &fieldDefault{json: of.Name, value: of.Schema.Default}
		last := of.Path[len(of.Path)-1]
		ft := last.Type.(schemaType).t
		usable := true
		at := t
		for i, pf := range of.Path {
			step := pathStep{name: pf.Name}
			v := structField(at, of.Index[i])
			if v == nil || !v.Exported() && v.Pkg() != r.pkg.Types {
				usable = false // an unexported embedded struct of another package
			}
			if i < len(of.Path)-1 {
				at = types.Unalias(pf.Type.(schemaType).t)
				if p, isPtr := at.Underlying().(*types.Pointer); isPtr {
					at = types.Unalias(p.Elem())
					if step.alloc, ok = r.w.expr(at); !ok {
						usable = false
					}
					if !pf.Exported {
						r.undecodable(t, pf)
					}
				}
			}
			f.path = append(f.path, step)
		}
		if f.value != nil {
			if !usable {
				r.g.errs.list = append(r.g.errs.list, &Error{Pos: parsePos(of.Pos), Msg: fmt.Sprintf("%s: toolgen cannot set the default of %s through the unexported embedded field %s of another package", typeString(t, r.pkg.Types), of.Name, f.path[0].name)})
				continue
			}
			if err := r.g.checkDefault(of.Schema); err != nil {
				r.g.errs.list = append(r.g.errs.list, &Error{Pos: parsePos(of.Pos), Msg: fmt.Sprintf("%s.%s: jsonschema tag: default %s %v", typeString(t, r.pkg.Types), last.Name, of.Schema.Default, err)})
				continue
			}
			f.literal = r.literal(ft, f.value, of.AsString, of.Pos)
			if isZeroLiteral(f.literal) {
				f.value, f.literal = nil, "" // what decoding leaves anyway
			}
			var inner string
			if of.AsString && f.literal == "" && f.value != nil && json.Unmarshal(f.value, &inner) == nil {
				f.decoded = json.RawMessage(inner) // a *int's "3" is 3 to decode
			}
		}
		if !of.AsString && usable {
			f.below = r.shapeOf(ft, name+last.Name)
		}
		o.fields = append(o.fields, f)
	}
	return o
}

// undecodable reports the embedded pointer pf of struct type t, to an
// unexported struct: encoding/json cannot set it, so a call that gives
// any field promoted through it fails ("cannot set embedded pointer to
// unexported struct"), and t cannot be an input. Once a field.
func (r *pkgReader) undecodable(t types.Type, pf typeschema.Field) {
	if r.reported[pf.Pos] {
		return
	}
	if r.reported == nil {
		r.reported = map[string]bool{}
	}
	r.reported[pf.Pos] = true
	r.g.errs.list = append(r.g.errs.list, &Error{Pos: parsePos(pf.Pos), Msg: fmt.Sprintf("%s: the embedded *%s is a pointer to an unexported struct, which encoding/json cannot decode into: embed %s by value, or export it", typeString(t, r.pkg.Types), pf.Name, pf.Name)})
}

// structField returns the field of struct type t at index i.
func structField(t types.Type, i int) *types.Var {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

// literal is the Go source of a plain default of a field of type t: a
// number, string or bool of a type that decodes JSON the standard way.
// It returns "" for a default that must be decoded into the field.
func (r *pkgReader) literal(t types.Type, v json.RawMessage, asString bool, pos string) string {
	if ownJSON(t, false) {
		return ""
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return ""
	}
	if asString {
		var inner string
		if json.Unmarshal(v, &inner) != nil {
			return ""
		}
		v = json.RawMessage(inner)
	}
	lit, err := basicLiteral(b, v)
	if err != nil {
		r.g.errs.list = append(r.g.errs.list, &Error{Pos: parsePos(pos), Msg: fmt.Sprintf("default %s: %v", v, err)})
		return ""
	}
	return lit
}

// basicLiteral writes a JSON scalar as a Go constant of a basic type, and
// checks that the type can hold it (as the compiler would).
func basicLiteral(b *types.Basic, v json.RawMessage) (string, error) {
	var x any
	dec := json.NewDecoder(strings.NewReader(string(v)))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return "", err
	}
	var lit string
	switch x := x.(type) {
	case bool:
		if b.Info()&types.IsBoolean == 0 {
			return "", fmt.Errorf("is not a %s", b.Name())
		}
		lit = strconv.FormatBool(x)
	case string:
		if b.Info()&types.IsString == 0 {
			return "", fmt.Errorf("is not a %s", b.Name())
		}
		lit = strconv.Quote(x)
	case json.Number:
		if b.Info()&types.IsNumeric == 0 {
			return "", fmt.Errorf("is not a %s", b.Name())
		}
		// As gofmt writes a number: the exponent's e in lower case
		// (text pieces, such as a handler's prefilled defaults, are
		// not formatted again).
		lit = strings.Replace(x.String(), "E", "e", 1)
		if b.Info()&types.IsInteger != 0 {
			if r, ok := new(big.Rat).SetString(lit); ok && r.IsInt() {
				lit = r.Num().String()
			}
		}
	default:
		return "", fmt.Errorf("is not a %s", b.Name())
	}
	if _, err := types.Eval(token.NewFileSet(), nil, token.NoPos, b.Name()+"("+lit+")"); err != nil {
		return "", fmt.Errorf("does not fit %s", b.Name())
	}
	return lit, nil
}

// isZeroLiteral reports whether a literal is its type's zero value: a
// default that needs no code, since what a call leaves out stays zero.
func isZeroLiteral(lit string) bool {
	if lit == "false" || lit == `""` {
		return true
	}
	r, ok := new(big.Rat).SetString(lit)
	return ok && r.Sign() == 0
}

// checkDefault checks a field's default against the field's own schema,
// so that a default never gives the handler a value its arguments could
// not have. A schema that refers elsewhere ($ref) is not checked alone.
// Compiling a schema costs much more than the rest of reading a field, so
// a schema met before (the same field in other types) is not checked
// again: the schema holds the default, and the answer is the same.
func (g *generator) checkDefault(s *typeschema.Schema) error {
	raw, err := s.MarshalJSON()
	if err != nil || strings.Contains(string(raw), `"$ref"`) {
		return nil
	}
	if err, seen := g.defaultChecks[string(raw)]; seen {
		return err
	}
	err = nil
	if !knownValid(fastChecker(raw), s.Default) {
		if compiled, cerr := compileSchema(raw); cerr == nil {
			if verr := validateExample(compiled, s.Default); verr != nil {
				err = fmt.Errorf("does not match the field's schema: %v", verr)
			}
		}
	}
	if g.defaultChecks == nil {
		g.defaultChecks = map[string]error{}
	}
	g.defaultChecks[string(raw)] = err
	return err
}

// Schema-first: the defaults of a tools.yaml's Go types, from the
// properties' default keywords.

type yamlDefaults struct {
	decls map[string]*toolsyaml.Decl
	set   *defaultSet
	// bad lists the defaults no Go constant of their type can hold.
	bad []string
}

func newYAMLDefaults(decls []*toolsyaml.Decl) *yamlDefaults {
	y := &yamlDefaults{decls: map[string]*toolsyaml.Decl{}, set: newDefaultSet()}
	for _, d := range decls {
		y.decls[d.Name] = d
	}
	return y
}

// input returns the defaults of a tool's input type, or nil.
func (y *yamlDefaults) input(t *toolsyaml.Type) *objDefaults {
	s := y.shapeOf(t)
	y.set.prune()
	if s == nil || s.kind != shapeStruct || len(s.obj.fields) == 0 {
		return nil
	}
	return s.obj
}

func (y *yamlDefaults) shapeOf(t *toolsyaml.Type) *shape {
	wrap := func(kind shapeKind) *shape {
		if e := y.shapeOf(t.Elem); e != nil {
			return &shape{kind: kind, elem: e, key: named("", "string")}
		}
		return nil
	}
	switch t.Kind {
	case toolsyaml.KindPointer:
		return wrap(shapePointer)
	case toolsyaml.KindSlice:
		return wrap(shapeSlice)
	case toolsyaml.KindMap:
		return wrap(shapeMap)
	case toolsyaml.KindNamed:
		d := y.decls[t.Name]
		switch {
		case d == nil:
		case d.Kind == toolsyaml.DeclStruct:
			return &shape{kind: shapeStruct, obj: y.objOf(d)}
		case d.Kind == toolsyaml.DeclDefined:
			return y.shapeOf(d.Underlying)
		}
	}
	return nil
}

func (y *yamlDefaults) objOf(d *toolsyaml.Decl) *objDefaults {
	if o, ok := y.set.objs[d.Name]; ok {
		return o
	}
	o := &objDefaults{typ: named("", d.Name), name: d.Name}
	y.set.objs[d.Name] = o
	y.set.order = append(y.set.order, o)
	for _, fd := range d.Fields {
		f := &fieldDefault{json: fd.JSONName, path: []pathStep{{name: fd.Name}}, value: fd.Default}
		if f.value != nil {
			f.literal, f.rawJSON = y.literal(fd.Type, f.value)
			if isZeroLiteral(f.literal) {
				f.value, f.literal = nil, "" // what decoding leaves anyway
			}
			if f.value != nil && f.literal == "" && !f.rawJSON && y.scalar(fd.Type) {
				y.bad = append(y.bad, fmt.Sprintf("the default %s of %s.%s does not fit its Go type %s", f.value, d.Name, fd.Name, fd.Type))
				f.value = nil
			}
		}
		f.below = y.shapeOf(fd.Type)
		o.fields = append(o.fields, f)
	}
	return o
}

// scalar resolves a named type to the kind of its values.
func (y *yamlDefaults) scalar(t *toolsyaml.Type) bool {
	return y.basic(t) != nil
}

func (y *yamlDefaults) basic(t *toolsyaml.Type) *types.Basic {
	for t.Kind == toolsyaml.KindNamed {
		d := y.decls[t.Name]
		if d == nil || d.Underlying == nil {
			return nil
		}
		t = d.Underlying
	}
	switch t.Kind {
	case toolsyaml.KindString:
		return types.Typ[types.String]
	case toolsyaml.KindInt:
		return types.Typ[types.Int64]
	case toolsyaml.KindFloat:
		return types.Typ[types.Float64]
	case toolsyaml.KindBool:
		return types.Typ[types.Bool]
	}
	return nil
}

// literal is the Go source of a plain default of type t (a number,
// string or bool, of a named type too), or rawJSON for a json.RawMessage;
// neither for a default decoded into its field.
func (y *yamlDefaults) literal(t *toolsyaml.Type, v json.RawMessage) (string, bool) {
	if t.Kind == toolsyaml.KindRaw {
		return "", true
	}
	b := y.basic(t)
	if b == nil {
		return "", false
	}
	lit, err := basicLiteral(b, v)
	if err != nil {
		return "", false
	}
	return lit, false
}

// isStructType reports whether t's underlying type is a struct.
func isStructType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}
