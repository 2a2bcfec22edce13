package typeschema

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ObjectOutput is an output schema as MCP requires it, an object schema:
// one that is not an object schema is wrapped as
// {"result": schema}, its "$schema" and "$defs" moved up so that
// references still resolve. A schema that is a reference to an object
// schema of its own "$defs" (a tools.yaml output {$ref: '#/$defs/x'}, a
// recursive Go type) is an object schema: it is served as the definition
// itself, not wrapped.
func ObjectOutput(src json.RawMessage) (schema json.RawMessage, wrapped bool) {
	if len(src) == 0 {
		return nil, false
	}
	inner, err := ParseObject(src)
	if err != nil {
		return src, false
	}
	if typ, _ := inner.String("type"); typ == "object" {
		return src, false
	}
	if s, ok := inlineObjectRef(inner); ok {
		return s, false
	}
	outer := &Object{}
	kept := &Object{}
	var defs json.RawMessage
	for _, m := range inner.Members {
		switch m.Key {
		case "$schema":
			outer.Set("$schema", m.Value)
		case "$defs":
			defs = m.Value
		default:
			kept.Members = append(kept.Members, m)
		}
	}
	outer.Set("type", json.RawMessage(`"object"`))
	k, _ := kept.MarshalJSON()
	outer.Set("properties", json.RawMessage(`{"result":`+string(k)+`}`))
	outer.Set("required", json.RawMessage(`["result"]`))
	if defs != nil {
		outer.Set("$defs", defs)
	}
	b, _ := outer.MarshalJSON()
	return b, true
}

// refAnnotations are the keywords that may stand beside a $ref that
// inlineObjectRef replaces by its target: they assert nothing.
var refAnnotations = map[string]bool{"$ref": true, "$defs": true, "$schema": true, "$comment": true, "title": true, "description": true, "examples": true, "deprecated": true}

// inlineObjectRef resolves a schema that is a "#/$defs/NAME" reference
// (through further such references) to an object schema of its own
// "$defs": it returns that definition's keywords with the schema's own
// annotations over them, then "$defs" less the definitions nothing
// references any more. ok is false for any other schema.
func inlineObjectRef(s *Object) (json.RawMessage, bool) {
	for _, m := range s.Members {
		if !refAnnotations[m.Key] {
			return nil, false
		}
	}
	defs := s.Object("$defs")
	if defs == nil {
		return nil, false
	}
	target := s
	for range len(defs.Members) + 1 {
		ref, ok := target.String("$ref")
		if !ok {
			break
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok || strings.ContainsAny(name, "~/%") {
			return nil, false
		}
		next := defs.Object(name)
		if next == nil {
			return nil, false
		}
		if next.Get("$ref") != nil {
			for _, m := range next.Members {
				if !refAnnotations[m.Key] {
					return nil, false
				}
			}
		}
		target = next
	}
	if typ, _ := target.String("type"); typ != "object" || target.Get("$ref") != nil {
		return nil, false
	}
	out := &Object{}
	if v := s.Get("$schema"); v != nil {
		out.Set("$schema", v)
	}
	for _, m := range target.Members {
		out.Set(m.Key, m.Value)
	}
	for _, m := range s.Members {
		switch m.Key {
		case "$ref", "$defs", "$schema":
		default:
			out.Set(m.Key, m.Value)
		}
	}
	// Keep the definitions still referenced, from the schema or from a
	// kept definition.
	body, _ := out.MarshalJSON()
	keep := map[string]bool{}
	if bytes.Contains(body, []byte(`\`)) || bytes.Contains(s.Get("$defs"), []byte(`\`)) {
		// Escapes could spell a reference the search below misses.
		for _, d := range defs.Members {
			keep[d.Key] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range defs.Members {
			if keep[d.Key] {
				continue
			}
			ref := []byte(`"#/$defs/` + d.Key + `"`)
			used := bytes.Contains(body, ref)
			for _, k := range defs.Members {
				if !used && keep[k.Key] && bytes.Contains(k.Value, ref) {
					used = true
				}
			}
			if used {
				keep[d.Key], changed = true, true
			}
		}
	}
	kept := &Object{}
	for _, d := range defs.Members {
		if keep[d.Key] {
			kept.Members = append(kept.Members, d)
		}
	}
	if len(kept.Members) > 0 {
		k, _ := kept.MarshalJSON()
		out.Set("$defs", k)
	}
	b, _ := out.MarshalJSON()
	return b, true
}
