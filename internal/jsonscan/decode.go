package jsonscan

import (
	"encoding/json"
	"unicode/utf8"
)

// maxDecodeDepth is how deeply Decode nests, as encoding/json's own
// decoder does.
const maxDecodeDepth = 10000

// Decode reads the JSON value at the start of b (after white space) as
// encoding/json decodes one into an any with UseNumber: objects as
// map[string]any, a member given twice keeping its last value; arrays as
// []any; numbers as json.Number; strings unescaped, invalid UTF-8 as
// U+FFFD. object, when not nil, makes each object instead, from its
// members in order (keys[i] is vals[i]'s; the slices are Decode's, to be
// copied from). n is where the value ends: what follows is not read, as
// json.Decoder's Decode does not read it. ok is false when b does not
// start with a JSON value, or nests deeper than encoding/json does.
//
// It reads the bytes itself rather than through encoding/json's decoder,
// about twice as fast for the schemas the generator and the runtime read
// (the generator decoded every tool's input schema with json.Decoder; see
// BENCHMARKS.md, "Generator"). FuzzDecode holds the two to the same
// values.
func Decode(b []byte, object func(keys []string, vals []any) any) (v any, n int, ok bool) {
	d := decoder{b: b, object: object}
	v, ok = d.value(0)
	return v, d.i, ok
}

type decoder struct {
	b      []byte
	i      int
	object func(keys []string, vals []any) any
	// keys and vals are the members of the objects being read, innermost
	// last, for object.
	keys []string
	vals []any
}

// next skips white space and reports whether the next byte is c, taking
// it if it is.
func (d *decoder) next(c byte) bool {
	d.i = Space(d.b, d.i)
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *decoder) value(depth int) (any, bool) {
	d.i = Space(d.b, d.i)
	if d.i >= len(d.b) {
		return nil, false
	}
	switch d.b[d.i] {
	case '{':
		if depth >= maxDecodeDepth {
			return nil, false
		}
		d.i++
		return d.members(depth + 1)
	case '[':
		if depth >= maxDecodeDepth {
			return nil, false
		}
		d.i++
		list := []any{}
		if d.next(']') {
			return list, true
		}
		for {
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			list = append(list, v)
			if d.next(',') {
				continue
			}
			return list, d.next(']')
		}
	case '"':
		s, ok := d.str()
		return s, ok
	case 't':
		return true, d.word("true")
	case 'f':
		return false, d.word("false")
	case 'n':
		return nil, d.word("null")
	}
	start := d.i
	end, ok := Number(d.b, d.i)
	d.i = end
	return json.Number(d.b[start:end]), ok
}

// members reads an object's members, after its '{'.
func (d *decoder) members(depth int) (any, bool) {
	var m map[string]any
	base := len(d.keys)
	if d.object == nil {
		m = map[string]any{}
	}
	if !d.next('}') {
		for {
			d.i = Space(d.b, d.i)
			k, ok := d.str()
			if !ok || !d.next(':') {
				return nil, false
			}
			v, ok := d.value(depth)
			if !ok {
				return nil, false
			}
			if m != nil {
				m[k] = v
			} else {
				d.keys, d.vals = append(d.keys, k), append(d.vals, v)
			}
			if d.next(',') {
				continue
			}
			if !d.next('}') {
				return nil, false
			}
			break
		}
	}
	if m != nil {
		return m, true
	}
	obj := d.object(d.keys[base:], d.vals[base:])
	clear(d.vals[base:]) // let what the object did not keep go
	d.keys, d.vals = d.keys[:base], d.vals[:base]
	return obj, true
}

func (d *decoder) word(w string) bool {
	end, ok := word(d.b, d.i, w)
	d.i = end
	return ok
}

// str reads a string; one with escapes or bytes beyond ASCII is
// unescaped by encoding/json, which also stands U+FFFD for invalid
// UTF-8 where Valid refuses it.
func (d *decoder) str() (string, bool) {
	b := d.b
	if d.i >= len(b) || b[d.i] != '"' {
		return "", false
	}
	plain := true
	j := d.i + 1
	for ; j < len(b) && b[j] != '"'; j++ {
		switch c := b[j]; {
		case c == '\\':
			plain = false
			j++
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	if j >= len(b) {
		return "", false
	}
	raw := b[d.i : j+1]
	d.i = j + 1
	if plain {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
