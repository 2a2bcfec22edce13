package toolsyaml

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// The Go side of schema-first tools: the types generated from the schemas.
// The mapping is deliberately conservative. A schema gets a Go type only
// where the type says the same as the schema; everything else is
// json.RawMessage. The runtime validates arguments with the original schema,
// so a Go type never has to carry a constraint (bounds, patterns) itself.

// TypeKind says what a Type is.
type TypeKind int

const (
	KindString  TypeKind = iota // string
	KindInt                     // int64
	KindFloat                   // float64
	KindBool                    // bool
	KindTime                    // time.Time (format: date-time)
	KindRaw                     // json.RawMessage
	KindNamed                   // a declared type, by Name
	KindSlice                   // []Elem
	KindMap                     // map[string]Elem
	KindPointer                 // *Elem, for a nullable value
)

// Type is a Go type expression.
type Type struct {
	Kind TypeKind
	Name string // KindNamed
	Elem *Type  // KindSlice, KindMap, KindPointer
}

// String renders the type as Go source, for messages and tests.
func (t *Type) String() string {
	switch t.Kind {
	case KindString:
		return "string"
	case KindInt:
		return "int64"
	case KindFloat:
		return "float64"
	case KindBool:
		return "bool"
	case KindTime:
		return "time.Time"
	case KindRaw:
		return "json.RawMessage"
	case KindNamed:
		return t.Name
	case KindSlice:
		return "[]" + t.Elem.String()
	case KindMap:
		return "map[string]" + t.Elem.String()
	case KindPointer:
		return "*" + t.Elem.String()
	}
	return "?"
}

// ZeroOmit reports whether encoding/json's omitempty cannot omit the type's
// zero value, so that an optional field of it needs omitzero.
func (t *Type) ZeroOmit() bool { return t.Kind == KindTime }

// DeclKind says what a Decl declares.
type DeclKind int

const (
	DeclStruct  DeclKind = iota // type N struct{...}
	DeclEnum                    // type N string|int64 with constants
	DeclDefined                 // type N <Underlying>
)

// Decl is a named type to declare.
type Decl struct {
	Name string
	Doc  string // the schema's description
	// Comment is the declaration's Go doc comment, a sentence that
	// starts with Name, from the description.
	Comment    string
	Alias      bool // DeclDefined: an alias (type N = T), so that a T is an N without conversion
	Kind       DeclKind
	Fields     []Field     // DeclStruct
	Underlying *Type       // DeclEnum, DeclDefined
	Values     []EnumValue // DeclEnum
}

// Field is a struct field.
type Field struct {
	Name     string // Go name
	JSONName string
	Doc      string
	Type     *Type
	Optional bool // not in required: omitempty (omitzero for structs and times)
	// Default is the property's default (checked against its schema), or
	// nil.
	Default json.RawMessage
}

// EnumValue is one constant of an enum type.
type EnumValue struct {
	Name    string          // Go name of the constant: type name + value
	Value   json.RawMessage // the JSON value, a string or an integer
	Comment string          // its Go doc comment
}

// Types is the Go model of a file's schemas.
type Types struct {
	Decls []*Decl // in a stable order: the file's $defs, then tools in file order, inputs before outputs, their $defs after them
	// Input and Output map a tool's name to the type of its arguments and
	// result; a tool without output has no Output entry.
	Input  map[string]*Type
	Output map[string]*Type
}

