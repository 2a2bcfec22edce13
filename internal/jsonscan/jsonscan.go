// Package jsonscan reads JSON text without a schema: whether bytes are
// one JSON value (Valid, Compact), quickly enough to ask on every call
// (the arguments a client sent, the result a tool returned), how deeply
// they nest (Deeper), and the members of an object known to be valid
// (Members); and, for the schemas the generator and the runtime compile,
// decodes it as encoding/json does (Decode). encoding/json's Valid runs a
// byte-at-a-time state machine through a function value per byte; a
// call's JSON is mostly plain ASCII in strings, which this scanner passes
// over in a tight loop.
package jsonscan

import "unicode/utf8"

// Valid reports whether b is exactly one JSON value, as encoding/json
// reads JSON, with nothing around it but white space, every string valid
// UTF-8, and arrays and objects nested at most maxDepth deep (a value
// outside any is at depth 0, the members of a top-level object at depth
// 1). Valid implies json.Valid; where Valid is false for invalid UTF-8 or
// depth alone, json.Valid may still be true.
func Valid(b []byte, maxDepth int) bool {
	valid, _ := Compact(b, maxDepth)
	return valid
}

// Compact reports whether b is valid, as Valid does, and whether it is
// also compact: without white space outside its strings, and so what
// json.Compact would write for it.
func Compact(b []byte, maxDepth int) (valid, compact bool) {
	s := scanner{b: b, max: maxDepth}
	i, ok := s.value(s.space(0), 0)
	valid = ok && s.space(i) == len(b)
	return valid, valid && !s.spaced
}

type scanner struct {
	b   []byte
	max int
	// spaced is set once white space outside a string was skipped.
	spaced bool
}

// value reads the value at b[i], inside depth arrays and objects, and
// returns the index after it.
func (s *scanner) value(i, depth int) (int, bool) {
	b := s.b
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '{':
		return s.object(i, depth+1)
	case '[':
		return s.array(i, depth+1)
	case '"':
		return str(b, i)
	case 't':
		return word(b, i, "true")
	case 'f':
		return word(b, i, "false")
	case 'n':
		return word(b, i, "null")
	}
	return Number(b, i)
}

// object and array read the object or array whose opening bracket is
// b[i], at depth.
func (s *scanner) object(i, depth int) (int, bool) {
	b := s.b
	i, more, ok := s.open(i, depth, '}')
	for more {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		if i, ok = str(b, i); !ok {
			return i, false
		}
		i = s.space(i)
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		if i, ok = s.value(s.space(i+1), depth); !ok {
			return i, false
		}
		i, more, ok = s.next(i, '}')
	}
	return i, ok
}

func (s *scanner) array(i, depth int) (int, bool) {
	i, more, ok := s.open(i, depth, ']')
	for more {
		if i, ok = s.value(i, depth); !ok {
			return i, false
		}
		i, more, ok = s.next(i, ']')
	}
	return i, ok
}

// open reads past the opening bracket at b[i] and reports whether an
// element follows (more), or the closing bracket came at once.
func (s *scanner) open(i, depth int, closing byte) (_ int, more, ok bool) {
	if depth > s.max {
		return i, false, false
	}
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == closing {
		return i + 1, false, true
	}
	return i, true, true
}

// next reads what follows an element at b[i]: a comma and more elements,
// or the closing bracket.
func (s *scanner) next(i int, closing byte) (_ int, more, ok bool) {
	i = s.space(i)
	switch {
	case i >= len(s.b):
		return i, false, false
	case s.b[i] == ',':
		return s.space(i + 1), true, true
	case s.b[i] == closing:
		return i + 1, false, true
	}
	return i, false, false
}

// PlainByte reports whether c stands for itself inside a JSON string:
// printable ASCII other than the quote and the backslash. It is one table
// load, for the loops over a string's bytes, where the four comparisons
// it replaces were most of a call's scanning.
func PlainByte(c byte) bool { return plainBytes[c] }

var plainBytes = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str reads the string whose opening quote is b[i].
func str(b []byte, i int) (int, bool) {
	for i++; i < len(b); {
		c := b[i]
		if plainBytes[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) {
				return i, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if !hex4(b, i+2) {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return i, false
			}
			i += size
		}
	}
	return i, false
}

func hex4(b []byte, i int) bool {
	if len(b)-i < 4 {
		return false
	}
	for _, c := range b[i : i+4] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func word(b []byte, i int, w string) (int, bool) {
	if len(b)-i < len(w) || string(b[i:i+len(w)]) != w {
		return i, false
	}
	return i + len(w), true
}

// Number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at b[i]:
// the end of the number, and whether there is one.
func Number(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// space skips the white space at b[i], and notes whether there was any.
func (s *scanner) space(i int) int {
	j := Space(s.b, i)
	if j != i {
		s.spaced = true
	}
	return j
}

// Escaped is the byte a JSON short escape, a backslash then c, stands
// for; false for \u, which takes four hex digits, and for a c JSON has no
// escape of.
func Escaped(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}
