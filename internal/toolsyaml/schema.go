package toolsyaml

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgen-go/toolgen/internal/compile"
	"go.yaml.in/yaml/v3"
)

// schema converts a schema node to JSON as written and compiles it, so that
// a schema the runtime could not compile never reaches generated code.
func (p *parser) schema(n *yaml.Node, input bool) *Schema {
	merged := p.withFileDefs(resolve(n))
	js, err := nodeJSON(merged)
	if err != nil {
		p.addPosError(err, n)
		return nil
	}
	s := &Schema{JSON: js, Node: resolve(n)}
	if s.Node.Kind != yaml.MappingNode {
		if s.Node.ShortTag() == "!!bool" {
			p.errorf(n, "a boolean schema has no Go type; write an object schema")
		} else {
			p.errorf(n, "a schema must be a mapping, not %s", describe(s.Node))
		}
		return nil
	}
	if input {
		if typ := child(s.Node, "type"); typ == nil || resolve(typ).Value != "object" {
			at := n
			if typ != nil {
				at = typ
			}
			p.errorf(at, "input must be an object schema (type: object): its properties are the tool's arguments")
			return nil
		}
	}
	compiled, err := compile.Schema(js)
	if err != nil {
		at, msg := schemaErrorAt(merged, err)
		p.errorf(at, "invalid schema: %s", msg)
		return nil
	}
	s.compiled = compiled
	p.checkDefaults(s.Node, js)
	p.checkIntegerEnums(s.Node)
	p.checkPropertyNames(s.Node)
	return s
}

// withFileDefs returns a tool's schema with the file's $defs it refers to,
// directly or through each other, added to its own $defs (after them, in
// the file's order), so that the schema a client sees is whole. The nodes
// keep their positions in the file. A schema that refers to none is
// returned as it is.
func (p *parser) withFileDefs(n *yaml.Node) *yaml.Node {
	if len(p.defs) == 0 || n.Kind != yaml.MappingNode {
		return n
	}
	own := map[string]bool{}
	ownDefs := child(n, "$defs")
	if ownDefs != nil && resolve(ownDefs).Kind == yaml.MappingNode {
		c := resolve(ownDefs).Content
		for i := 0; i+1 < len(c); i += 2 {
			own[c[i].Value] = true
			if p.defs[c[i].Value] != nil {
				p.errorf(c[i], "$defs %s is also one of the file's $defs: rename one of them", c[i].Value)
			}
		}
	}
	used := map[string]bool{}
	var refs func(n *yaml.Node)
	refs = func(n *yaml.Node) {
		n = resolve(n)
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 1 && n.Content[i-1].Value == "$ref" {
				name, ok := strings.CutPrefix(c.Value, "#/$defs/")
				name, _, _ = strings.Cut(name, "/")
				name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
				if d := p.defs[name]; ok && d != nil && !own[name] && !used[name] {
					used[name] = true
					refs(d.Node)
				}
				continue
			}
			refs(c)
		}
	}
	refs(n)
	if len(used) == 0 {
		return n
	}
	defs := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	if ownDefs != nil {
		defs.Content = append(defs.Content, resolve(ownDefs).Content...)
	}
	for _, d := range p.sortedDefs() {
		if used[d.Name] {
			defs.Content = append(defs.Content, d.Key, d.Node)
		}
	}
	merged := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	replaced := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := n.Content[i+1]
		if n.Content[i].Value == "$defs" {
			v, replaced = defs, true
		}
		merged.Content = append(merged.Content, n.Content[i], v)
	}
	if !replaced {
		merged.Content = append(merged.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "$defs", Line: n.Line, Column: n.Column}, defs)
	}
	return merged
}

// sortedDefs are the file's $defs in the file's order.
func (p *parser) sortedDefs() []*Def {
	out := make([]*Def, 0, len(p.defs))
	for _, d := range p.defs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Key, out[j].Key
		return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
	})
	return out
}

// Keywords of a schema object whose values are maps of schemas, and those
// whose values are data rather than schemas.
var (
	schemaMaps = map[string]bool{"properties": true, "$defs": true, "definitions": true, "patternProperties": true, "dependentSchemas": true}
	dataKeys   = map[string]bool{"default": true, "const": true, "enum": true, "examples": true}
)