// GoTypes maps every schema of the file to Go types.
//
// Generated names never collide: each package-level name (a type, an enum
// constant) is taken once, the names the generated file's API promises
// first (Handlers, UnimplementedHandlers, Tools, Prompts, and each tool's
// Input and Output types), then in the file's order; a name already taken
// gets the lowest free numbered suffix (AInput2, or Reactions1_2 after a
// digit). Enum values and properties are named with their signs spelled
// out ("+1" → Plus1, "-1" → Minus1, "reactions--1" → ReactionsMinus1), and
// two that still share a Go name are numbered the same way within their
// enum or struct. The constant's doc comment quotes its value.
func GoTypes(f *File) (*Types, error) {
	m := &mapper{file: f.Path, taken: map[string]bool{}}
	ts := &Types{Input: map[string]*Type{}, Output: map[string]*Type{}}
	for _, name := range []string{"Handlers", "UnimplementedHandlers", "Tools", "Prompts"} {
		m.claim(name)
	}
	inNames, outNames := map[string]string{}, map[string]string{}
	for _, t := range f.Tools {
		inNames[t.Name] = m.claim(t.GoName + "Input")
		if t.Output != nil {
			outNames[t.Name] = m.claim(t.GoName + "Output")
		}
	}
	// The file's $defs: one type each, named after the def alone, which
	// every tool's references share.
	shared := map[string]string{}
	sharedNames := make([]string, len(f.Defs))
	for i, d := range f.Defs {
		sharedNames[i] = m.claim(GoName(d.Name))
		shared["#/$defs/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(d.Name)] = sharedNames[i]
	}
	m.defs = shared
	m.defNodes = map[string]*yaml.Node{}
	for _, d := range f.Defs {
		m.defNodes["#/$defs/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(d.Name)] = d.Node
	}
	sharedNodes := maps.Clone(m.defNodes)
	for i, d := range f.Defs {
		m.addEnumDef(sharedNames[i], d.Node)
	}
	sharedEnums := m.enumDefs
	for i, d := range f.Defs {
		name := sharedNames[i]
		m.named(name, d.Node, true, name+" is the definition "+d.Name+" of the file's $defs.")
	}
	for _, t := range f.Tools {
		m.defs = maps.Clone(shared)
		m.defNodes = maps.Clone(sharedNodes)
		m.enumDefs = sharedEnums[:len(sharedEnums):len(sharedEnums)]
		m.declareDefs(t.GoName, t.Input)
		if t.Output != nil {
			m.declareDefs(t.GoName, t.Output)
		}
		in := inNames[t.Name]
		ts.Input[t.Name] = m.named(in, t.Input.Node, true, in+" is the arguments of the tool "+t.Name+".")
		if t.Output != nil {
			out := outNames[t.Name]
			ts.Output[t.Name] = m.named(out, t.Output.Node, true, out+" is the structured result of the tool "+t.Name+".")
			// A handler returns the type the schema names, or a
			// []string, without converting it.
			for _, d := range m.decls {
				if d.Name == out && d.Kind == DeclDefined {
					d.Alias = true
				}
			}
		}
		m.mapDefs(t.Name, t.Input)
		if t.Output != nil {
			m.mapDefs(t.Name, t.Output)
		}
	}
	pointerStructFields(m.decls)
	ts.Decls = m.decls
	return ts, nil
}

// pointerStructFields makes a struct-typed field a pointer when it is
// optional (absent is nil, not a zero struct) or when the struct contains
// the field's owner again (a recursive $ref, which Go cannot hold by value).
func pointerStructFields(decls []*Decl) {
	structs := map[string]*Decl{}
	for _, d := range decls {
		if d.Kind == DeclStruct {
			structs[d.Name] = d
		}
	}
	var reaches func(from, to string, seen map[string]bool) bool
	reaches = func(from, to string, seen map[string]bool) bool {
		if from == to {
			return true
		}
		if seen[from] || structs[from] == nil {
			return false
		}
		seen[from] = true
		for _, f := range structs[from].Fields {
			if f.Type.Kind == KindNamed && reaches(f.Type.Name, to, seen) {
				return true
			}
		}
		return false
	}
	for _, d := range decls {
		for i := range d.Fields {
			f := &d.Fields[i]
			if f.Type.Kind != KindNamed || structs[f.Type.Name] == nil {
				continue
			}
			if f.Optional || reaches(f.Type.Name, d.Name, map[string]bool{}) {
				f.Type = &Type{Kind: KindPointer, Elem: f.Type}
			}
		}
	}
}

type mapper struct {
	file  string
	decls []*Decl
	taken map[string]bool   // package-level names: types and constants
	defs  map[string]string // "#/$defs/x" → Go type name, per tool
	// defNodes are the schemas of the $defs, by "#/$defs/x": the file's
	// and the current tool's.
	defNodes map[string]*yaml.Node
	done     map[string]bool // $defs already mapped, by Go type name
	// enumDefs are the $defs in reach that are enums, in order (the
	// file's, then the tool's), by the part of their schema that makes
	// the type: an inline enum with the same shares their type.
	enumDefs []enumDef
}

type enumDef struct {
	key, name string
}

// enumKey is what makes an enum schema's Go type: its type and its
// values, when it has nothing else but annotations; "" for any other
// schema.
func enumKey(n *yaml.Node) string {
	n = resolve(n)
	if n.Kind != yaml.MappingNode || child(n, "enum") == nil {
		return ""
	}
	var typ, vals []byte
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "type":
			typ, _ = nodeJSON(n.Content[i+1])
		case "enum":
			var err error
			if vals, err = nodeJSON(n.Content[i+1]); err != nil {
				return ""
			}
		case "description", "title", "default", "examples", "deprecated", "$comment":
		default:
			return ""
		}
	}
	return string(typ) + "|" + string(vals)
}

