package fastcheck

import (
	"math/big"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// anything is the schema of a value no keyword constrains: it is still
// read through, for its syntax and its limits.
var anything = &node{minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}

// Valid reports whether args are certainly valid arguments: one JSON
// value, valid UTF-8, nested no deeper than the limits allow, every number
// within them, and valid against the schema. false means only "not known
// valid": the body may be invalid, or use something the checker does not
// decide (an escaped property name, a \u escape of a surrogate in a string
// a keyword reads, a format on a value that is not a string, a number
// beyond 1e308).
//
// Valid does not allocate, except to unescape a string that has escapes
// and that a keyword reads, and to hand a string to a format function.
func (c *Checker) Valid(args []byte) bool {
	s := scanner{b: args, lim: &c.lim, steps: stepsPerByte*len(args) + 64}
	s.space()
	if !s.value(c.root, 0) {
		return false
	}
	s.space()
	return s.i == len(s.b)
}

type scanner struct {
	b   []byte
	i   int
	lim *Limits
	// steps is how many more values the scan may visit. A value is read
	// again for each anyOf branch and for a $ref beside other keywords, so
	// a schema that nests them could make a scan take time exponential in
	// the body's depth; past the budget the checker gives up (false) and
	// the full path decides, as it would have without the fast path.
	steps int
}

// stepsPerByte sizes the budget: a generated schema visits a value a few
// times at most.
const stepsPerByte = 16

func (s *scanner) space() { s.i = jsonscan.Space(s.b, s.i) }

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// value reads the value at s.i, inside depth arrays and objects, and
// reports whether it is certainly valid against n.
func (s *scanner) value(n *node, depth int) bool {
	if n == nil {
		n = anything
	}
	s.steps--
	if n.never || s.steps < 0 {
		return false
	}
	if n.ref != nil || n.anyOf != nil {
		start := s.i
		if n.ref != nil && !s.value(n.ref, depth) {
			return false
		}
		if n.anyOf != nil {
			matched := false
			for _, a := range n.anyOf {
				s.i = start
				if s.value(a, depth) {
					matched = true
					break
				}
			}
			if !matched {
				return false
			}
		}
		if n.bare {
			return true // s.i is past the value, read by the last check
		}
		s.i = start
	}
	switch s.peek() {
	case '{':
		return n.accepts(tObject) && !n.hasEnum && !n.hasConst && n.format == nil && s.object(n, depth+1)
	case '[':
		return n.accepts(tArray) && !n.hasEnum && !n.hasConst && n.format == nil && s.array(n, depth+1)
	case '"':
		return s.string(n)
	case 't':
		return s.word("true") && n.scalar(tBoolean, func(l *literal) bool { return l.b })
	case 'f':
		return s.word("false") && n.scalar(tBoolean, func(l *literal) bool { return !l.b })
	case 'n':
		return s.word("null") && n.scalar(tNull, func(*literal) bool { return true })
	}
	return s.number(n)
}

// accepts reports whether the schema's type allows a value of type t
// (for numbers, see number).
func (n *node) accepts(t uint8) bool {
	return n.types == 0 || n.types&t != 0
}

// scalar checks a true, false or null against type, enum and const; eq
// says whether a literal of the same type equals the value.
func (n *node) scalar(t uint8, eq func(*literal) bool) bool {
	if !n.accepts(t) || n.format != nil {
		return false // a format function may judge non-strings: not ours to guess
	}
	return (!n.hasEnum || oneOf(n.enum, t, eq)) && (!n.hasConst || oneOf(n.constant, t, eq))
}

func oneOf(lits []literal, t uint8, eq func(*literal) bool) bool {
	for i := range lits {
		if lits[i].types == t && eq(&lits[i]) {
			return true
		}
	}
	return false
}

func (s *scanner) word(w string) bool {
	if len(s.b)-s.i < len(w) || string(s.b[s.i:s.i+len(w)]) != w {
		return false
	}
	s.i += len(w)
	return true
}

// maxOtherNames bounds the names outside properties that one object may
// have for the fast path, which must see that none repeats.
const maxOtherNames = 16

func (s *scanner) object(n *node, depth int) bool {
	if depth > s.lim.MaxNesting {
		return false
	}
	s.i++
	s.space()
	var seen uint64
	var other [maxOtherNames][]byte
	others := 0
	if s.peek() == '}' {
		s.i++
		return n.required == 0
	}
	for {
		keyStart := s.i
		key, escaped, ok := s.scanString()
		if !ok || escaped {
			return false // an escaped name would need unescaping to be looked up
		}
		if n.names != nil {
			// The name, quotes and all, is read again as a string value
			// (by this scanner, pointed at it: a new one would escape).
			b, i := s.b, s.i
			s.b, s.i = b[keyStart:i], 0
			ok := s.value(n.names, depth)
			s.b, s.i = b, i
			if !ok {
				return false
			}
		}
		s.space()
		if s.peek() != ':' {
			return false
		}
		s.i++
		s.space()
		sub := n.additional
		declared := false
		for j := range n.props {
			if n.props[j].name == string(key) {
				if seen&(1<<j) != 0 {
					return false // a repeated name: the full path refuses it
				}
				seen |= 1 << j
				if n.props[j].present {
					sub = n.props[j].schema
				}
				declared = true
				break
			}
		}
		if !declared {
			// Other names are remembered (as slices of the body: no
			// allocation) up to a bound; past it, the full path decides.
			if others == len(other) {
				return false
			}
			for _, o := range other[:others] {
				if string(o) == string(key) {
					return false
				}
			}
			other[others] = key
			others++
		}
		if !s.value(sub, depth) {
			return false
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
			s.space()
		case '}':
			s.i++
			return seen&n.required == n.required
		default:
			return false
		}
	}
}

func (s *scanner) array(n *node, depth int) bool {
	if depth > s.lim.MaxNesting {
		return false
	}
	s.i++
	s.space()
	count := 0
	if s.peek() == ']' {
		s.i++
	} else {
		for {
			if !s.value(n.items, depth) {
				return false
			}
			count++
			s.space()
			if s.peek() == ']' {
				s.i++
				break
			}
			if s.peek() != ',' {
				return false
			}
			s.i++
			s.space()
		}
	}
	return (n.minItems < 0 || count >= n.minItems) && (n.maxItems < 0 || count <= n.maxItems)
}

// scanString reads the string at s.i and returns its text between the
// quotes as written, and whether it has escapes. ok is false when it is not
// a JSON string or not valid UTF-8.
func (s *scanner) scanString() (raw []byte, escaped, ok bool) {
	if s.peek() != '"' {
		return nil, false, false
	}
	s.i++
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if jsonscan.PlainByte(c) {
			s.i++
			continue
		}
		switch {
		case c == '"':
			raw = s.b[start:s.i]
			s.i++
			return raw, escaped, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			escaped = true
			if s.i+1 >= len(s.b) {
				return nil, false, false
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if _, ok := hex4(s.b, s.i+2); !ok {
					return nil, false, false
				}
				s.i += 6
			default:
				return nil, false, false
			}
		default: // not ASCII: PlainByte passed every other byte
			r, size := utf8.DecodeRune(s.b[s.i:])
			if r == utf8.RuneError && size == 1 {
				return nil, false, false
			}
			s.i += size
		}
	}
	return nil, false, false
}

