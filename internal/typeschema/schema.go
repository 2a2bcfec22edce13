package typeschema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
)

// Draft is the dialect of every schema toolgen writes.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// Schema is a JSON Schema as toolgen builds it. It marshals its keywords in
// a fixed order, so the same schema always gives the same bytes.
//
// Numbers (bounds, multipleOf) are kept as their JSON text so that int64 and
// uint64 limits survive exactly. Values (enum, const, default, examples) are
// JSON text too.
type Schema struct {
	// Raw, when set, is a schema given verbatim (//toolgen:schema). Keywords
	// set beside it (a field's description, say) are merged into its object.
	Raw json.RawMessage

	SchemaURI   string // "$schema", on a root
	Ref         string
	Type        []string // one type, or two when nullable ("string", "null")
	Title       string
	Description string
	Format      string
	Encoding    string // contentEncoding
	Pattern     string
	Enum        []json.RawMessage
	Const       json.RawMessage

	Minimum, Maximum                   string
	ExclusiveMinimum, ExclusiveMaximum string
	MultipleOf                         string
	MinLength, MaxLength               *int64
	MinItems, MaxItems                 *int64
	UniqueItems                        bool

	Items *Schema
	// Properties is nil for a schema without the keyword and empty (not
	// nil) for an object with no properties.
	Properties           []Property
	Required             []string
	AdditionalProperties *Schema
	NoAdditional         bool // "additionalProperties": false
	PropertyNames        *Schema
	AnyOf                []*Schema
	AllOf                []*Schema

	Default    json.RawMessage
	Examples   []json.RawMessage
	Deprecated bool

	Defs []Def
}

// Property is one entry of "properties".
type Property struct {
	Name   string
	Schema *Schema
}

// Def is one entry of "$defs".
type Def = Property

// clone returns a copy of s that can be changed where a schema's own
// keywords are (its nested schemas are shared with s).
func (s *Schema) clone() *Schema {
	c := *s
	c.Type = slices.Clip(c.Type)
	c.Enum = slices.Clip(c.Enum)
	c.Properties = slices.Clip(c.Properties)
	c.Required = slices.Clip(c.Required)
	c.AnyOf = slices.Clip(c.AnyOf)
	c.AllOf = slices.Clip(c.AllOf)
	c.Examples = slices.Clip(c.Examples)
	c.Defs = slices.Clip(c.Defs)
	return &c
}

// MarshalJSON writes s compactly, keywords in a fixed order.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Indent returns s as indented JSON (tab-indented, for generated code).
func (s *Schema) Indent() ([]byte, error) {
	raw, err := s.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "\t"); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type objWriter struct {
	b     *bytes.Buffer
	first bool
	err   error
}

func (w *objWriter) key(k string) {
	if !w.first {
		w.b.WriteByte(',')
	}
	w.first = false
	writeString(w.b, k)
	w.b.WriteByte(':')
}

func (w *objWriter) str(k, v string) {
	if v != "" {
		w.key(k)
		writeString(w.b, v)
	}
}

func (w *objWriter) num(k, v string) {
	if v != "" {
		w.key(k)
		w.b.WriteString(v)
	}
}

func (w *objWriter) int(k string, v *int64) {
	if v != nil {
		w.key(k)
		w.b.WriteString(strconv.FormatInt(*v, 10))
	}
}

func (w *objWriter) flag(k string, v bool) {
	if v {
		w.key(k)
		w.b.WriteString("true")
	}
}

func (w *objWriter) raw(k string, v json.RawMessage) {
	if v != nil {
		w.key(k)
		w.b.Write(v)
	}
}

func (w *objWriter) schema(k string, s *Schema) {
	if s != nil {
		w.key(k)
		w.sub(s)
	}
}

// sub writes a subschema in place.
func (w *objWriter) sub(s *Schema) {
	if w.err == nil {
		w.err = s.write(w.b)
	}
}

// seq writes key and a sequence of n items between open and close.
func (w *objWriter) seq(k string, open, close byte, n int, item func(i int)) {
	w.key(k)
	w.b.WriteByte(open)
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
		}
		item(i)
	}
	w.b.WriteByte(close)
}

// schemas writes a list of subschemas (anyOf, allOf), when there is one.
func (w *objWriter) schemas(k string, list []*Schema) {
	if list != nil {
		w.seq(k, '[', ']', len(list), func(i int) { w.sub(list[i]) })
	}
}