func (m *mapper) addEnumDef(name string, n *yaml.Node) {
	if k := enumKey(n); k != "" {
		m.enumDefs = append(m.enumDefs, enumDef{key: k, name: name})
	}
}

// claim takes a package-level name: name itself when it is free, else
// name with the lowest free numbered suffix.
func (m *mapper) claim(name string) string {
	name = freeName(name, func(n string) bool { return m.taken[n] })
	m.taken[name] = true
	return name
}

// freeName is name when taken says it is free, else name with the lowest
// numbered suffix from 2 that is: Name2, or Name1_2 when name ends in a
// digit (Name12 would read as another number).
func freeName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	sep := ""
	if last := name[len(name)-1]; '0' <= last && last <= '9' {
		sep = "_"
	}
	for i := 2; ; i++ {
		if n := name + sep + strconv.Itoa(i); !taken(n) {
			return n
		}
	}
}

// valueName is an enum value's or a property's Go name: GoName, with a
// sign spelled out, so that "+1" and "-1" (a reaction), or
// "reactions-+1" and "reactions--1" (a sort order), are named apart:
// Plus1, Minus1, ReactionsPlus1, ReactionsMinus1. A '+' is always a sign;
// a '-' is one before a digit, at the start or after a character that is
// not a letter or digit (elsewhere it separates words: in-progress).
func valueName(s string) string {
	if !strings.ContainsAny(s, "+-") {
		return GoName(s)
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '+':
			b.WriteString(" plus ")
		case r == '-' && i+1 < len(rs) && unicode.IsDigit(rs[i+1]) && (i == 0 || !unicode.IsLetter(rs[i-1]) && !unicode.IsDigit(rs[i-1])):
			b.WriteString(" minus ")
		default:
			b.WriteRune(r)
		}
	}
	return GoName(b.String())
}

// declare adds a type whose name is claimed.
func (m *mapper) declare(d *Decl) {
	m.decls = append(m.decls, d)
}

// declareDefs names a schema's $defs before any $ref to them is mapped.
// Shared $defs are declared once per tool: prefix with the tool's Go name
// so that two tools may each have a "#/$defs/id".
func (m *mapper) declareDefs(tool string, s *Schema) {
	defs := child(s.Node, "$defs")
	if defs == nil {
		return
	}
	defs = resolve(defs)
	for i := 0; i+1 < len(defs.Content); i += 2 {
		key := defs.Content[i].Value
		ptr := "#/$defs/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
		if _, ok := m.defs[ptr]; !ok {
			name := m.claim(tool + GoName(key))
			m.defs[ptr] = name
			m.defNodes[ptr] = resolve(defs.Content[i+1])
			m.addEnumDef(name, defs.Content[i+1])
		}
	}
}

func (m *mapper) mapDefs(tool string, s *Schema) {
	defs := child(s.Node, "$defs")
	if defs == nil {
		return
	}
	defs = resolve(defs)
	if m.done == nil {
		m.done = map[string]bool{}
	}
	for i := 0; i+1 < len(defs.Content); i += 2 {
		k, v := defs.Content[i], defs.Content[i+1]
		ptr := "#/$defs/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k.Value)
		name := m.defs[ptr]
		// Each tool declares its own $defs types, even when two tools
		// share the $defs node (a YAML anchor); within a tool, input and
		// output may name the same one.
		if m.done[name] {
			continue
		}
		m.done[name] = true
		m.named(name, v, true, name+" is the definition "+k.Value+" of the tool "+tool+"'s schemas.")
	}
}