// checkDefaults checks the default of every property in a schema against
// the property's own schema (with the root's $defs for its references),
// so that generated code never gives a handler a default its arguments
// could not have.
func (p *parser) checkDefaults(root *yaml.Node, js json.RawMessage) {
	var top map[string]json.RawMessage
	_ = json.Unmarshal(js, &top)
	check := func(prop, def *yaml.Node) {
		propJSON, err1 := nodeJSON(prop)
		defJSON, err2 := nodeJSON(def)
		if err1 != nil || err2 != nil {
			return
		}
		wrapper := map[string]json.RawMessage{"allOf": json.RawMessage("[" + string(propJSON) + "]")}
		if d, ok := top["$defs"]; ok {
			wrapper["$defs"] = d
		}
		raw, _ := json.Marshal(wrapper)
		compiled, err := compile.Schema(raw)
		if err != nil {
			return // refers to the root itself: not checked alone
		}
		leaf, err := firstFailure(compiled, defJSON)
		if err == nil && leaf != nil {
			where := leaf.InstanceLocation
			if where == "" {
				where = "/"
			}
			p.errorf(def, "default does not match the property's schema: at %s: %s", where, leaf.Message)
		}
	}
	eachProperty(root, func(_, prop *yaml.Node) {
		if d := child(prop, "default"); d != nil {
			check(prop, d)
		}
	})
}

// eachProperty calls fn with the name and schema of every property in a
// schema, at any depth ($defs and subschemas included).
func eachProperty(root *yaml.Node, fn func(name, schema *yaml.Node)) {
	walkSchemas(root, nil, fn)
}

// walkSchemas calls onSchema (when not nil) with every schema object in a
// schema, at any depth, and onProperty (when not nil) with the name and
// schema of every property.
func walkSchemas(root *yaml.Node, onSchema func(schema *yaml.Node), onProperty func(name, schema *yaml.Node)) {
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		n = resolve(n)
		switch n.Kind {
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c)
			}
		case yaml.MappingNode:
			if onSchema != nil {
				onSchema(n)
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i].Value, resolve(n.Content[i+1])
				switch {
				case dataKeys[k]:
				case schemaMaps[k] && v.Kind == yaml.MappingNode:
					for j := 0; j+1 < len(v.Content); j += 2 {
						if k == "properties" && onProperty != nil {
							onProperty(v.Content[j], v.Content[j+1])
						}
						walk(v.Content[j+1])
					}
				default:
					walk(v)
				}
			}
		}
	}
	walk(root)
}

// checkIntegerEnums checks that every value of an enum of integers is an
// integer an int64 holds: the enum becomes a Go type of int64 constants,
// and a value past it would be a constant that does not compile (or one
// no call could send).
func (p *parser) checkIntegerEnums(root *yaml.Node) {
	walkSchemas(root, func(n *yaml.Node) {
		enum := child(n, "enum")
		if enum == nil || resolve(enum).Kind != yaml.SequenceNode || !typeIs(n, "integer") || typeIs(n, "number") {
			return // not of integers alone (a number may have a fraction)
		}
		for _, v := range resolve(enum).Content {
			js, err := nodeJSON(resolve(v))
			if err != nil || len(js) == 0 || js[0] != '-' && (js[0] < '0' || js[0] > '9') {
				continue // not a number: a value the type cannot have, which no call can send
			}
			f, ok := new(big.Float).SetPrec(200).SetString(string(js))
			if !ok || !f.IsInt() {
				p.errorf(v, "enum value %s of an integer is not an integer", js)
			} else if i, _ := f.Int(nil); !i.IsInt64() {
				p.errorf(v, "enum value %s is out of range: an integer must be from -9223372036854775808 to 9223372036854775807", js)
			}
		}
	}, nil)
}

// checkPropertyNames checks that every property's name can be the name
// in a Go struct field's json tag, which the generated types decode by:
// encoding/json takes a name of letters, digits, spaces and the
// punctuation !#$%&()*+-./:;<=>?@[]^_{|}~, and reads any other tag as no
// name at all (the property would never be decoded).
func (p *parser) checkPropertyNames(root *yaml.Node) {
	walkSchemas(root, nil, func(name, _ *yaml.Node) {
		if !jsonTagName(name.Value) {
			p.errorf(name, "property name %s cannot be decoded into a Go struct field (encoding/json's tags take letters, digits, spaces and !#$%%&()*+-./:;<=>?@[]^_{|}~): rename the property", strconv.Quote(name.Value))
		}
	})
}

