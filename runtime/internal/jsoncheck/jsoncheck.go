// Package jsoncheck says what is wrong with a body that is not the JSON
// the runtime reads: invalid UTF-8, nesting too deep, not JSON, a
// duplicated member. It is a leaf the core and every surface share, so
// that a body's problem is worded the same way everywhere.
package jsoncheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// MaxNesting bounds how deeply a body may nest. It keeps a hostile body
// from driving the decoder and the validator into deep recursion; no tool
// schema written by hand comes close.
const MaxNesting = 128

// ProblemNotJSON is Problem's word for bytes that do not parse.
const ProblemNotJSON = "not valid JSON"

// Problem says what keeps b from being one JSON value the server
// reads, in the order every surface checks it: not valid UTF-8, nested
// deeper than MaxNesting, or not JSON; "" when nothing does. A surface
// words a body's problem from it ("the body is " + problem), and the
// plain body every client sends is answered by one fast scan.
func Problem(b []byte) string {
	switch {
	case Plain(b):
	case !utf8.Valid(b):
		return "not valid UTF-8"
	case jsonscan.Deeper(b, MaxNesting):
		return fmt.Sprintf("nested deeper than %d levels", MaxNesting)
	case !json.Valid(b):
		return ProblemNotJSON
	}
	return ""
}

// Plain reports whether b is one JSON value, valid UTF-8, nested no
// deeper than MaxNesting: what every body and result nearly always is,
// answered about three times as fast as json.Valid alone answers
// (internal/jsonscan's BenchmarkValid). false means "not JSON, or not plain": a caller
// that must tell invalid UTF-8 or depth from bad syntax asks again.
func Plain(b []byte) bool { return jsonscan.Valid(b, MaxNesting) }

// DuplicateKey finds the first object member whose name repeats an earlier
// one of the same object, in b (valid JSON). It returns the member's JSON
// Pointer and its name.
func DuplicateKey(b []byte) (path, key string, found bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type frame struct {
		object bool
		keys   map[string]bool
		path   string
		index  int    // arrays: the next element's index
		name   string // objects: the member being read
		inKey  bool   // objects: the next string token is a name
	}
	var stack []*frame
	// child is the path of the value about to be read in the innermost
	// container.
	child := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.object {
			return f.path + "/" + EscapePointer(f.name)
		}
		return f.path + "/" + strconv.Itoa(f.index)
	}
	// done marks a value of the innermost container read.
	done := func() {
		if len(stack) == 0 {
			return
		}
		f := stack[len(stack)-1]
		if f.object {
			f.inKey = true
		} else {
			f.index++
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", "", false
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].inKey {
			f := stack[n-1]
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:n-1]
				done()
				continue
			}
			name, _ := tok.(string)
			if f.keys[name] {
				return f.path + "/" + EscapePointer(name), name, true
			}
			f.keys[name] = true
			f.name, f.inKey = name, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, path: child(), inKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: child()})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
			done()
		default:
			done()
		}
		if len(stack) == 0 {
			return "", "", false
		}
	}
}

func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// Canonical is v with its object keys sorted and no insignificant
// space, so that the same arguments sent twice compare equal (no
// arguments are {}); v itself when it is not JSON.
func Canonical(v json.RawMessage) []byte {
	if len(bytes.TrimSpace(v)) == 0 {
		return []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return v
	}
	b, err := json.Marshal(x)
	if err != nil {
		return v
	}
	return b
}
