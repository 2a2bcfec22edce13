package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// typeEnv gives go/types types to the schema rules (typeschema), with doc
// comments and toolgen directives read from source.
type typeEnv struct {
	// pkg is the package being read: messages name its types without
	// their package's name (see typeString).
	pkg  *types.Package
	fset *token.FileSet
	docs *docIndex
	errs *errs
	// cache of what a named type's declaration says, by its object.
	decls map[*types.TypeName]*namedInfo
	// read lists the named struct types whose fields the schema rules
	// read, in order, since the last call of structsRead: the types the
	// schemas describe field for field, which get guards.
	read     []*types.Named
	readKeys map[string]bool
	// ids are the types' IDs (their full type strings), and fields the
	// struct types' fields, each computed once: the schema rules ask for
	// them again at every step of a type's fields and nesting.
	ids    map[types.Type]string
	fields map[types.Type][]typeschema.Field
}

// namedInfo is what a named type's declaration adds to its type.
type namedInfo struct {
	doc      string
	enum     *directive
	override *directive

	// Computed once, on first use.
	enumDone bool
	enumVals []any
	enumErr  error
}

func newTypeEnv(fset *token.FileSet, docs *docIndex, e *errs) *typeEnv {
	return &typeEnv{fset: fset, docs: docs, errs: e, decls: map[*types.TypeName]*namedInfo{}, readKeys: map[string]bool{},
		ids: map[types.Type]string{}, fields: map[types.Type][]typeschema.Field{}}
}

func (env *typeEnv) of(t types.Type) typeschema.Type { return schemaType{types.Unalias(t), env} }

// structsRead returns the named struct types whose fields were read since
// the last call.
func (env *typeEnv) structsRead() []*types.Named {
	read := env.read
	env.read, env.readKeys = nil, map[string]bool{}
	return read
}

func (env *typeEnv) position(p token.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return env.errs.rel(env.fset.Position(p)).String()
}

// named reads the declaration of a named type once.
func (env *typeEnv) named(obj *types.TypeName) *namedInfo {
	if info, ok := env.decls[obj]; ok {
		return info
	}
	info := &namedInfo{}
	env.decls[obj] = info
	if env.inGOROOT(obj.Pos()) {
		// The standard library's types: their docs are written for Go
		// programmers (time.Time's runs to paragraphs), not for a tool's
		// caller, and they carry no directives. Their fields' docs are
		// read.
		return info
	}
	td, fset, ok := env.docs.typeDecl(obj.Pos(), obj.Name())
	if !ok {
		return info
	}
	info.doc = docText(td.doc)
	for _, d := range directives(fset, td.doc, env.errs) {
		switch d.name {
		case "enum":
			if d.args != "" {
				env.errs.add(d.pos, "//toolgen:enum takes no arguments")
			}
			info.enum = d
		case "schema":
			info.override = d
		default:
			misplaced(env.errs, d, "a type", "type directives: enum, schema")
		}
	}
	return info
}

// inGOROOT reports whether p is in the standard library's source: export
// data writes its root as "$GOROOT".
func (env *typeEnv) inGOROOT(p token.Pos) bool {
	name := env.fset.Position(p).Filename
	if strings.HasPrefix(name, "$GOROOT") {
		return true
	}
	root := goroot()
	return root != "" && strings.HasPrefix(name, filepath.Join(root, "src")+string(filepath.Separator))
}

// schemaType is a go/types type as the schema rules see it.
type schemaType struct {
	t   types.Type
	env *typeEnv
}

var basicKinds = map[types.BasicKind]typeschema.Kind{
	types.Bool: typeschema.Bool, types.Int: typeschema.Int, types.Int8: typeschema.Int8, types.Int16: typeschema.Int16,
	types.Int32: typeschema.Int32, types.Int64: typeschema.Int64, types.Uint: typeschema.Uint, types.Uint8: typeschema.Uint8,
	types.Uint16: typeschema.Uint16, types.Uint32: typeschema.Uint32, types.Uint64: typeschema.Uint64, types.Uintptr: typeschema.Uintptr,
	types.Float32: typeschema.Float32, types.Float64: typeschema.Float64, types.Complex64: typeschema.Complex,
	types.Complex128: typeschema.Complex, types.String: typeschema.String, types.UnsafePointer: typeschema.UnsafePointer,
}

