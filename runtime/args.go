package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/fastcheck"
	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// What arguments must be before anything looks at them: JSON, valid UTF-8,
// nested no deeper than maxNesting, numbers of sane size. Every surface reads
// arguments with parseArgs.

// maxNesting bounds how deeply arguments may nest. It keeps a hostile body
// from driving the decoder and the validator into deep recursion; no tool
// schema written by hand comes close.
const maxNesting = 128

// maxNumberExponent and maxNumberDigits bound a JSON number. The validator
// compares numbers exactly (as math/big rationals): 1e10000000 would make it
// allocate without end or fail outright, and a thousand-digit mantissa has
// no place in tool arguments. Past these, a number must also fit a float64
// (1e308), or no Go type could take it and a handler would fail to decode
// arguments the schema accepted.
const (
	maxNumberExponent = 1000
	maxNumberDigits   = 1000
)

// argLimits are the bounds above, for fastcheck, which must hold a body
// to exactly them before it may call it valid.
var argLimits = fastcheck.Limits{MaxNesting: maxNesting, MaxMantissa: maxNumberDigits, MaxExponent: maxNumberExponent}

// argsProblem is why a body is not acceptable arguments: not JSON, not
// valid UTF-8, or nested too deeply.
type argsProblem struct {
	msg string
}

// notJSON reports a body that does not parse as JSON but is not refused
// for what parseArgs refuses first (invalid UTF-8, nesting too deep): the
// kind of body the explorer's /call counts as {}.
func notJSON(b []byte) bool { return jsonProblem(b) == problemNotJSON }

// problemNotJSON is jsonProblem's word for bytes that do not parse.
const problemNotJSON = "not valid JSON"

// jsonProblem says what keeps b from being one JSON value the server
// reads, in the order every surface checks it: not valid UTF-8, nested
// deeper than maxNesting, or not JSON; "" when nothing does. A surface
// words a body's problem from it ("the body is " + problem), and the
// plain body every client sends is answered by one fast scan.
func jsonProblem(b []byte) string {
	switch {
	case plainJSON(b):
	case !utf8.Valid(b):
		return "not valid UTF-8"
	case jsonscan.Deeper(b, maxNesting):
		return fmt.Sprintf("nested deeper than %d levels", maxNesting)
	case !json.Valid(b):
		return problemNotJSON
	}
	return ""
}

// plainJSON reports whether b is one JSON value, valid UTF-8, nested no
// deeper than maxNesting: what every body and result nearly always is,
// answered about three times as fast as json.Valid alone answers
// (internal/jsonscan's BenchmarkValid). false means "not JSON, or not plain": a caller
// that must tell invalid UTF-8 or depth from bad syntax asks again.
func plainJSON(b []byte) bool { return jsonscan.Valid(b, maxNesting) }

// compactJSON reports whether b is plain JSON (see plainJSON) without
// white space outside its strings: what json.Compact writes for it is b.
func compactJSON(b []byte) bool {
	valid, compact := jsonscan.Compact(b, maxNesting)
	return valid && compact
}

// jsonCheck remembers what one scan found of one JSON text, with the
// text it is of (its first byte and its length), so that a second reader
// of the same bytes need not scan them again: history checks a
// structured result before it keeps it, and the explorer's encoder then
// writes the same bytes as they are (issue #27: each scan was about 2% of
// a REST call's instructions). The zero value remembers nothing; a nil
// one answers as the functions of the same names do.
type jsonCheck struct {
	first          *byte
	n              int
	valid, compact bool // as jsonscan.Compact says
}

// compactJSON is compactJSON(b), answered from c.
func (c *jsonCheck) compactJSON(b []byte) bool {
	if c == nil || len(b) == 0 {
		return compactJSON(b)
	}
	c.scan(b)
	return c.compact
}

// validJSON is validJSON(b), answered from c.
func (c *jsonCheck) validJSON(b []byte) bool {
	if c == nil || len(b) == 0 {
		return validJSON(b)
	}
	c.scan(b)
	return c.valid || json.Valid(b)
}