// jsonTagName reports whether encoding/json takes s as a tag's name.
func jsonTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// typeIs reports whether schema n's type is t, or a list of types with t.
func typeIs(n *yaml.Node, t string) bool {
	typ := child(n, "type")
	if typ == nil {
		return false
	}
	typ = resolve(typ)
	if typ.Kind == yaml.ScalarNode {
		return typ.Value == t
	}
	for _, c := range typ.Content {
		if resolve(c).Value == t {
			return true
		}
	}
	return false
}

// Undocumented lists the positions and names of the properties of a
// schema, at any depth, without a description (a property that is a
// $ref is described where its target is defined).
func (s *Schema) Undocumented() []Undocumented {
	var out []Undocumented
	eachProperty(s.Node, func(name, prop *yaml.Node) {
		if child(prop, "description") == nil && child(prop, "$ref") == nil {
			out = append(out, Undocumented{Pos: posOf(name), Name: name.Value})
		}
	})
	return out
}

// Undocumented is a property without a description.
type Undocumented struct {
	Pos  Pos
	Name string
}

// schemaErrorAt finds the node a compile error is about and a message
// without the library's URLs. A schema that breaks the meta-schema carries
// the JSON Pointer of the offending value; other errors name a location in
// their text ("#/properties/a/$ref").
func schemaErrorAt(root *yaml.Node, err error) (*yaml.Node, string) {
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		leaf := ve
		for len(leaf.Causes) > 0 {
			leaf = leaf.Causes[0]
		}
		return nodeAt(root, leaf.InstanceLocation), leaf.Message
	}
	msg := strings.ReplaceAll(err.Error(), compile.URL, "")
	msg = strings.TrimPrefix(msg, "jsonschema  compilation failed: ")
	if m := externalRef.FindStringSubmatch(msg); m != nil {
		if ref := findRef(root, m[1]); ref != nil {
			return ref, msg
		}
	}
	if m := pointerInText.FindStringSubmatch(msg); m != nil {
		// A dangling reference: point at the $ref that names it.
		if ref := findRef(root, "#"+m[1]); ref != nil {
			return ref, msg
		}
		return nodeAt(root, m[1]), msg
	}
	return root, msg
}

// findRef returns the first "$ref" key whose value is target.
func findRef(n *yaml.Node, target string) *yaml.Node {
	n = resolve(n)
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "$ref" && resolve(n.Content[i+1]).Value == target {
				return n.Content[i]
			}
		}
	}
	for _, c := range n.Content {
		if r := findRef(c, target); r != nil {
			return r
		}
	}
	return nil
}

var (
	pointerInText = regexp.MustCompile(`#(/[^\s"']*)`)
	externalRef   = regexp.MustCompile(`external reference "([^"]+)" is not allowed`)
)

// nodeAt follows a JSON Pointer through the YAML tree as far as it goes. For
// a mapping entry it returns the key's node, which is where a reader looks.
func nodeAt(n *yaml.Node, ptr string) *yaml.Node {
	if ptr == "" || ptr == "/" {
		return n
	}
	at := n
	cur := n
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		cur = resolve(cur)
		switch cur.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(cur.Content); i += 2 {
				if cur.Content[i].Value == tok {
					at, cur, found = cur.Content[i], cur.Content[i+1], true
					break
				}
			}
			if !found {
				return at
			}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.Content) {
				return at
			}
			at, cur = cur.Content[i], cur.Content[i]
		default:
			return at
		}
	}
	return at
}

// child returns the value of key in a mapping node, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// checkExample validates an example against the input schema, so that a
// wrong example fails at generation rather than in a client's hands.
func (p *parser) checkExample(s *Schema, n *yaml.Node, js json.RawMessage) {
	leaf, err := firstFailure(s.compiled, js)
	if err != nil {
		p.errorf(n, "example: %v", err)
		return
	}
	if leaf == nil {
		return
	}
	where := leaf.InstanceLocation
	if where == "" {
		where = "(root)"
	}
	p.errorf(nodeAt(n, leaf.InstanceLocation), "example does not match the input schema: %s: %s", where, leaf.Message)
}

// firstFailure validates JSON against a compiled schema (numbers kept
// exact) and returns the first of the failures it finds, or nil.
func firstFailure(s *jsonschema.Schema, js json.RawMessage) (*jsonschema.ValidationError, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var ve *jsonschema.ValidationError
	if !errors.As(s.Validate(v), &ve) {
		return nil, nil
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve, nil
}