// members writes named subschemas as an object (properties, $defs).
func (w *objWriter) members(k string, list []Property) {
	w.seq(k, '{', '}', len(list), func(i int) {
		writeString(w.b, list[i].Name)
		w.b.WriteByte(':')
		w.sub(list[i].Schema)
	})
}

func (s *Schema) write(b *bytes.Buffer) error {
	if s.Raw != nil {
		return s.writeMerged(b)
	}
	b.WriteByte('{')
	w := &objWriter{b: b, first: true}
	s.writeKeywords(w)
	b.WriteByte('}')
	return w.err
}

// writeKeywords writes every keyword that is set, in the fixed order.
func (s *Schema) writeKeywords(w *objWriter) {
	w.str("$schema", s.SchemaURI)
	w.str("$ref", s.Ref)
	switch len(s.Type) {
	case 0:
	case 1:
		w.str("type", s.Type[0])
	default:
		w.seq("type", '[', ']', len(s.Type), func(i int) { writeString(w.b, s.Type[i]) })
	}
	w.str("title", s.Title)
	w.str("description", s.Description)
	if s.Enum != nil {
		w.seq("enum", '[', ']', len(s.Enum), func(i int) { w.b.Write(s.Enum[i]) })
	}
	w.raw("const", s.Const)
	w.str("format", s.Format)
	w.str("contentEncoding", s.Encoding)
	w.str("pattern", s.Pattern)
	w.int("minLength", s.MinLength)
	w.int("maxLength", s.MaxLength)
	w.num("minimum", s.Minimum)
	w.num("maximum", s.Maximum)
	w.num("exclusiveMinimum", s.ExclusiveMinimum)
	w.num("exclusiveMaximum", s.ExclusiveMaximum)
	w.num("multipleOf", s.MultipleOf)
	w.schema("items", s.Items)
	w.int("minItems", s.MinItems)
	w.int("maxItems", s.MaxItems)
	w.flag("uniqueItems", s.UniqueItems)
	if s.Properties != nil {
		w.members("properties", s.Properties)
	}
	if s.Required != nil {
		w.seq("required", '[', ']', len(s.Required), func(i int) { writeString(w.b, s.Required[i]) })
	}
	if s.NoAdditional {
		w.key("additionalProperties")
		w.b.WriteString("false")
	} else {
		w.schema("additionalProperties", s.AdditionalProperties)
	}
	w.schema("propertyNames", s.PropertyNames)
	w.schemas("anyOf", s.AnyOf)
	w.schemas("allOf", s.AllOf)
	w.raw("default", s.Default)
	if s.Examples != nil {
		w.seq("examples", '[', ']', len(s.Examples), func(i int) { w.b.Write(s.Examples[i]) })
	}
	w.flag("deprecated", s.Deprecated)
	if s.Defs != nil {
		w.members("$defs", s.Defs)
	}
}

// writeMerged writes a verbatim schema with the keywords set beside it: the
// raw object's keys first, in its order, except those the keywords replace.
func (s *Schema) writeMerged(b *bytes.Buffer) error {
	extra := *s
	extra.Raw = nil
	var kw bytes.Buffer
	kw.WriteByte('{')
	w := &objWriter{b: &kw, first: true}
	extra.writeKeywords(w)
	kw.WriteByte('}')
	if w.err != nil {
		return w.err
	}
	if kw.Len() == 2 {
		return json.Compact(b, s.Raw)
	}
	base, err := ParseObject(s.Raw)
	if err != nil {
		// Not an object (true, false): the keywords cannot be merged into
		// it, so combine the two.
		b.WriteString(`{"allOf":[`)
		if err := json.Compact(b, s.Raw); err != nil {
			return err
		}
		b.WriteByte(',')
		b.Write(kw.Bytes())
		b.WriteString(`]}`)
		return nil
	}
	over, err := ParseObject(kw.Bytes())
	if err != nil {
		return err
	}
	for _, m := range over.Members {
		base.Set(m.Key, m.Value)
	}
	out, err := base.MarshalJSON()
	if err != nil {
		return err
	}
	b.Write(out)
	return nil
}

// writeString writes s as a JSON string without HTML escaping: schemas are
// read by programs and by people reviewing generated code, and "<" should
// read as "<".
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}
