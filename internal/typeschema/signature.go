package typeschema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// Signature renders a tool's call compactly from its schemas, in a
// TypeScript-like notation models and people read at a glance:
//
//	greet(name: string, level?: "quiet" | "normal" | "loud", times?: integer = 1) -> {text: string, count: integer}
//
// Optional arguments get "?", defaults " = value". The result is rendered
// from output when there is one, else result is written as is ("string",
// "content"); with neither there is no arrow.
func Signature(name string, input, output json.RawMessage, result string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	if in, ok := parseNode(input).(*node); ok {
		renderProps(&b, in, true)
	}
	b.WriteByte(')')
	if len(bytes.TrimSpace(output)) > 0 {
		result = Result(output)
	}
	if result != "" {
		b.WriteString(" -> ")
		b.WriteString(result)
	}
	return b.String()
}

// Result renders the result part of a signature (after " -> ") from an
// output schema. Signature(name, input, output, "") is
// Signature(name, input, nil, Result(output)): a caller with many tools of
// one result type renders it once.
func Result(output json.RawMessage) string {
	out, _ := parseNode(output).(*node)
	return render(out)
}

// node is a JSON object decoded with its key order; values are *node,
// []any, string, json.Number, bool or nil.
type node struct {
	keys []string
	vals map[string]any
}

func (n *node) get(k string) any {
	if n == nil {
		return nil
	}
	return n.vals[k]
}

func (n *node) required() map[string]bool {
	set := map[string]bool{}
	list, _ := n.get("required").([]any)
	for _, v := range list {
		if s, ok := v.(string); ok {
			set[s] = true
		}
	}
	return set
}

// parseNode decodes JSON, objects keeping their key order; nil when it is
// not JSON. What follows the first value is not read, as json.Decoder
// would not. It reads with jsonscan.Decode: json.Decoder's Token, which
// it used before, took a quarter of the time toolgen spends reading a
// package of many tools (BENCHMARKS.md, "Generator"). TestParseNode
// holds it to encoding/json's decoding.
func parseNode(data []byte) any {
	v, _, ok := jsonscan.Decode(data, newNode)
	if !ok {
		return nil
	}
	return v
}

// newNode is the node of an object's members, in order; a key given
// twice keeps its first place and its last value, as encoding/json's
// tokens give them.
func newNode(keys []string, vals []any) any {
	n := &node{vals: make(map[string]any, len(keys))}
	for i, k := range keys {
		if _, dup := n.vals[k]; !dup {
			n.keys = append(n.keys, k)
		}
		n.vals[k] = vals[i]
	}
	return n
}

// literal writes a decoded JSON value back as compact JSON.
func literal(v any) string {
	var b bytes.Buffer
	writeLiteral(&b, v)
	return b.String()
}

func writeLiteral(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case *node:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeLiteral(b, v.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeLiteral(b, e)
		}
		b.WriteByte(']')
	case string:
		writeString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default:
		b.WriteString("null")
	}
}

// render returns the type a schema describes.
func render(s *node) string {
	var b strings.Builder
	writeType(&b, s)
	return b.String()
}

// writeType writes the type a schema describes. It writes nested objects
// in place, so that a schema nested n levels deep takes time linear in n.
func writeType(b *strings.Builder, s *node) {
	if s == nil || len(s.keys) == 0 {
		b.WriteString("any")
		return
	}
	if ref, ok := s.get("$ref").(string); ok {
		if ref == "#" {
			b.WriteString("object")
		} else {
			b.WriteString(ref[strings.LastIndexByte(ref, '/')+1:])
		}
		return
	}
	if c, ok := s.vals["const"]; ok {
		b.WriteString(literal(c))
		return
	}
	if e, ok := s.get("enum").([]any); ok && len(e) > 0 {
		for i, v := range e {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(literal(v))
		}
		return
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s.get(k).([]any); ok && len(alts) > 0 {
			parts := make([]string, 0, len(alts))
			for _, a := range alts {
				an, _ := a.(*node)
				if p := render(an); !slices.Contains(parts, p) {
					parts = append(parts, p)
				}
			}
			b.WriteString(strings.Join(parts, " | "))
			return
		}
	}
	if all, ok := s.get("allOf").([]any); ok && len(all) == 1 {
		an, _ := all[0].(*node)
		writeType(b, an)
		return
	}
	var types []string
	switch t := s.get("type").(type) {
	case string:
		types = []string{t}
	case []any:
		for _, e := range t {
			if str, ok := e.(string); ok {
				types = append(types, str)
			}
		}
	}
	if len(types) == 0 {
		b.WriteString("any")
		return
	}
	for i, t := range types {
		if i > 0 {
			b.WriteString(" | ")
		}
		writeTypeOf(b, s, t)
	}
}

// writeTypeOf writes the type of schema s's values of JSON type t.
func writeTypeOf(b *strings.Builder, s *node, t string) {
	switch t {
	case "array":
		items, _ := s.get("items").(*node)
		it := render(items)
		if strings.Contains(it, " | ") {
			it = "(" + it + ")"
		}
		b.WriteString(it)
		b.WriteString("[]")
	case "object":
		if props, ok := s.get("properties").(*node); ok && len(props.keys) > 0 {
			b.WriteByte('{')
			renderProps(b, s, false)
			b.WriteByte('}')
			return
		}
		if ap, ok := s.get("additionalProperties").(*node); ok {
			b.WriteString("{[key: string]: ")
			writeType(b, ap)
			b.WriteString("}")
			return
		}
		b.WriteString("object")
	default:
		b.WriteString(t)
	}
}

// Argument is one argument of a tool, read from its input schema, for
// listings (the MCP tool registry): its name, its type rendered as in a
// signature, whether it is required, its default and its description.
type Argument struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Required    bool            `json:"required"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description"`
}

// Arguments lists the properties of an input schema, in order.
func Arguments(input json.RawMessage) []Argument {
	in, _ := parseNode(input).(*node)
	props, _ := in.get("properties").(*node)
	if props == nil {
		return []Argument{}
	}
	req := in.required()
	args := make([]Argument, 0, len(props.keys))
	for _, k := range props.keys {
		p, _ := props.vals[k].(*node)
		a := Argument{Name: k, Type: render(p), Required: req[k]}
		if d, ok := p.get("description").(string); ok {
			a.Description = d
		}
		if p != nil {
			if d, ok := p.vals["default"]; ok {
				a.Default = json.RawMessage(literal(d))
			}
		}
		args = append(args, a)
	}
	return args
}

// renderProps writes an object schema's properties as "name: type", an
// optional one as "name?: type", and, with defaults, " = default" after
// those that have one.
func renderProps(b *strings.Builder, s *node, defaults bool) {
	props, _ := s.get("properties").(*node)
	if props == nil {
		return
	}
	req := s.required()
	for i, k := range props.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		if !req[k] {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		p, _ := props.vals[k].(*node)
		writeType(b, p)
		if defaults && p != nil {
			if d, ok := p.vals["default"]; ok {
				b.WriteString(" = ")
				b.WriteString(literal(d))
			}
		}
	}
}