func hex4(b []byte, i int) (rune, bool) {
	if len(b)-i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unescape returns the text of a string with escapes, as encoding/json
// decodes it, or ok false for an escaped surrogate (which encoding/json
// pairs or replaces: left to the full path).
func unescape(raw []byte) (out []byte, ok bool) {
	out = make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if e, short := jsonscan.Escaped(raw[i]); short {
			out = append(out, e)
			continue
		}
		if raw[i] != 'u' { // scanString lets only JSON's escapes through
			return nil, false
		}
		r, _ := hex4(raw, i+1)
		if r >= 0xD800 && r < 0xE000 {
			return nil, false
		}
		out = utf8.AppendRune(out, r)
		i += 4
	}
	return out, true
}

func (s *scanner) string(n *node) bool {
	raw, escaped, ok := s.scanString()
	if !ok || !n.accepts(tString) {
		return false
	}
	if n.minLength < 0 && n.maxLength < 0 && n.pattern == nil && n.format == nil && !n.hasEnum && !n.hasConst {
		return true
	}
	text := raw
	if escaped {
		if text, ok = unescape(raw); !ok {
			return false
		}
	}
	if n.minLength >= 0 || n.maxLength >= 0 {
		l := utf8.RuneCount(text)
		if n.minLength >= 0 && l < n.minLength || n.maxLength >= 0 && l > n.maxLength {
			return false
		}
	}
	if n.pattern != nil && !n.pattern.Match(text) {
		return false
	}
	if n.format != nil && !n.format(string(text)) {
		return false
	}
	eq := func(l *literal) bool { return l.s == string(text) }
	return (!n.hasEnum || oneOf(n.enum, tString, eq)) && (!n.hasConst || oneOf(n.constant, tString, eq))
}

func (s *scanner) number(n *node) bool {
	start := s.i
	num, end, ok := scanNumber(s.b, s.i)
	if !ok {
		return false
	}
	s.i = end
	d := &num.dec
	// The runtime's limits, and float64's range.
	if num.mantissa > s.lim.MaxMantissa || !num.expOK || num.exp > s.lim.MaxExponent || num.exp < -s.lim.MaxExponent ||
		d.point > 308 && cmpAbs(d, &maxFloat64) > 0 {
		return false
	}
	if n.types != 0 && n.types&tNumber == 0 && (n.types&tInteger == 0 || !d.isInt()) {
		return false
	}
	if n.int64Range && (cmp(d, &minInt64) < 0 || cmp(d, &maxInt64) > 0) {
		return false
	}
	if n.format != nil ||
		n.minimum != nil && cmp(d, n.minimum) < 0 ||
		n.maximum != nil && cmp(d, n.maximum) > 0 ||
		n.exclusiveMin != nil && cmp(d, n.exclusiveMin) <= 0 ||
		n.exclusiveMax != nil && cmp(d, n.exclusiveMax) >= 0 {
		return false
	}
	if n.multipleOf != nil {
		v, ok := new(big.Rat).SetString(string(s.b[start:end]))
		if !ok || !v.Quo(v, n.multipleOf).IsInt() {
			return false
		}
	}
	eq := func(l *literal) bool { return cmp(d, &l.n) == 0 }
	return (!n.hasEnum || oneOf(n.enum, tNumber, eq)) && (!n.hasConst || oneOf(n.constant, tNumber, eq))
}
