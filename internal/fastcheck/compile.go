// Package fastcheck answers one question fast: are these tool arguments
// certainly valid? It compiles the plain JSON Schemas that toolgen
// generates (objects of strings, numbers, booleans, arrays and nested
// objects, with the keywords the generator writes) into a checker that
// reads the raw argument bytes once, without decoding them and without
// allocating.
//
// It is a fast path in front of the full one (the runtime's parseArgs, then
// santhosh-tekuri/jsonschema/v5 as internal/compile sets it up), never a
// replacement: Valid says true only for bodies the full path accepts, and
// false for everything else, including bodies it is merely unsure of. The
// caller then runs the full path, which gives the exact error messages.
// So the fast path can only skip work on valid input, never change a
// verdict or an error.
package fastcheck

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolgen-go/toolgen/internal/compile"
	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// Limits are the bounds the full path puts on arguments before any schema
// sees them (the runtime's args.go owns the values).
type Limits struct {
	// MaxNesting is how deeply arrays and objects may nest.
	MaxNesting int
	// MaxMantissa is the longest a number's text before its exponent may
	// be (sign and point included).
	MaxMantissa int
	// MaxExponent bounds the absolute value of a number's exponent.
	MaxExponent int
}

// Checker is a compiled schema. It is immutable and safe for concurrent
// use.
type Checker struct {
	root *node
	lim  Limits
}

// Types, as a bit set. tInteger is asked for by "type":"integer" and met
// by any whole number.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tInteger
	tNumber
	tString
	tArray
	tObject
)

var typeNames = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "integer": tInteger, "number": tNumber,
	"string": tString, "array": tArray, "object": tObject,
}

// node is one schema or subschema. A nil *node accepts anything.
type node struct {
	never bool  // the schema false
	types uint8 // 0: any type

	ref   *node
	anyOf []*node
	// bare: ref and anyOf are all there is to check (the rest, if any, is
	// annotations), so the value they read need not be read again. A
	// keyword is taken to assert something unless keyword lists it.
	bare bool

	// Objects: props holds the declared properties and the required names
	// (a required name without a schema has schema nil and counts as
	// additional); additional is additionalProperties (nil: anything).
	props      []prop
	required   uint64 // bit i: props[i] is required
	additional *node
	names      *node // propertyNames: each name, as a string, must match it

	// Arrays.
	items              *node
	minItems, maxItems int // -1: none

	// Numbers.
	minimum, maximum, exclusiveMin, exclusiveMax *decimal
	int64Range                                   bool     // compile.Int64Range: whole numbers must fit an int64
	multipleOf                                   *big.Rat // rare: checked as jsonschema does, allocating

	// Strings.
	minLength, maxLength int // -1: none
	pattern              *regexp.Regexp
	format               func(any) bool

	// enum and const, each a list of allowed scalars (const has one).
	enum, constant []literal
	hasEnum        bool
	hasConst       bool
}

type prop struct {
	name    string
	schema  *node
	present bool // declared in properties (else only required)
}

// literal is a scalar from an enum or const.
type literal struct {
	types uint8 // tNull, tBoolean, tNumber or tString
	b     bool
	s     string
	n     decimal
}

// maxProps bounds the properties (declared or required) of one object
// schema: which were seen is a 64-bit set.
const maxProps = 64

// draft202012 is the one $schema accepted (the draft a schema without one
// gets anyway).
const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// Compile compiles a tool's input schema, or returns nil when the schema
// uses anything the checker does not handle exactly: a keyword it does not
// know, a $ref other than "#" or "#/$defs/NAME", an enum of objects or
// arrays, oneOf (whose "exactly one" needs a firm no from every other
// branch, where the checker may only be unsure), and so on. The caller
// then validates every call the full way.
//
// Compile is also a strict recognizer: it returns nil for a schema that is
// not valid against the draft 2020-12 metaschema in any part it reads
// ("type":"strin", "minimum":"3", "required":"x", a pattern that is not a
// Go regexp, a $ref to nothing, a loop of references). So a schema that
// Compile accepts is one that internal/compile.Schema compiles without
// error, and a caller may defer that compile until a call needs it.
//
// Formats are looked up in jsonschema.Formats now, as
// santhosh-tekuri/jsonschema does when it compiles; an unknown format is an
// annotation there and here.
func Compile(schema []byte, lim Limits) *Checker {
	doc, n, ok := jsonscan.Decode(schema, nil)
	if !ok || jsonscan.Space(schema, n) != len(schema) {
		return nil // not one JSON document
	}
	c := &compiler{defs: map[string]*node{}}
	root, ok := doc.(map[string]any)
	if ok {
		if s, has := root["$schema"]; has && s != draft202012 {
			return nil
		}
		if defs, has := root["$defs"]; has {
			m, ok := defs.(map[string]any)
			if !ok {
				return nil
			}
			// Every definition is a node before any is compiled, so that
			// references (recursive ones too) can point at them.
			for name := range m {
				c.defs[name] = &node{}
			}
			for name, d := range m {
				if !c.into(c.defs[name], d) {
					return nil
				}
			}
		}
	}
	c.root = &node{}
	if !c.into(c.root, doc) || c.loops() {
		return nil
	}
	return &Checker{root: c.root, lim: lim}
}

