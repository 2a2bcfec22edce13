// Package jsonread reads a tool call's arguments for the decoders toolgen
// generates: forward only, without reflection, allocating nothing but the
// strings and slices it hands back.
//
// It reads the plain form of JSON that nearly every call sends, and only
// that: an object whose keys are written without escapes and given once,
// with no null, numbers that fit the Go type exactly as written, strings
// whose escapes are the short ones (\n, \", ...). Anything else makes the
// Reader fail, and a generated decoder that sees it fail leaves its value
// as it was and hands the arguments to runtime.DecodeArgs, which reads
// them by encoding/json's rules (case-insensitive keys, null, \u escapes,
// whole numbers written as 1.0, its error messages). So the decoder is an
// optimisation that never changes what a call decodes to; the tests hold
// it to encoding/json.
//
// A Reader records its first failure: every method after it does nothing
// and returns the zero value, and End reports it.
package jsonread

import (
	"strconv"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// Reader reads one JSON text. The zero Reader has nothing to read.
type Reader struct {
	b      []byte
	i      int
	failed bool
	// first is set by Object and Array until the first Member or Item.
	first bool
}

// New returns a Reader of b.
func New(b []byte) Reader { return Reader{b: b} }

// Fail makes the read fail: a key the decoder does not know, a value it
// will not read.
func (r *Reader) Fail() { r.failed = true }

// End reports whether everything read was read and only white space is
// left.
func (r *Reader) End() bool {
	r.space()
	return !r.failed && r.i == len(r.b)
}

// Once fails the read when bit i of seen is set, and sets it: a member
// given twice is left to encoding/json, whose rules for it (the last
// wins, objects merge) the decoder does not repeat.
func (r *Reader) Once(seen *uint64, i uint) {
	if *seen&(1<<i) != 0 {
		r.failed = true
	}
	*seen |= 1 << i
}

// Object reads the '{' that opens an object.
func (r *Reader) Object() { r.open('{') }

// Array reads the '[' that opens an array.
func (r *Reader) Array() { r.open('[') }

// Member reports whether the object has another member, reading the comma
// before it, or the closing '}' when it has not.
func (r *Reader) Member() bool { return r.next('}') }

// Item reports whether the array has another element, reading the comma
// before it, or the closing ']' when it has not.
func (r *Reader) Item() bool { return r.next(']') }

func (r *Reader) open(c byte) {
	r.space()
	if r.failed || r.i >= len(r.b) || r.b[r.i] != c {
		r.failed = true
		return
	}
	r.i++
	r.first = true
}

func (r *Reader) next(end byte) bool {
	r.space()
	if r.failed || r.i >= len(r.b) {
		r.failed = true
		return false
	}
	c := r.b[r.i]
	if r.first {
		r.first = false
		if c == end {
			r.i++
			return false
		}
		return true
	}
	switch c {
	case ',':
		r.i++
		return true
	case end:
		r.i++
		return false
	}
	r.failed = true
	return false
}

// Key reads a member's key and the colon after it. A key with an escape
// fails: its bytes are not its name.
func (r *Reader) Key() []byte {
	r.space()
	if r.failed || r.i >= len(r.b) || r.b[r.i] != '"' {
		r.failed = true
		return nil
	}
	start := r.i + 1
	j := start
	for j < len(r.b) && r.b[j] != '"' && r.b[j] != '\\' && r.b[j] >= 0x20 {
		j++
	}
	if j >= len(r.b) || r.b[j] != '"' {
		r.failed = true
		return nil
	}
	key := r.b[start:j]
	r.i = j + 1
	r.space()
	if r.i >= len(r.b) || r.b[r.i] != ':' {
		r.failed = true
		return nil
	}
	r.i++
	return key
}

// String reads a string. Of the escapes it reads the short ones; \u fails.
func (r *Reader) String() string {
	r.space()
	if r.failed || r.i >= len(r.b) || r.b[r.i] != '"' {
		r.failed = true
		return ""
	}
	start := r.i + 1
	j, ascii := start, true
	for j < len(r.b) {
		c := r.b[j]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
		j++
	}
	if j >= len(r.b) || r.b[j] < 0x20 {
		r.failed = true
		return ""
	}
	if r.b[j] == '"' {
		s := r.b[start:j]
		if !ascii && !utf8.Valid(s) {
			// encoding/json reads invalid UTF-8 as U+FFFD.
			r.failed = true
			return ""
		}
		r.i = j + 1
		return string(s)
	}
	return r.escaped(start, j)
}

// escaped reads the rest of a string whose first escape is at j.
func (r *Reader) escaped(start, j int) string {
	out := make([]byte, j-start, j-start+16)
	copy(out, r.b[start:j])
	for j < len(r.b) {
		c := r.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				r.failed = true
				return ""
			}
			r.i = j + 1
			return string(out)
		case c < 0x20:
			r.failed = true
			return ""
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(r.b) {
			break
		}
		e, ok := jsonscan.Escaped(r.b[j+1])
		if !ok { // \u, and escapes JSON does not have
			r.failed = true
			return ""
		}
		out = append(out, e)
		j += 2
	}
	r.failed = true
	return ""
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	r.space()
	switch {
	case r.failed:
	case r.literal("true"):
		return true
	case r.literal("false"):
		return false
	}
	r.failed = true
	return false
}