// scan makes c of b, scanning b unless c is of it already.
func (c *jsonCheck) scan(b []byte) {
	if c.first != &b[0] || c.n != len(b) {
		valid, compact := jsonscan.Compact(b, maxNesting)
		c.first, c.n, c.valid, c.compact = &b[0], len(b), valid, compact
	}
}

// validJSON is json.Valid, answered by plainJSON when it can.
func validJSON(b []byte) bool { return plainJSON(b) || json.Valid(b) }

// syntaxProblem words what encoding/json found wrong with b, which does
// not parse, for a client: where, in the client's terms, and not the
// decoder's text ("unexpected end of JSON input", "invalid character ...
// looking for beginning of value"), which speaks of the parser.
func syntaxProblem(b []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return problemNotJSON
	}
	if se.Error() == "unexpected end of JSON input" || int(se.Offset) > len(b) || se.Offset < 1 {
		// (The one error whose offset is not the offending byte's: a
		// stray byte at the end has the same offset. Its text has been
		// encoding/json's since Go 1.)
		return problemNotJSON + ": it ends before the value is complete"
	}
	at := max(int(se.Offset)-1, 0)
	r, _ := utf8.DecodeRune(b[at:])
	return fmt.Sprintf("%s: unexpected %q at byte %d", problemNotJSON, r, at+1)
}

// parseArgs decodes arguments for the validator (numbers as json.Number, so
// that no precision is lost before the schema's bounds are checked). It
// returns the value, or the problem with the body, or the numbers that are
// out of range (with their paths).
func parseArgs(b []byte) (any, *argsProblem, []ValidationIssue) {
	// Bytes that do not parse are worded by the decoder below, with the
	// offset of what is wrong.
	if p := jsonProblem(b); p != "" && p != problemNotJSON {
		return nil, &argsProblem{msg: p}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil && len(bytes.TrimSpace(b[dec.InputOffset():])) > 0 {
		// (dec.More would miss a stray ']' or '}': found by fuzzing.)
		err = fmt.Errorf("data after the JSON value")
	}
	if err != nil {
		var x any
		if jerr := json.Unmarshal(b, &x); jerr != nil {
			return nil, &argsProblem{msg: syntaxProblem(b, jerr)}, nil
		}
		return nil, &argsProblem{msg: err.Error()}, nil
	}
	var issues []ValidationIssue
	if path, key, dup := duplicateKey(b); dup {
		// encoding/json keeps the last of repeated names, the typed
		// decode of a handler may fail on the first: refused alike on
		// every surface, so that /validate and /call agree.
		issues = append(issues, ValidationIssue{Path: path, Message: fmt.Sprintf("duplicate key %q", key), Keyword: "format"})
	}
	checkNumbers(v, "", &issues)
	return v, nil, issues
}

// duplicateKey finds the first object member whose name repeats an earlier
// one of the same object, in b (valid JSON). It returns the member's JSON
// Pointer and its name.
func duplicateKey(b []byte) (path, key string, found bool) {
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
			return f.path + "/" + escapePointer(f.name)
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
				return f.path + "/" + escapePointer(name), name, true
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

func checkNumbers(v any, path string, issues *[]ValidationIssue) {
	switch v := v.(type) {
	case json.Number:
		if !saneNumber(string(v)) {
			*issues = append(*issues, ValidationIssue{Path: path, Message: "number out of range", Keyword: "format"})
		}
	case []any:
		for i, e := range v {
			checkNumbers(e, path+"/"+strconv.Itoa(i), issues)
		}
	case map[string]any:
		for k, e := range v {
			checkNumbers(e, path+"/"+escapePointer(k), issues)
		}
	}
}

func saneNumber(n string) bool {
	mant, exp, hasExp := strings.Cut(strings.ToLower(n), "e")
	if len(mant) > maxNumberDigits {
		return false
	}
	if hasExp {
		if e, err := strconv.Atoi(exp); err != nil || e < -maxNumberExponent || e > maxNumberExponent {
			return false
		}
	}
	_, err := strconv.ParseFloat(n, 64) // fails only past float64's range
	return err == nil
}
