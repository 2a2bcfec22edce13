// Package jsonwrite writes JSON byte for byte as encoding/json's Marshal
// does, without reflection, for the encoders toolgen generates for tools'
// structured results, and for the runtime's own answers.
//
// A generated encoder writes a value with one method call a member or
// element; it is written only for types whose every JSON value it can
// write exactly as Marshal would (no MarshalJSON of their own, no map,
// no interface). The one value Marshal refuses that such a type can hold,
// a float that is NaN or infinite, makes the Writer fail; the encoder
// then reports false and the result is left to encoding/json, which
// reports the error in its own words.
package jsonwrite

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// Writer appends one JSON text to a byte slice.
type Writer struct {
	b      []byte
	failed bool
}

// New returns a Writer whose buffer starts with room for size bytes.
func New(size int) Writer { return Writer{b: make([]byte, 0, size)} }

// Bytes returns what was written, or false when a value could not be.
func (w *Writer) Bytes() ([]byte, bool) {
	if w.failed {
		return nil, false
	}
	return w.b, true
}

// Object opens an object.
func (w *Writer) Object() { w.b = append(w.b, '{') }

// EndObject closes an object.
func (w *Writer) EndObject() { w.b = append(w.b, '}') }

// Array opens an array.
func (w *Writer) Array() { w.b = append(w.b, '[') }

// EndArray closes an array.
func (w *Writer) EndArray() { w.b = append(w.b, ']') }

// Field writes a member's key, and the comma before it unless it is the
// object's first. The key must need no escaping (the generator writes
// only such keys).
func (w *Writer) Field(key string) {
	if w.b[len(w.b)-1] != '{' {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, key...)
	w.b = append(w.b, '"', ':')
}

// Elem writes the comma before an array's element unless it is the
// first.
func (w *Writer) Elem() {
	if w.b[len(w.b)-1] != '[' {
		w.b = append(w.b, ',')
	}
}

// Null writes null: a nil pointer or slice.
func (w *Writer) Null() { w.b = append(w.b, "null"...) }

// String writes a string as Marshal does: HTML's <, > and & escaped too.
func (w *Writer) String(s string) { w.b = AppendString(w.b, s, true) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

// Int writes a signed integer.
func (w *Writer) Int(v int64) { w.b = strconv.AppendInt(w.b, v, 10) }

// Uint writes an unsigned integer.
func (w *Writer) Uint(v uint64) { w.b = strconv.AppendUint(w.b, v, 10) }

// Float writes a float of bits bits (32 or 64) as Marshal does; NaN and
// the infinities, which JSON cannot hold, make the Writer fail.
func (w *Writer) Float(f float64, bits int) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.failed = true
		return
	}
	w.b = AppendFloat(w.b, f, bits)
}

// AppendFloat appends f, a float of bits bits, as encoding/json writes
// it: like JavaScript, in decimal unless it is very large or very small,
// with the exponent's leading zero dropped (1e-07 is written 1e-7).
// f must be neither NaN nor infinite.
func AppendFloat(b []byte, f float64, bits int) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes it: quote, backslash and control characters (\n, \t and the
// like where JSON has them), invalid UTF-8 as \ufffd, U+2028 and U+2029
// for JavaScript, and with html <, > and & (Marshal's default; an
// Encoder with SetEscapeHTML(false) leaves them).
func AppendString(b []byte, s string, html bool) []byte {
	const hex = "0123456789abcdef"
	esc := &escapes
	if html {
		esc = &htmlEscapes
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		e := esc[s[i]]
		if e == 0 {
			i++
			continue
		}
		if e != multibyte {
			b = append(b, s[start:i]...)
			if e == 'u' {
				c := s[i]
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, '\\', e)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// escapes says how AppendString writes each byte: 0 as it is; a letter or
// character c as a backslash and c (\n, \"); 'u' as \u00XX; multibyte
// when it starts (or is not) a UTF-8 sequence, which is looked at whole.
// One load a byte, where the comparisons it replaces were most of a
// structured result's text (its JSON, a quote every few bytes).
var escapes, htmlEscapes = func() (plain, html [256]byte) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			plain[c] = multibyte
		case c == '"' || c == '\\':
			plain[c] = byte(c)
		case c == '\b':
			plain[c] = 'b'
		case c == '\f':
			plain[c] = 'f'
		case c == '\n':
			plain[c] = 'n'
		case c == '\r':
			plain[c] = 'r'
		case c == '\t':
			plain[c] = 't'
		case c < 0x20:
			plain[c] = 'u'
		}
	}
	html = plain
	html['<'], html['>'], html['&'] = 'u', 'u', 'u'
	return plain, html
}()

// multibyte marks, in escapes, a byte of a UTF-8 sequence.
const multibyte = 0xff