func (r *Reader) literal(s string) bool {
	if len(r.b)-r.i >= len(s) && string(r.b[r.i:r.i+len(s)]) == s {
		r.i += len(s)
		return true
	}
	return false
}

// Int reads an integer that fits in bits bits (0: the size of int),
// written without a fraction or an exponent.
func (r *Reader) Int(bits int) int64 {
	r.space()
	if r.failed || r.i >= len(r.b) {
		r.failed = true
		return 0
	}
	neg := r.b[r.i] == '-'
	if neg {
		r.i++
	}
	u, ok := r.digits()
	if bits == 0 {
		bits = strconv.IntSize
	}
	limit := uint64(1) << (bits - 1) // the magnitude of the smallest
	if !ok || u > limit || (!neg && u == limit) {
		r.failed = true
		return 0
	}
	if neg {
		return -int64(u)
	}
	return int64(u)
}

// Uint reads an unsigned integer that fits in bits bits (0: the size of
// uint), written without a sign, a fraction or an exponent.
func (r *Reader) Uint(bits int) uint64 {
	r.space()
	if r.failed {
		return 0
	}
	u, ok := r.digits()
	if bits == 0 {
		bits = strconv.IntSize
	}
	if !ok || (bits < 64 && u >= 1<<bits) {
		r.failed = true
		return 0
	}
	return u
}

// digits reads the digits of a JSON integer (no leading zeros), not
// followed by a fraction or an exponent; false when there are none, or
// too many for a uint64.
func (r *Reader) digits() (uint64, bool) {
	start := r.i
	var u uint64
	for r.i < len(r.b) {
		c := r.b[r.i]
		if c < '0' || c > '9' {
			break
		}
		d := uint64(c - '0')
		if u > (1<<64-1-d)/10 {
			return 0, false
		}
		u = u*10 + d
		r.i++
	}
	switch n := r.i - start; {
	case n == 0, n > 1 && r.b[start] == '0':
		return 0, false
	case r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E'):
		return 0, false // encoding/json decides what 1.0 or 1e3 is to an integer
	}
	return u, true
}

// Float reads a number as a float of bits bits (32 or 64).
func (r *Reader) Float(bits int) float64 {
	r.space()
	if r.failed {
		return 0
	}
	end, ok := jsonscan.Number(r.b, r.i)
	if !ok {
		r.failed = true
		return 0
	}
	f, err := strconv.ParseFloat(string(r.b[r.i:end]), bits)
	r.i = end
	if err != nil { // out of range: encoding/json's error
		r.failed = true
		return 0
	}
	return f
}

func (r *Reader) space() { r.i = jsonscan.Space(r.b, r.i) }
