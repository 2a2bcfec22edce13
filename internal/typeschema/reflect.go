package typeschema

import (
	"encoding"
	"encoding/json"
	"reflect"
)

// Enumerated is implemented by types that list their values, the run-time
// counterpart of a //toolgen:enum directive. The result is the enum, in
// order.
type Enumerated interface {
	ToolgenEnum() []any
}

// Schemaed is implemented by types that give their own JSON Schema, the
// run-time counterpart of a //toolgen:schema directive.
type Schemaed interface {
	ToolgenSchema() json.RawMessage
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	// A type that decodes itself has a JSON form of its own too.
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	enumerated      = reflect.TypeFor[Enumerated]()
	schemaed        = reflect.TypeFor[Schemaed]()
)

// Reflect returns t as a [Type] for the rules. Reflection sees no doc
// comments or directives; enums and verbatim schemas come from the
// [Enumerated] and [Schemaed] methods.
func Reflect(t reflect.Type) Type { return reflectType{t} }

type reflectType struct{ t reflect.Type }

var reflectKinds = map[reflect.Kind]Kind{
	reflect.Bool: Bool, reflect.Int: Int, reflect.Int8: Int8, reflect.Int16: Int16, reflect.Int32: Int32, reflect.Int64: Int64,
	reflect.Uint: Uint, reflect.Uint8: Uint8, reflect.Uint16: Uint16, reflect.Uint32: Uint32, reflect.Uint64: Uint64, reflect.Uintptr: Uintptr,
	reflect.Float32: Float32, reflect.Float64: Float64, reflect.Complex64: Complex, reflect.Complex128: Complex,
	reflect.String: String, reflect.Array: Array, reflect.Slice: Slice, reflect.Map: Map, reflect.Struct: Struct,
	reflect.Pointer: Pointer, reflect.Interface: Interface, reflect.Chan: Chan, reflect.Func: Func, reflect.UnsafePointer: UnsafePointer,
}

func (r reflectType) Kind() Kind { return reflectKinds[r.t.Kind()] }

func (r reflectType) Name() (string, string, bool) {
	if r.t.Name() == "" || r.t.PkgPath() == "" {
		return "", "", false
	}
	return r.t.PkgPath(), r.t.Name(), true
}

func (r reflectType) Elem() Type           { return reflectType{r.t.Elem()} }
func (r reflectType) Key() Type            { return reflectType{r.t.Key()} }
func (r reflectType) Len() int64           { return int64(r.t.Len()) }
func (r reflectType) EmptyInterface() bool { return r.t.NumMethod() == 0 }
func (r reflectType) ID() any              { return r.t }
func (r reflectType) String() string       { return r.t.String() }
func (r reflectType) Doc() string          { return "" }

func (r reflectType) Fields() []Field {
	fs := make([]Field, r.t.NumField())
	for i := range fs {
		sf := r.t.Field(i)
		fs[i] = Field{Name: sf.Name, Exported: sf.IsExported(), Embedded: sf.Anonymous, Tag: string(sf.Tag), Type: reflectType{sf.Type}}
	}
	return fs
}

func (r reflectType) implements(iface reflect.Type) bool {
	return r.t.Implements(iface) || (r.t.Kind() != reflect.Pointer && reflect.PointerTo(r.t).Implements(iface))
}

func (r reflectType) Marshals() (bool, bool) {
	return r.implements(jsonMarshaler), r.implements(textMarshaler)
}

func (r reflectType) Unmarshals() (bool, bool) {
	return r.implements(jsonUnmarshaler), r.implements(textUnmarshaler)
}

// value returns a value of r's type (or a pointer to one) that implements
// iface, for calling a method that ignores its receiver's contents.
func (r reflectType) value(iface reflect.Type) (any, bool) {
	switch {
	case r.t.Implements(iface):
		return reflect.Zero(r.t).Interface(), true
	case reflect.PointerTo(r.t).Implements(iface):
		return reflect.New(r.t).Interface(), true
	}
	return nil, false
}

func (r reflectType) Enum() ([]any, error) {
	v, ok := r.value(enumerated)
	if !ok {
		return nil, nil
	}
	vals := v.(Enumerated).ToolgenEnum()
	if vals == nil {
		vals = []any{}
	}
	return vals, nil
}

func (r reflectType) Override() (json.RawMessage, error) {
	v, ok := r.value(schemaed)
	if !ok {
		return nil, nil
	}
	return v.(Schemaed).ToolgenSchema(), nil
}
