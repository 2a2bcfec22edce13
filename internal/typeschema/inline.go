package typeschema

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Inline returns schema with every local reference ("#", "#/$defs/Name",
// "#/definitions/Name") replaced by the schema it names, and the $defs
// dropped, for protocols that take self-contained schemas without $ref
// (OXP). A recursive type is unrolled maxDepth times along any path; past
// that the reference becomes an open schema whose description says the
// structure repeats. Keywords beside a $ref override the target's. Other
// references are left as they are.
func Inline(schema json.RawMessage, maxDepth int) (json.RawMessage, error) {
	root, err := ParseObject(schema)
	if err != nil {
		return nil, err
	}
	in := &inliner{root: root, max: maxDepth, defs: map[string]json.RawMessage{}}
	for _, key := range []string{"$defs", "definitions"} {
		if d := root.Object(key); d != nil {
			for _, m := range d.Members {
				in.defs["#/"+key+"/"+m.Key] = m.Value
			}
		}
	}
	if len(in.defs) == 0 && !bytes.Contains(schema, []byte(`"$ref"`)) {
		return schema, nil
	}
	return in.object(root, map[string]int{})
}

type inliner struct {
	root *Object
	defs map[string]json.RawMessage
	max  int
}

// dataKeywords hold JSON values, not schemas: nothing in them is a
// reference.
var dataKeywords = map[string]bool{"enum": true, "const": true, "default": true, "examples": true, "example": true}

func (in *inliner) value(v json.RawMessage, seen map[string]int) (json.RawMessage, error) {
	switch t := bytes.TrimSpace(v); {
	case len(t) > 0 && t[0] == '{':
		o, err := ParseObject(t)
		if err != nil {
			return nil, err
		}
		return in.object(o, seen)
	case len(t) > 0 && t[0] == '[':
		var items []json.RawMessage
		if err := json.Unmarshal(t, &items); err != nil {
			return nil, err
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			w, err := in.value(it, seen)
			if err != nil {
				return nil, err
			}
			b.Write(w)
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	}
	return v, nil
}

func (in *inliner) object(o *Object, seen map[string]int) (json.RawMessage, error) {
	out := &Object{}
	replaced := false
	if ref, ok := o.String("$ref"); ok {
		target, local := in.target(ref)
		if local {
			if seen[ref] >= in.max {
				out.Set("description", json.RawMessage(`"The structure repeats from here (a recursive type, unrolled `+itoa(in.max)+` times)."`))
				return out.MarshalJSON()
			}
			seen[ref]++
			inlined, err := in.object(target, seen)
			seen[ref]--
			if err != nil {
				return nil, err
			}
			if len(o.Members) == 1 {
				return inlined, nil
			}
			if out, err = ParseObject(inlined); err != nil {
				return nil, err
			}
			replaced = true
		}
	}
	for _, m := range o.Members {
		switch {
		case m.Key == "$ref" && replaced, m.Key == "$defs", m.Key == "definitions":
			continue
		case dataKeywords[m.Key]:
			out.Set(m.Key, m.Value)
		default:
			v, err := in.value(m.Value, seen)
			if err != nil {
				return nil, err
			}
			out.Set(m.Key, v)
		}
	}
	return out.MarshalJSON()
}

// target returns the schema a local reference names.
func (in *inliner) target(ref string) (*Object, bool) {
	if ref == "#" {
		return in.root, true
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	raw, ok := in.defs[ref]
	if !ok {
		return nil, false
	}
	o, err := ParseObject(raw)
	return o, err == nil
}

func itoa(n int) string { return strconv.Itoa(n) }