type compiler struct {
	root *node
	defs map[string]*node
	refs []*refTo // resolved once every node exists
	all  []*node
}

type refTo struct {
	from *node
	to   string
}

// schema compiles a subschema into a new node.
func (c *compiler) schema(v any) (*node, bool) {
	n := &node{}
	return n, c.into(n, v)
}

// into compiles v into n.
func (c *compiler) into(n *node, v any) bool {
	c.all = append(c.all, n)
	n.minItems, n.maxItems, n.minLength, n.maxLength = -1, -1, -1, -1
	switch v := v.(type) {
	case bool:
		n.never = !v
		return true
	case map[string]any:
		n.bare = true
		for k, kv := range v {
			if !c.keyword(n, k, kv, v) {
				return false
			}
		}
		n.int64Range = compile.Int64Range(v)
		return true
	}
	return false
}

func (c *compiler) keyword(n *node, k string, v any, m map[string]any) bool {
	var ok bool
	if strings.HasPrefix(k, "x-") {
		return true // an extension: ignored by jsonschema and unconstrained by the metaschema
	}
	switch k {
	case "$schema", "$defs", "title", "description", "$comment", "contentEncoding", "contentMediaType",
		"default", "examples", "deprecated", "readOnly", "writeOnly", "$ref", "anyOf":
	default:
		n.bare = false
	}
	switch k {
	case "$schema", "$defs":
		// Only at the root, where Compile read them (a definition is
		// compiled before the root node exists).
		return n == c.root
	case "title", "description", "$comment", "contentEncoding", "contentMediaType":
		// (The content keywords are annotations: internal/compile does
		// not set AssertContent.)
		_, ok = v.(string)
	case "default":
		ok = true
	case "examples":
		_, ok = v.([]any)
	case "deprecated", "readOnly", "writeOnly":
		_, ok = v.(bool)
	case "$ref":
		var s string
		if s, ok = v.(string); ok {
			c.refs = append(c.refs, &refTo{from: n, to: s})
		}
	case "type":
		n.types, ok = types(v)
	case "properties":
		req, hasReq := m["required"]
		ok = c.properties(n, v, req, hasReq)
	case "required":
		if _, hasProps := m["properties"]; hasProps {
			return true // read with properties
		}
		ok = c.properties(n, map[string]any{}, v, true)
	case "additionalProperties":
		n.additional, ok = c.schema(v)
	case "propertyNames":
		n.names, ok = c.schema(v)
	case "items":
		n.items, ok = c.schema(v)
	case "minItems":
		n.minItems, ok = count(v)
	case "maxItems":
		n.maxItems, ok = count(v)
	case "minLength":
		n.minLength, ok = count(v)
	case "maxLength":
		n.maxLength, ok = count(v)
	case "minimum":
		n.minimum, ok = bound(v)
	case "maximum":
		n.maximum, ok = bound(v)
	case "exclusiveMinimum":
		n.exclusiveMin, ok = bound(v)
	case "exclusiveMaximum":
		n.exclusiveMax, ok = bound(v)
	case "multipleOf":
		var d *decimal
		if d, ok = bound(v); ok && d.len() > 0 && !d.neg {
			n.multipleOf, ok = new(big.Rat).SetString(string(v.(json.Number)))
		} else {
			ok = false // the metaschema wants a number > 0
		}
	case "pattern":
		var s string
		if s, ok = v.(string); ok {
			var err error
			n.pattern, err = regexp.Compile(s)
			ok = err == nil // santhosh would refuse the schema
		}
	case "format":
		var s string
		if s, ok = v.(string); ok {
			n.format = jsonschema.Formats[s] // nil: unknown, not asserted
		}
	case "enum":
		n.hasEnum = true
		n.enum, ok = literals(v)
	case "const":
		n.hasConst = true
		n.constant, ok = literals([]any{v})
	case "anyOf":
		n.anyOf, ok = c.schemas(v)
	}
	return ok
}

