package gen

import (
	"go/types"
	"strings"
)

// exprWriter renders go/types types as typeExprs for the file generated into
// one package, and records the packages they refer to with the names the
// file will use: a package's own name, or an alias where the generating
// package already declares that name.
type exprWriter struct {
	pkg *types.Package // the generating package
	// taken reports whether the generating package itself (not a file
	// toolgen wrote) declares a name at package level.
	taken   func(name string) bool
	imports map[string]importName
}

func newExprWriter(pkg *types.Package, taken func(string) bool) *exprWriter {
	return &exprWriter{pkg: pkg, taken: taken, imports: map[string]importName{}}
}

// use records a package the file refers to and returns its typeExpr path.
func (w *exprWriter) use(path, name string) string {
	if w.pkg != nil && path == w.pkg.Path() {
		return path
	}
	if _, ok := w.imports[path]; !ok {
		in := importName{name: name}
		for w.taken != nil && w.taken(in.name) {
			in.name += "pkg"
			in.alias = true
		}
		w.imports[path] = in
	}
	return path
}

// expr renders t. ok is false when the generated file cannot write t: a
// type or field name unexported in another package, a package it may not
// import, an interface with methods, a type parameter.
func (w *exprWriter) expr(t types.Type) (*typeExpr, bool) {
	switch t := t.(type) {
	case *types.Alias:
		// Kept by name where it can be written: an embedded field is named
		// after the alias, not after the type it stands for.
		if e, ok := w.namedExpr(t.Obj(), t.TypeArgs()); ok {
			return e, true
		}
		return w.expr(types.Unalias(t))
	case *types.Named:
		return w.namedExpr(t.Obj(), t.TypeArgs())
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return named(w.use("unsafe", "unsafe"), "Pointer"), true
		}
		if t.Info()&types.IsUntyped != 0 {
			return nil, false
		}
		return named("", t.Name()), true
	case *types.Pointer:
		return w.wrap(exprPointer, t.Elem())
	case *types.Slice:
		return w.wrap(exprSlice, t.Elem())
	case *types.Array:
		e, ok := w.wrap(exprArray, t.Elem())
		if ok {
			e.len = t.Len()
		}
		return e, ok
	case *types.Map:
		k, ok1 := w.expr(t.Key())
		e, ok2 := w.wrap(exprMap, t.Elem())
		if !ok1 || !ok2 {
			return nil, false
		}
		e.key = k
		return e, true
	case *types.Chan:
		e, ok := w.wrap(exprChan, t.Elem())
		if ok {
			e.dir = map[types.ChanDir]chanDir{types.SendRecv: chanBoth, types.SendOnly: chanSend, types.RecvOnly: chanRecv}[t.Dir()]
		}
		return e, ok
	case *types.Interface:
		if t.Empty() {
			return &typeExpr{kind: exprAny}, true
		}
	case *types.Struct:
		return w.structExpr(t)
	case *types.Signature:
		if t.Recv() != nil || t.TypeParams() != nil {
			return nil, false
		}
		params, ok1 := w.tuple(t.Params())
		results, ok2 := w.tuple(t.Results())
		return &typeExpr{kind: exprFunc, params: params, results: results, variadic: t.Variadic()}, ok1 && ok2
	}
	return nil, false
}

func (w *exprWriter) wrap(kind typeKind, elem types.Type) (*typeExpr, bool) {
	e, ok := w.expr(elem)
	return &typeExpr{kind: kind, elem: e}, ok
}

func (w *exprWriter) tuple(t *types.Tuple) ([]*typeExpr, bool) {
	out := make([]*typeExpr, t.Len())
	for i := range t.Len() {
		e, ok := w.expr(t.At(i).Type())
		if !ok {
			return nil, false
		}
		out[i] = e
	}
	return out, true
}

// namedExpr writes a reference to a declared type (with type arguments).
func (w *exprWriter) namedExpr(obj *types.TypeName, targs *types.TypeList) (*typeExpr, bool) {
	pkg := obj.Pkg()
	if pkg == nil { // error, any
		return named("", obj.Name()), true
	}
	if obj.Parent() != pkg.Scope() {
		return nil, false // declared in a function
	}
	if pkg != w.pkg && (!obj.Exported() || pkg.Name() == "main" || !importable(w.pkg.Path(), pkg.Path())) {
		return nil, false
	}
	e := named(w.use(pkg.Path(), pkg.Name()), obj.Name())
	for i := range targs.Len() {
		a, ok := w.expr(targs.At(i))
		if !ok {
			return nil, false
		}
		e.args = append(e.args, a)
	}
	return e, true
}

// structExpr writes a struct type field for field. A struct type is
// identical to another only with the same field names (an unexported one
// belongs to its package), types, tags and embedding, so a field this
// package cannot name makes the struct unwritable.
func (w *exprWriter) structExpr(st *types.Struct) (*typeExpr, bool) {
	e := &typeExpr{kind: exprStruct}
	for i := range st.NumFields() {
		v := st.Field(i)
		if !v.Exported() && v.Pkg() != w.pkg {
			return nil, false
		}
		ft, ok := w.expr(v.Type())
		if !ok {
			return nil, false
		}
		f := field{typ: ft, tag: st.Tag(i), embedded: v.Embedded()}
		if !v.Embedded() {
			f.name = v.Name()
		} else if embeddedName(ft) != v.Name() {
			return nil, false
		}
		e.fields = append(e.fields, f)
	}
	return e, true
}

// embeddedName is the name of the field that embeds t: its type's name.
func embeddedName(t *typeExpr) string {
	if t.kind == exprPointer {
		t = t.elem
	}
	if t.kind != exprNamed {
		return ""
	}
	return t.name
}

// importable reports whether the package from may import path under Go's
// rule for internal packages: only from within the tree rooted at the
// parent of the last "internal" element.
func importable(from, path string) bool {
	i := strings.LastIndex("/"+path+"/", "/internal/")
	if i < 0 {
		return true
	}
	parent := "" // in the standard library: not for us
	if i > 0 {
		parent = path[:i-1]
	}
	return parent != "" && (from == parent || strings.HasPrefix(from, parent+"/"))
}
