package typeschema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
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
	if in, err := ParseObject(input); err == nil {
		req := requiredSet(in)
		if props := in.Object("properties"); props != nil {
			for i, m := range props.Members {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(m.Key)
				if !req[m.Key] {
					b.WriteByte('?')
				}
				b.WriteString(": ")
				p, _ := ParseObject(m.Value)
				b.WriteString(render(p))
				if p != nil {
					if d := p.Get("default"); d != nil {
						b.WriteString(" = ")
						b.WriteString(compact(d))
					}
				}
			}
		}
	}
	b.WriteByte(')')
	if len(bytes.TrimSpace(output)) > 0 {
		out, _ := ParseObject(output)
		result = render(out)
	}
	if result != "" {
		b.WriteString(" -> ")
		b.WriteString(result)
	}
	return b.String()
}

func requiredSet(o *Object) map[string]bool {
	var names []string
	if r := o.Get("required"); r != nil {
		_ = json.Unmarshal(r, &names)
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

func compact(v json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return string(v)
	}
	return b.String()
}

// render writes the type a schema describes.
func render(s *Object) string {
	if s == nil || len(s.Members) == 0 {
		return "any"
	}
	if ref, ok := s.String("$ref"); ok {
		if ref == "#" {
			return "object"
		}
		return ref[strings.LastIndexByte(ref, '/')+1:]
	}
	if c := s.Get("const"); c != nil {
		return compact(c)
	}
	if e := s.Get("enum"); e != nil {
		var vals []json.RawMessage
		if json.Unmarshal(e, &vals) == nil && len(vals) > 0 {
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = compact(v)
			}
			return strings.Join(parts, " | ")
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts := s.Get(k); alts != nil {
			var list []json.RawMessage
			if json.Unmarshal(alts, &list) == nil && len(list) > 0 {
				parts := make([]string, 0, len(list))
				for _, a := range list {
					o, _ := ParseObject(a)
					if p := render(o); !slices.Contains(parts, p) {
						parts = append(parts, p)
					}
				}
				return strings.Join(parts, " | ")
			}
		}
	}
	if all := s.Get("allOf"); all != nil {
		var list []json.RawMessage
		if json.Unmarshal(all, &list) == nil && len(list) == 1 {
			o, _ := ParseObject(list[0])
			return render(o)
		}
	}
	var types []string
	if t := s.Get("type"); t != nil {
		var one string
		if json.Unmarshal(t, &one) == nil {
			types = []string{one}
		} else {
			_ = json.Unmarshal(t, &types)
		}
	}
	if len(types) == 0 {
		return "any"
	}
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = renderType(s, t)
	}
	return strings.Join(parts, " | ")
}

func renderType(s *Object, t string) string {
	switch t {
	case "array":
		items := s.Object("items")
		it := render(items)
		if strings.Contains(it, " | ") {
			it = "(" + it + ")"
		}
		return it + "[]"
	case "object":
		props := s.Object("properties")
		if props != nil && len(props.Members) > 0 {
			req := requiredSet(s)
			var b strings.Builder
			b.WriteByte('{')
			for i, m := range props.Members {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(m.Key)
				if !req[m.Key] {
					b.WriteByte('?')
				}
				b.WriteString(": ")
				p, _ := ParseObject(m.Value)
				b.WriteString(render(p))
			}
			b.WriteByte('}')
			return b.String()
		}
		if ap := s.Object("additionalProperties"); ap != nil {
			return "{[key: string]: " + render(ap) + "}"
		}
		return "object"
	default:
		return t
	}
}