func (c *compiler) schemas(v any) ([]*node, bool) {
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return nil, false
	}
	out := make([]*node, len(a))
	for i, s := range a {
		if out[i], ok = c.schema(s); !ok {
			return nil, false
		}
	}
	return out, true
}

// properties reads properties and required together: a required name
// without a schema is a property too (one that only has to be there).
func (c *compiler) properties(n *node, v, required any, hasRequired bool) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for name, s := range m {
		sch, ok := c.schema(s)
		if !ok {
			return false
		}
		n.props = append(n.props, prop{name: name, schema: sch, present: true})
	}
	if hasRequired {
		names, ok := required.([]any)
		if !ok {
			return false
		}
		seen := map[string]bool{}
		for _, r := range names {
			name, ok := r.(string)
			if !ok || seen[name] {
				return false // the metaschema wants unique strings
			}
			seen[name] = true
			i := n.prop(name)
			if i < 0 {
				n.props = append(n.props, prop{name: name})
				i = len(n.props) - 1
			}
			if i < maxProps {
				n.required |= 1 << i
			}
		}
	}
	return len(n.props) <= maxProps
}

// prop returns the index of the property named name, or -1.
func (n *node) prop(name string) int {
	for i := range n.props {
		if n.props[i].name == name {
			return i
		}
	}
	return -1
}

func types(v any) (uint8, bool) {
	if s, ok := v.(string); ok {
		t := typeNames[s]
		return t, t != 0
	}
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return 0, false
	}
	var set uint8
	for _, e := range a {
		s, _ := e.(string)
		t := typeNames[s]
		if t == 0 || set&t != 0 {
			return 0, false // unknown or repeated
		}
		set |= t
	}
	return set, true
}

// count reads a non-negative integer keyword written plainly (digits only).
func count(v any) (int, bool) {
	s, ok := v.(json.Number)
	if !ok || len(s) == 0 || len(s) > 9 || strings.Trim(string(s), "0123456789") != "" {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		n = n*10 + int(c-'0')
	}
	return n, true
}

// bound reads a number keyword. Its exponent must be moderate, so that
// decimal points stay small ints.
func bound(v any) (*decimal, bool) {
	s, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	n, end, ok := scanNumber([]byte(s), 0)
	if !ok || end != len(s) || !n.expOK || n.exp > 1<<20 || n.exp < -1<<20 {
		return nil, false
	}
	return &n.dec, true
}

func literals(v any) ([]literal, bool) {
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return nil, false
	}
	out := make([]literal, len(a))
	for i, e := range a {
		switch e := e.(type) {
		case nil:
			out[i].types = tNull
		case bool:
			out[i].types, out[i].b = tBoolean, e
		case string:
			out[i].types, out[i].s = tString, e
		case json.Number:
			d, ok := bound(e)
			if !ok {
				return nil, false
			}
			out[i].types, out[i].n = tNumber, *d
		default:
			return nil, false // objects and arrays: not handled
		}
	}
	return out, true
}

// loops resolves the references and reports a schema that cannot be used:
// a reference to nothing, or a loop of references and anyOf branches
// that never moves into the arguments (santhosh refuses both).
func (c *compiler) loops() bool {
	for _, r := range c.refs {
		switch {
		case r.to == "#":
			r.from.ref = c.root
		case strings.HasPrefix(r.to, "#/$defs/") && validDefName(r.to[len("#/$defs/"):]):
			r.from.ref = c.defs[r.to[len("#/$defs/"):]]
		}
		if r.from.ref == nil {
			return true
		}
	}
	const (
		unseen = iota
		open
		done
	)
	state := make(map[*node]int, len(c.all))
	var visit func(n *node) bool
	visit = func(n *node) bool {
		switch state[n] {
		case open:
			return true
		case done:
			return false
		}
		state[n] = open
		next := append([]*node{n.ref}, n.anyOf...)
		for _, m := range next {
			if m != nil && visit(m) {
				return true
			}
		}
		state[n] = done
		return false
	}
	for _, n := range c.all {
		if visit(n) {
			return true
		}
	}
	return false
}

// validDefName is a definition name that reads the same as a JSON Pointer
// token and as a URI fragment (no ~, /, % or anything to escape).
func validDefName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
