package typeschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Error is a type or tag the rules cannot turn into a schema.
type Error struct {
	Pos  string // "file:line:col", or "" when the type has no source
	Path string // the Go path to the culprit: "WeatherInput.Days", "Tags[]"
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos != "" {
		b.WriteString(e.Pos)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Param is one argument of a tool whose function takes flat parameters.
type Param struct {
	Name string
	Type Type
	Pos  string
	// Keywords are what a struct field's jsonschema tag would say (the
	// same keys and values), given for the parameter some other way (a
	// //toolgen:param directive). A parameter is required unless a
	// keyword makes it optional, or gives it a default.
	Keywords []Keyword
}

// Keyword is one key=value (or bare key) of a parameter's keywords.
type Keyword struct {
	Key, Value string
	HasValue   bool
	Pos        string // where it is written, for errors
}

// ForType returns the schema of values of type t, as a document root: with
// "$schema", and with "$defs" when t involves recursive types. Named types
// are inlined; a type that contains itself is defined once in "$defs" (or,
// when it is t itself, referred to as "#").
func ForType(t Type) (*Schema, error) {
	b := newBuilder()
	s, err := b.schema(t, typeLabel(t), "", true)
	if err != nil {
		return nil, err
	}
	return b.root(s), nil
}

// ForOutput is [ForType] for a tool's result: the schema of what
// encoding/json writes for values of t. Where it can write null (a nil
// slice, map or pointer in a field without omitempty, an element or a map
// value) the schema allows null, so that a client checking a result
// against its output schema accepts every result the type can give.
func ForOutput(t Type) (*Schema, error) {
	b := newBuilder()
	b.output = true
	s, err := b.schema(t, typeLabel(t), "", true)
	if err != nil {
		return nil, err
	}
	return b.root(s), nil
}

// nilable reports whether encoding/json can write a value of t as null.
func nilable(t Type) bool {
	switch t.Kind() {
	case Slice, Map, Pointer:
		return true
	}
	return false
}

// orNull lets an output's nested schema be null when its type can be.
func (b *builder) orNull(s *Schema, t Type) *Schema {
	if b.output && nilable(t) {
		makeNullable(s)
	}
	return s
}

func (b *builder) params(params []Param) (*Schema, error) {
	s := &Schema{Type: []string{"object"}, Properties: []Property{}, NoAdditional: true}
	for _, p := range params {
		ps, err := b.schema(p.Type, p.Name, p.Pos, false)
		if err != nil {
			return nil, err
		}
		if ps.Description == "" && ps.Ref == "" {
			ps.Description = p.Type.Doc()
		}
		items := make([]tagItem, len(p.Keywords))
		for i, k := range p.Keywords {
			items[i] = tagItem{key: k.Key, value: k.Value, hasValue: k.HasValue, pos: k.Pos}
		}
		req, err := applyTags(ps, items, "//toolgen:param "+p.Name, p.Pos)
		if err != nil {
			return nil, err
		}
		b.document(ps, p.Pos, p.Name, "parameter")
		s.Properties = append(s.Properties, Property{Name: p.Name, Schema: ps})
		if req == nil && ps.Default == nil || req != nil && *req {
			s.Required = append(s.Required, p.Name)
		}
	}
	return s, nil
}

// document records a property without a description, when asked to.
func (b *builder) document(s *Schema, pos, path, what string) {
	if b.undocumented != nil && s.Description == "" && pos != "" {
		b.undocumented = append(b.undocumented, &Error{Pos: pos, Path: path, Msg: what + " without a description"})
	}
}

type builder struct {
	output bool // building a result's schema: see ForOutput
	// onField, when set, sees each property of the next object built (not
	// those of the objects nested in it): see ObjectFields.
	onField func(f jsonField, s *Schema)
	// undocumented, when not nil, collects the properties without a
	// description (see ForInput).
	undocumented []*Error
	// stack are the named types being built, innermost last, and onStack
	// the same by ID, so that a type met again is found at once however
	// deep the nesting.
	stack    []*frame
	onStack  map[any]*frame
	defs     []Def
	defByID  map[any]string
	idByName map[string]any
	// built, when not nil, keeps the schemas of named struct types whose
	// schema is the same wherever they are met (see Objects): each is
	// built once, however many objects hold one.
	built map[any]*Schema
}

// frame is a named type whose schema is being built.
type frame struct {
	id        any
	name      string
	depth     int  // its index in the stack
	root      bool // its schema is the document root
	recursive bool // it was met again while being built
	// outer is the depth of the outermost frame its schema refers to
	// (itself included), or -1 for a reference to a $defs entry: its
	// schema depends on where it is met unless outer == depth.
	outer int
}

func newBuilder() *builder {
	return &builder{onStack: map[any]*frame{}, defByID: map[any]string{}, idByName: map[string]any{}}
}

// refer records that the schema being built refers to the frame at depth
// (-1: a $defs entry).
func (b *builder) refer(depth int) {
	if n := len(b.stack); n > 0 {
		if top := b.stack[n-1]; depth < top.outer {
			top.outer = depth
		}
	}
}

func (b *builder) root(s *Schema) *Schema {
	if s.Raw != nil {
		// A verbatim object schema is the root as it is (a tool's input
		// must be "type": "object" at the top); $schema is added when it
		// has none.
		if obj, err := ParseObject(s.Raw); err == nil {
			if obj.Get("$schema") == nil {
				obj.Members = append([]Member{{Key: "$schema", Value: json.RawMessage(`"` + Draft + `"`)}}, obj.Members...)
			}
			raw, _ := obj.MarshalJSON()
			return &Schema{Raw: raw, Defs: nil}
		}
	}
	if s.Raw != nil || s.Ref != "" {
		// A root must be a schema object of its own to carry $schema.
		s = &Schema{AllOf: []*Schema{s}}
	}
	s.SchemaURI = Draft
	if len(b.defs) > 0 {
		s.Defs = b.defs
	}
	return s
}

// typeLabel starts the paths of errors: a named type's name (its Label,
// for a Type that is a [Labeler]), or nothing (the position says where an
// unnamed type is).
func typeLabel(t Type) string {
	if _, name, ok := t.Name(); ok {
		if l, ok := t.(Labeler); ok {
			return l.Label()
		}
		return name
	}
	return ""
}

// Labeler is a [Type] that names itself in the paths of errors otherwise
// than by its bare name: a generator names another package's types with
// their package's name, as its own messages do.
type Labeler interface {
	Label() string
}

func joinPath(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func (b *builder) errorf(pos, path, format string, args ...any) error {
	return &Error{Pos: pos, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// wrap places an error from a Type's Enum or Override: one that is already
// an *Error (positioned at a directive) stays as it is.
func (b *builder) wrap(pos, path string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		if e.Path == "" && e.Pos == "" {
			e.Path = path
		}
		return e
	}
	return b.errorf(pos, path, "%v", err)
}

// defName is the $defs key of a named type: its name, or its package's last
// path element and name when two packages' types share the name.
func (b *builder) defName(t Type) string {
	if n, ok := b.defByID[t.ID()]; ok {
		return n
	}
	pkg, name, _ := t.Name()
	key := name
	for n := 2; ; n++ {
		other, taken := b.idByName[key]
		if !taken || other == t.ID() {
			break
		}
		key = pkg[strings.LastIndexByte(pkg, '/')+1:] + "." + name
		if n > 2 {
			key += strconv.Itoa(n - 1)
		}
	}
	b.idByName[key] = t.ID()
	b.defByID[t.ID()] = key
	return key
}

// schema builds the schema of t; path and pos locate t for errors.
func (b *builder) schema(t Type, path, pos string, root bool) (*Schema, error) {
	pkg, name, named := t.Name()
	if !named && t.Kind() == Pointer {
		// A pointer is its element's JSON (or null, which is left out
		// unless the field is nullable).
		return b.schema(t.Elem(), path, pos, root)
	}
	if named {
		switch pkg + "." + name {
		case "time.Time":
			return &Schema{Type: []string{"string"}, Format: "date-time"}, nil
		case "time.Duration":
			return &Schema{Type: []string{"integer"}}, nil
		case "encoding/json.RawMessage":
			return &Schema{}, nil
		case "encoding/json.Number":
			return &Schema{Type: []string{"number"}}, nil
		}
		raw, err := t.Override()
		if err != nil {
			return nil, b.wrap(pos, path, err)
		}
		if raw != nil {
			if !json.Valid(raw) {
				return nil, b.errorf(pos, path, "the schema given for %s is not valid JSON", t)
			}
			return &Schema{Raw: raw}, nil
		}
		id := t.ID()
		if _, ok := b.defByID[id]; ok && !b.building(id) {
			b.refer(-1)
			return &Schema{Ref: "#/$defs/" + b.defByID[id]}, nil
		}
		if f := b.onStack[id]; f != nil {
			f.recursive = true
			b.refer(f.depth)
			if f.root {
				return &Schema{Ref: "#"}, nil
			}
			return &Schema{Ref: "#/$defs/" + b.defName(t)}, nil
		}
		if s, ok := b.built[id]; ok {
			return s.clone(), nil
		}
		vals, err := t.Enum()
		if err != nil {
			return nil, b.wrap(pos, path, err)
		}
		if vals != nil {
			return b.enum(t, vals, path, pos)
		}
	}

	jm, tm := t.Marshals()
	if !b.output {
		// An input is decoded: a type that decodes its JSON itself, or
		// from a string it does not encode to, has a form of its own
		// too (its fields are not what a call sends). A result is
		// encoded, by its fields when it has no MarshalJSON.
		ju, tu := t.Unmarshals()
		jm = jm || ju || tu && !tm
	}
	if jm {
		return nil, b.errorf(pos, path, "%s encodes or decodes its JSON itself (MarshalJSON, UnmarshalJSON, or UnmarshalText without MarshalText), so its JSON form is its own: describe it with a //toolgen:schema directive on the type", t)
	}
	if tm {
		return &Schema{Type: []string{"string"}}, nil
	}

	if !named {
		return b.structural(t, path, pos)
	}
	if t.Kind() == Struct {
		// The paths of errors in its fields start at the type, not at
		// the way to it, as their positions do: a field's error reads
		// the same from every tool and every field that reaches it, and
		// is reported once.
		path = typeLabel(t)
	}
	f := &frame{id: t.ID(), name: name, depth: len(b.stack), root: root}
	f.outer = f.depth
	b.stack = append(b.stack, f)
	b.onStack[f.id] = f
	s, err := b.structural(t, path, pos)
	b.stack = b.stack[:len(b.stack)-1]
	delete(b.onStack, f.id)
	b.refer(f.outer) // what f refers to, its container does
	if err == nil && b.built != nil && !f.recursive && f.outer == f.depth && t.Kind() == Struct {
		b.built[f.id] = s.clone() // one the caller may change
	}
	if err != nil || !f.recursive || f.root {
		return s, err
	}
	def := b.defName(t)
	b.defs = append(b.defs, Def{Name: def, Schema: s})
	b.refer(-1)
	return &Schema{Ref: "#/$defs/" + def}, nil
}

func (b *builder) building(id any) bool { return b.onStack[id] != nil }

func (b *builder) enum(t Type, vals []any, path, pos string) (*Schema, error) {
	k := t.Kind()
	var s *Schema
	switch {
	case k == String:
		s = &Schema{Type: []string{"string"}}
	case k.integer():
		s = &Schema{Type: []string{"integer"}}
	default:
		return nil, b.errorf(pos, path, "enum type %s must have a string or integer underlying type", t)
	}
	if len(vals) == 0 {
		return nil, b.errorf(pos, path, "enum type %s has no constants", t)
	}
	s.Enum = make([]json.RawMessage, 0, len(vals))
	for _, v := range vals {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, b.errorf(pos, path, "enum value %v of %s: %v", v, t, err)
		}
		s.Enum = append(s.Enum, raw)
	}
	return s, nil
}

// Bounds of the numeric types, as JSON numbers: every value a schema
// accepts must decode into the Go type, so that validating arguments is
// all it takes for a call to get past decoding them. The 64-bit integers
// (int, uint and uintptr too, so that the schema does not depend on the
// platform the generator ran on) carry no ±2⁶³ bounds, which clients and
// models read as floats and show wrong: the validator holds every integer
// schema to int64's range itself (compile.Int64Range). Unsigned types keep
// their minimum 0.
var numBounds = map[Kind][2]string{
	Int8:    {strconv.Itoa(math.MinInt8), strconv.Itoa(math.MaxInt8)},
	Int16:   {strconv.Itoa(math.MinInt16), strconv.Itoa(math.MaxInt16)},
	Int32:   {strconv.Itoa(math.MinInt32), strconv.Itoa(math.MaxInt32)},
	Uint8:   {"0", strconv.Itoa(math.MaxUint8)},
	Uint16:  {"0", strconv.Itoa(math.MaxUint16)},
	Uint32:  {"0", strconv.FormatUint(math.MaxUint32, 10)},
	Uint64:  {"0", ""},
	Uint:    {"0", ""},
	Uintptr: {"0", ""},
	Float32: {"-3.4028234663852886e+38", "3.4028234663852886e+38"},
}

// structural builds the schema from t's kind.
func (b *builder) structural(t Type, path, pos string) (*Schema, error) {
	switch k := t.Kind(); {
	case k == Bool:
		return &Schema{Type: []string{"boolean"}}, nil
	case k.integer():
		s := &Schema{Type: []string{"integer"}}
		if bounds, ok := numBounds[k]; ok {
			s.Minimum, s.Maximum = bounds[0], bounds[1]
		}
		return s, nil
	case k.float():
		s := &Schema{Type: []string{"number"}}
		if bounds, ok := numBounds[k]; ok {
			s.Minimum, s.Maximum = bounds[0], bounds[1]
		}
		return s, nil
	case k == String:
		return &Schema{Type: []string{"string"}}, nil
	case k == Pointer:
		return b.schema(t.Elem(), path, pos, false)
	case k == Interface:
		if !t.EmptyInterface() {
			return nil, b.errorf(pos, path, "unsupported type %s: only the empty interface (any) can be decoded from JSON", t)
		}
		return &Schema{}, nil
	case k == Slice:
		if t.Elem().Kind() == Uint8 {
			return &Schema{Type: []string{"string"}, Encoding: "base64"}, nil
		}
		items, err := b.schema(t.Elem(), path+"[]", pos, false)
		if err != nil {
			return nil, err
		}
		return &Schema{Type: []string{"array"}, Items: b.orNull(items, t.Elem())}, nil
	case k == Array:
		items, err := b.schema(t.Elem(), path+"[]", pos, false)
		if err != nil {
			return nil, err
		}
		items = b.orNull(items, t.Elem())
		n := t.Len()
		return &Schema{Type: []string{"array"}, Items: items, MinItems: &n, MaxItems: &n}, nil
	case k == Map:
		return b.mapSchema(t, path, pos)
	case k == Struct:
		return b.object(t, path)
	default:
		return nil, b.errorf(pos, path, "unsupported type %s: chan, func, complex and unsafe.Pointer values have no JSON form", t)
	}
}

func (b *builder) mapSchema(t Type, path, pos string) (*Schema, error) {
	s := &Schema{Type: []string{"object"}}
	key := t.Key()
	_, text := key.Marshals()
	switch k := key.Kind(); {
	case k == String, text:
	case k.integer():
		s.PropertyNames = &Schema{Pattern: "^-?[0-9]+$"}
		if k.unsigned() {
			s.PropertyNames.Pattern = "^[0-9]+$"
		}
	default:
		return nil, b.errorf(pos, path, "unsupported map key type %s: JSON object keys are strings, integers or encoding.TextMarshaler", key)
	}
	val, err := b.schema(t.Elem(), path+"[]", pos, false)
	if err != nil {
		return nil, err
	}
	s.AdditionalProperties = b.orNull(val, t.Elem())
	return s, nil
}

func (b *builder) object(t Type, path string) (*Schema, error) {
	onField := b.onField
	b.onField = nil
	s := &Schema{Type: []string{"object"}, Properties: []Property{}, NoAdditional: true}
	for _, f := range jsonFields(t) {
		fpath := joinPath(path, f.field.Name)
		items, skip, err := parseSchemaTag(f.field.Tag)
		if err != nil {
			return nil, b.errorf(tagPos(f.field), fpath, "%v", err)
		}
		if skip {
			continue
		}
		fs, err := b.schema(f.field.Type, fpath, f.field.Pos, false)
		if err != nil {
			return nil, err
		}
		if f.tag.asString {
			// The value's JSON, in a string: an enum's values so too
			// ("-1", and a string enum's "\"a\""), as encoding/json
			// writes them.
			str := &Schema{Type: []string{"string"}}
			for _, v := range fs.Enum {
				q, _ := json.Marshal(string(v))
				str.Enum = append(str.Enum, q)
			}
			fs = str
		}
		if f.field.Doc != "" {
			fs.Description = f.field.Doc
		} else if fs.Ref == "" && fs.Description == "" {
			ft := f.field.Type
			if ft.Kind() == Pointer {
				if _, _, named := ft.Name(); !named {
					ft = ft.Elem()
				}
			}
			fs.Description = ft.Doc()
		}
		// A result's field promoted through an embedded pointer is
		// absent when that pointer is nil: not required of what
		// encoding/json writes.
		required := !f.tag.omitEmpty && f.field.Type.Kind() != Pointer && !(b.output && f.viaPointer)
		if !f.tag.omitEmpty && !f.tag.asString {
			fs = b.orNull(fs, f.field.Type)
		}
		req, err := applyTags(fs, items, fpath, tagPos(f.field))
		if err != nil {
			return nil, err
		}
		b.document(fs, f.field.Pos, fpath, "field")
		if req != nil {
			required = *req
		}
		s.Properties = append(s.Properties, Property{Name: f.name, Schema: fs})
		if required {
			s.Required = append(s.Required, f.name)
		}
		if onField != nil {
			onField(f, fs)
		}
	}
	return s, nil
}

// ObjectField is a property of a struct type's object, with what a decoder
// needs to give it its default.
type ObjectField struct {
	Name string // the property
	// Path are the Go fields from the struct to the property's field:
	// the embedded structs it is promoted through, then the field.
	Path []Field
	// Index are the indexes of those fields, each in its struct.
	Index []int
	// AsString is set for a field with the json tag's ,string option: its
	// JSON is a string holding the value's JSON.
	AsString bool
	// Schema is the property's schema; its Default is the field's
	// default, if it has one.
	Schema *Schema
	// Pos locates the field's tag, else the field ("file:line:col").
	Pos string
}

// ObjectFields lists the properties of struct type t as the rules build
// its object: names, the Go fields behind them, and their schemas.
func ObjectFields(t Type) ([]ObjectField, error) {
	return NewObjects().Fields(t)
}

// Objects lists the properties of many struct types, as [ObjectFields]
// does for one, building the schema of each named struct type met in them
// once: listing every type of a chain of nested structs costs as much as
// listing its head. The schemas it returns share their nested schemas:
// they are for reading.
type Objects struct {
	b *builder
}

// NewObjects returns an empty Objects.
func NewObjects() *Objects {
	b := newBuilder()
	b.built = map[any]*Schema{}
	return &Objects{b: b}
}

// Fields lists the properties of struct type t.
func (o *Objects) Fields(t Type) ([]ObjectField, error) {
	var out []ObjectField
	b := o.b
	b.stack, b.defs = b.stack[:0], nil
	clear(b.onStack)
	clear(b.defByID)
	clear(b.idByName)
	b.onField = collectFields(t, &out)
	if _, err := b.object(t, typeLabel(t)); err != nil {
		return nil, err
	}
	return out, nil
}

// collectFields is the builder's onField that lists the properties of
// struct type t's object into out, as ObjectFields does.
func collectFields(t Type, out *[]ObjectField) func(jsonField, *Schema) {
	// The fields of the types on the way to each property, read once.
	fields := map[any][]Field{}
	fieldsOf := func(at Type) []Field {
		id := at.ID()
		fs, ok := fields[id]
		if !ok {
			fs = at.Fields()
			fields[id] = fs
		}
		return fs
	}
	return func(f jsonField, s *Schema) {
		path := make([]Field, len(f.index))
		at := t
		for i, x := range f.index {
			path[i] = fieldsOf(at)[x]
			if at = path[i].Type; at.Kind() == Pointer {
				at = at.Elem()
			}
		}
		*out = append(*out, ObjectField{Name: f.name, Path: path, Index: f.index, AsString: f.tag.asString, Schema: s, Pos: tagPos(f.field)})
	}
}

// ForInput builds a tool's input schema once for all the generator
// reads of it: for t, [ForType]'s schema and, when t is a struct type or
// a pointer to one, the properties of that struct's object as
// [ObjectFields] lists them; for params when t is nil, the object
// schema of those flat parameters: one property a parameter, in order,
// and no others. undocumented lists the properties without a
// description (from a doc comment, a tag or the type's doc) at any
// depth, each as an Error at its field: a model calling the tool has
// only the name to go by.
// Building a schema is the larger part of reading a tool, so it is done
// once (BENCHMARKS.md, "Generator"). The fields' schemas are the
// document's: they are for reading.
func ForInput(t Type, params []Param) (s *Schema, fields []ObjectField, undocumented []*Error, err error) {
	b := newBuilder()
	b.undocumented = []*Error{}
	if t == nil {
		s, err = b.params(params)
	} else {
		st := t
		if _, _, named := st.Name(); !named && st.Kind() == Pointer {
			st = st.Elem()
		}
		if st.Kind() == Struct {
			b.onField = collectFields(st, &fields)
		}
		s, err = b.schema(t, typeLabel(t), "", true)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return b.root(s), fields, b.undocumented, nil
}

func tagPos(f Field) string {
	if f.TagPos != "" {
		return f.TagPos
	}
	return f.Pos
}
