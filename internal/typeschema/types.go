package typeschema

import "encoding/json"

// Kind is the kind of a Go type, as the rules distinguish them.
type Kind int

// Kinds. Named types have the kind of their underlying type.
const (
	Invalid Kind = iota
	Bool
	Int
	Int8
	Int16
	Int32
	Int64
	Uint
	Uint8
	Uint16
	Uint32
	Uint64
	Uintptr
	Float32
	Float64
	Complex
	String
	Array
	Slice
	Map
	Struct
	Pointer
	Interface
	Chan
	Func
	UnsafePointer
)

func (k Kind) integer() bool  { return k >= Int && k <= Uintptr }
func (k Kind) unsigned() bool { return k >= Uint && k <= Uintptr }
func (k Kind) float() bool    { return k == Float32 || k == Float64 }

// Type is what the rules need to know of a Go type. The generator implements
// it over go/types, the runtime over reflect.
type Type interface {
	Kind() Kind
	// Name returns a defined type's package path and name; ok is false for
	// unnamed types (and for predeclared ones such as string).
	Name() (pkgPath, name string, ok bool)
	// Elem is the element type of an array, slice, map or pointer.
	Elem() Type
	// Key is a map's key type.
	Key() Type
	// Len is an array's length.
	Len() int64
	// Fields are a struct's fields in declaration order.
	Fields() []Field
	// EmptyInterface reports whether an interface type has no methods.
	EmptyInterface() bool
	// Marshals reports whether the type (or a pointer to it) implements
	// json.Marshaler, and whether it implements encoding.TextMarshaler.
	Marshals() (json, text bool)
	// Unmarshals reports whether the type (or a pointer to it) implements
	// json.Unmarshaler, and whether it implements encoding.TextUnmarshaler:
	// what decoding it (an input) goes by.
	Unmarshals() (json, text bool)
	// Key returns a comparable value that is equal for identical types.
	ID() any
	// String names the type in messages.
	String() string

	// What source or the type itself adds. From reflect these come from the
	// ToolgenEnum and ToolgenSchema methods; docs only exist in source.

	// Doc is the type's doc comment, or "".
	Doc() string
	// Enum returns the values of an enum type (//toolgen:enum) in order, as
	// Go values (string, int64, uint64), or nil.
	Enum() ([]any, error)
	// Override returns the schema given verbatim for the type
	// (//toolgen:schema), or nil.
	Override() (json.RawMessage, error)
}

// Field is one field of a struct type.
type Field struct {
	Name     string
	Exported bool
	Embedded bool
	Tag      string // the raw struct tag
	Type     Type
	// Doc is the field's doc or line comment, or "".
	Doc string
	// Pos and TagPos locate the field and its tag for error messages
	// ("file:line:col"); "" when unknown.
	Pos, TagPos string
}