func (g schemaType) Kind() typeschema.Kind {
	switch u := g.t.Underlying().(type) {
	case *types.Basic:
		return basicKinds[u.Kind()]
	case *types.Array:
		return typeschema.Array
	case *types.Slice:
		return typeschema.Slice
	case *types.Map:
		return typeschema.Map
	case *types.Struct:
		return typeschema.Struct
	case *types.Pointer:
		return typeschema.Pointer
	case *types.Interface:
		return typeschema.Interface
	case *types.Chan:
		return typeschema.Chan
	case *types.Signature:
		return typeschema.Func
	}
	return typeschema.Invalid
}

func (g schemaType) obj() *types.TypeName {
	if n, ok := g.t.(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj()
	}
	return nil
}

func (g schemaType) Name() (string, string, bool) {
	if o := g.obj(); o != nil {
		return o.Pkg().Path(), o.Name(), true
	}
	return "", "", false
}

func (g schemaType) sub(t types.Type) typeschema.Type { return g.env.of(t) }

func (g schemaType) Elem() typeschema.Type {
	switch u := g.t.Underlying().(type) {
	case *types.Array:
		return g.sub(u.Elem())
	case *types.Slice:
		return g.sub(u.Elem())
	case *types.Map:
		return g.sub(u.Elem())
	case *types.Pointer:
		return g.sub(u.Elem())
	}
	panic("Elem of " + g.t.String())
}

func (g schemaType) Key() typeschema.Type { return g.sub(g.t.Underlying().(*types.Map).Key()) }
func (g schemaType) Len() int64           { return g.t.Underlying().(*types.Array).Len() }

func (g schemaType) EmptyInterface() bool {
	return g.t.Underlying().(*types.Interface).Empty()
}

func (g schemaType) ID() any { return g.env.id(g.t) }

// id is t's ID: its type string, computed once.
func (env *typeEnv) id(t types.Type) string {
	id, ok := env.ids[t]
	if !ok {
		id = types.TypeString(t, nil)
		env.ids[t] = id
	}
	return id
}

func (g schemaType) String() string { return typeString(g.t, g.env.pkg) }

// Label starts the paths of errors in a named type's fields as messages
// spell the type (see typeschema's Labeler).
func (g schemaType) Label() string { return g.String() }

func (g schemaType) Fields() []typeschema.Field {
	if n, ok := g.t.(*types.Named); ok {
		if key := g.env.id(n); !g.env.readKeys[key] {
			g.env.readKeys[key] = true
			g.env.read = append(g.env.read, n)
		}
	}
	if fs, ok := g.env.fields[g.t]; ok {
		return fs
	}
	st := g.t.Underlying().(*types.Struct)
	fs := make([]typeschema.Field, st.NumFields())
	for i := range fs {
		v := st.Field(i)
		f := typeschema.Field{Name: v.Name(), Exported: v.Exported(), Embedded: v.Embedded(), Tag: st.Tag(i), Type: g.sub(v.Type()), Pos: g.env.position(v.Pos())}
		if decl, fset := g.env.docs.field(v.Pos(), v.Name()); decl != nil {
			f.Doc = fieldDoc(decl)
			if decl.Tag != nil && fset != nil {
				f.TagPos = g.env.errs.rel(fset.Position(decl.Tag.Pos())).String()
			}
		}
		fs[i] = f
	}
	g.env.fields[g.t] = fs
	return fs
}

// Marshals looks for MarshalJSON and MarshalText in the method set of the
// type or a pointer to it, as encoding/json does for addressable values.
func (g schemaType) Marshals() (bool, bool) {
	return g.hasCodec("MarshalJSON", true), g.hasCodec("MarshalText", true)
}