// named declares a type called name (claimed) for the schema n and
// returns a reference to it. force declares a defined type even for a scalar schema
// (the tool's Input and Output, and $defs, always have names). fallback is
// the type's doc comment when the schema has no description.
func (m *mapper) named(name string, n *yaml.Node, force bool, fallback string) *Type {
	n = resolve(n)
	doc := scalarValue(child(n, "description"))
	comment := goDoc(name, doc, fallback)
	if vals := child(n, "enum"); vals != nil {
		if d := m.enum(name, doc, resolve(vals)); d != nil {
			d.Comment = comment
			m.declare(d)
			return &Type{Kind: KindNamed, Name: name}
		}
		return &Type{Kind: KindRaw}
	}
	if isObjectWithProperties(n) {
		d := &Decl{Name: name, Doc: doc, Comment: comment, Kind: DeclStruct}
		m.declare(d) // before the fields, so that a recursive $ref resolves
		d.Fields = m.fields(name, n)
		return &Type{Kind: KindNamed, Name: name}
	}
	t := m.typeOf(name, name, n)
	if !force || t.Kind == KindRaw && name == "" {
		return t
	}
	m.declare(&Decl{Name: name, Doc: doc, Comment: comment, Kind: DeclDefined, Underlying: t})
	return &Type{Kind: KindNamed, Name: name}
}

func isObjectWithProperties(n *yaml.Node) bool {
	if combinator(n) || child(n, "$ref") != nil {
		return false
	}
	typ := child(n, "type")
	return child(n, "properties") != nil && (typ == nil || resolve(typ).Value == "object")
}

func combinator(n *yaml.Node) bool {
	return child(n, "oneOf") != nil || child(n, "anyOf") != nil || child(n, "allOf") != nil || child(n, "not") != nil || child(n, "if") != nil
}

// typeOf maps a schema that is used in place (a property, an item). ctx
// names nested types: an object property "address" of AddInput becomes
// AddInputAddress; site says where the schema is, for their doc comments.
// An enum with the same type and values as an enum of $defs in reach is
// that definition's type.
func (m *mapper) typeOf(ctx, site string, n *yaml.Node) *Type {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return &Type{Kind: KindRaw} // true, false
	}
	if ref := child(n, "$ref"); ref != nil {
		if name, ok := m.defs[resolve(ref).Value]; ok {
			return &Type{Kind: KindNamed, Name: name}
		}
		return &Type{Kind: KindRaw}
	}
	if combinator(n) || child(n, "const") != nil {
		return &Type{Kind: KindRaw}
	}
	if k := enumKey(n); k != "" {
		for _, d := range m.enumDefs {
			if d.key == k {
				return &Type{Kind: KindNamed, Name: d.name}
			}
		}
	}
	if vals := child(n, "enum"); vals != nil && enumKind(resolve(vals)) >= 0 || isObjectWithProperties(n) {
		name := m.claim(ctx)
		return m.named(name, n, false, name+" is the type of "+site+".")
	}
	if child(n, "enum") != nil {
		return &Type{Kind: KindRaw} // no faithful Go type: mixed, floats, objects
	}
	typ := child(n, "type")
	if typ == nil {
		return &Type{Kind: KindRaw}
	}
	typ = resolve(typ)
	if typ.Kind == yaml.SequenceNode {
		// ["T", "null"]: a nullable T.
		var nonNull []string
		for _, c := range typ.Content {
			if c.Value != "null" {
				nonNull = append(nonNull, c.Value)
			}
		}
		if len(nonNull) == 1 && len(typ.Content) == 2 {
			inner := m.scalarOrContainer(ctx, site, n, nonNull[0])
			if inner.Kind == KindRaw {
				return inner
			}
			return &Type{Kind: KindPointer, Elem: inner}
		}
		return &Type{Kind: KindRaw}
	}
	return m.scalarOrContainer(ctx, site, n, typ.Value)
}