func (g schemaType) Unmarshals() (bool, bool) {
	return g.hasCodec("UnmarshalJSON", false), g.hasCodec("UnmarshalText", false)
}

// hasMethodNamed reports whether the type or a pointer to it has a method
// of that name.
func (g schemaType) hasMethodNamed(name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(g.t, true, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}

// hasCodec reports whether the type or a pointer to it has the method
// called name of json.Marshaler's shape, func() ([]byte, error), when
// marshal, else of json.Unmarshaler's, func([]byte) error (the text
// interfaces' are the same).
func (g schemaType) hasCodec(name string, marshal bool) bool {
	obj, _, _ := types.LookupFieldOrMethod(g.t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	bytesAt, errAt := sig.Params(), sig.Results()
	if marshal {
		bytesAt = sig.Results()
		if sig.Params().Len() != 0 || sig.Results().Len() != 2 {
			return false
		}
	} else if sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	bs, ok := bytesAt.At(0).Type().Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := bs.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte && types.Identical(errAt.At(errAt.Len()-1).Type(), types.Universe.Lookup("error").Type())
}

func (g schemaType) Doc() string {
	if o := g.obj(); o != nil {
		return g.env.named(o).doc
	}
	return ""
}

func (g schemaType) Enum() ([]any, error) {
	o := g.obj()
	if o == nil {
		return nil, nil
	}
	info := g.env.named(o)
	if info.enum == nil {
		return nil, nil
	}
	if !info.enumDone {
		info.enumVals, info.enumErr = g.enumValues(o, info.enum)
		info.enumDone = true
	}
	return info.enumVals, info.enumErr
}

// enumValues lists the constants of an enum type in declaration order.
func (g schemaType) enumValues(o *types.TypeName, d *directive) ([]any, error) {
	fail := func(format string, args ...any) error {
		return &typeschema.Error{Pos: g.env.errs.rel(d.pos).String(), Msg: fmt.Sprintf(format, args...)}
	}
	b, ok := g.t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsString|types.IsInteger) == 0 {
		return nil, fail("//toolgen:enum on %s: an enum's type must be a string or an integer", o.Name())
	}
	var consts []*types.Const
	scope := o.Pkg().Scope()
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), g.t) {
			consts = append(consts, c)
		}
	}
	if len(consts) == 0 {
		return nil, fail("//toolgen:enum on %s: the package declares no constants of type %s", o.Name(), o.Name())
	}
	sort.Slice(consts, func(i, j int) bool {
		a, b := g.env.fset.Position(consts[i].Pos()), g.env.fset.Position(consts[j].Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	vals := make([]any, 0, len(consts))
	seen := map[string]bool{}
	for _, c := range consts {
		var v any
		switch c.Val().Kind() {
		case constant.String:
			v = constant.StringVal(c.Val())
		case constant.Int:
			if i, exact := constant.Int64Val(c.Val()); exact {
				v = i
			} else {
				u, _ := constant.Uint64Val(c.Val())
				v = u
			}
		}
		key := c.Val().ExactString()
		if seen[key] {
			continue // an alias of an earlier constant
		}
		seen[key] = true
		vals = append(vals, v)
	}
	return vals, nil
}

func (g schemaType) Override() (json.RawMessage, error) {
	o := g.obj()
	if o == nil {
		return nil, nil
	}
	d := g.env.named(o).override
	if d == nil {
		return nil, nil
	}
	pos := g.env.errs.rel(d.at(0)).String()
	if d.args == "" {
		return nil, &typeschema.Error{Pos: pos, Msg: "//toolgen:schema needs a JSON Schema: //toolgen:schema {\"type\":\"string\"}"}
	}
	raw := []byte(d.args)
	if err := checkSchema(raw); err != nil {
		return nil, &typeschema.Error{Pos: pos, Msg: "//toolgen:schema: " + err.Error()}
	}
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return b.Bytes(), nil
}