func (m *mapper) scalarOrContainer(ctx, site string, n *yaml.Node, typ string) *Type {
	switch typ {
	case "string":
		if scalarValue(child(n, "format")) == "date-time" {
			return &Type{Kind: KindTime}
		}
		return &Type{Kind: KindString}
	case "integer":
		return &Type{Kind: KindInt}
	case "number":
		return &Type{Kind: KindFloat}
	case "boolean":
		return &Type{Kind: KindBool}
	case "array":
		items := child(n, "items")
		if items == nil || child(n, "prefixItems") != nil {
			return &Type{Kind: KindSlice, Elem: &Type{Kind: KindRaw}}
		}
		return &Type{Kind: KindSlice, Elem: m.typeOf(ctx+"Item", "an item of "+site, items)}
	case "object":
		ap := child(n, "additionalProperties")
		if ap != nil && resolve(ap).Kind == yaml.MappingNode && child(n, "patternProperties") == nil {
			return &Type{Kind: KindMap, Elem: m.typeOf(ctx+"Value", "a value of "+site, ap)}
		}
		return &Type{Kind: KindMap, Elem: &Type{Kind: KindRaw}}
	}
	return &Type{Kind: KindRaw}
}

func (m *mapper) fields(owner string, n *yaml.Node) []Field {
	required := map[string]bool{}
	if req := child(n, "required"); req != nil {
		for _, r := range resolve(req).Content {
			required[r.Value] = true
		}
	}
	props := resolve(child(n, "properties"))
	var out []Field
	seen := map[string]bool{}
	for i := 0; i+1 < len(props.Content); i += 2 {
		k, v := props.Content[i], props.Content[i+1]
		// Two properties with one Go name (user_id and userId) are
		// numbered apart: UserID, UserID2.
		goName := freeName(valueName(k.Value), func(n string) bool { return seen[n] })
		seen[goName] = true
		f := Field{
			Name:     goName,
			JSONName: k.Value,
			Doc:      scalarValue(child(v, "description")),
			Type:     m.typeOf(owner+goName, "the property "+k.Value+" of "+owner, v),
			Optional: !required[k.Value],
		}
		d := child(v, "default")
		if ref := child(v, "$ref"); d == nil && ref != nil && m.defNodes[resolve(ref).Value] != nil {
			// A $ref's target's default is the property's.
			d = child(m.defNodes[resolve(ref).Value], "default")
		}
		if d != nil {
			f.Default, _ = nodeJSON(d) // converted once already, when the schema was
		}
		out = append(out, f)
	}
	return out
}

// enumKind is the Go kind of an enum's values: KindString or KindInt,
// or -1 when they have no faithful Go type (mixed, floats, objects).
func enumKind(vals *yaml.Node) TypeKind {
	var kind TypeKind = -1
	for _, v := range vals.Content {
		v = resolve(v)
		var k TypeKind
		switch v.ShortTag() {
		case "!!str":
			k = KindString
		case "!!int":
			k = KindInt
		default:
			return -1
		}
		if kind != -1 && k != kind {
			return -1
		}
		if _, err := nodeJSON(v); err != nil {
			return -1
		}
		kind = k
	}
	return kind
}

// enum declares a named type for an enum of strings or of integers. Other
// enums (mixed, floats, objects) have no faithful Go type. Each value's
// constant is named after the type and the value (valueName), apart from
// every other package-level name (claim).
func (m *mapper) enum(name, doc string, vals *yaml.Node) *Decl {
	kind := enumKind(vals)
	if kind < 0 || len(vals.Content) == 0 {
		return nil
	}
	var values []EnumValue
	for _, v := range vals.Content {
		v = resolve(v)
		js, _ := nodeJSON(v) // checked by enumKind
		cname := name + valueName(v.Value)
		if kind == KindInt {
			// From the JSON value: YAML writes 5 as +5, 0x5 or 5_0 too.
			cname = name + strings.ReplaceAll(string(js), "-", "Minus")
		}
		cname = m.claim(cname)
		values = append(values, EnumValue{Name: cname, Value: js, Comment: cname + " is the " + name + " " + string(js) + "."})
	}
	return &Decl{Name: name, Doc: doc, Kind: DeclEnum, Underlying: &Type{Kind: kind}, Values: values}
}

func scalarValue(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	n = resolve(n)
	if n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
