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
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// What arguments must be before anything looks at them: JSON, valid UTF-8,
// nested no deeper than maxNesting, numbers of sane size. Every surface reads
// arguments with parseArgs.

// maxNesting bounds how deeply arguments may nest. It keeps a hostile body
// from driving the decoder and the validator into deep recursion; no tool
// schema written by hand comes close.
const maxNesting = jsoncheck.MaxNesting

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
func notJSON(b []byte) bool { return jsoncheck.Problem(b) == jsoncheck.ProblemNotJSON }

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
func validJSON(b []byte) bool { return jsoncheck.Plain(b) || json.Valid(b) }

// syntaxProblem words what encoding/json found wrong with b, which does
// not parse, for a client: where, in the client's terms, and not the
// decoder's text ("unexpected end of JSON input", "invalid character ...
// looking for beginning of value"), which speaks of the parser.
func syntaxProblem(b []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return jsoncheck.ProblemNotJSON
	}
	if se.Error() == "unexpected end of JSON input" || int(se.Offset) > len(b) || se.Offset < 1 {
		// (The one error whose offset is not the offending byte's: a
		// stray byte at the end has the same offset. Its text has been
		// encoding/json's since Go 1.)
		return jsoncheck.ProblemNotJSON + ": it ends before the value is complete"
	}
	at := max(int(se.Offset)-1, 0)
	r, _ := utf8.DecodeRune(b[at:])
	return fmt.Sprintf("%s: unexpected %q at byte %d", jsoncheck.ProblemNotJSON, r, at+1)
}

// parseArgs decodes arguments for the validator (numbers as json.Number, so
// that no precision is lost before the schema's bounds are checked). It
// returns the value, or the problem with the body, or the numbers that are
// out of range (with their paths).
func parseArgs(b []byte) (any, *argsProblem, []ValidationIssue) {
	// Bytes that do not parse are worded by the decoder below, with the
	// offset of what is wrong.
	if p := jsoncheck.Problem(b); p != "" && p != jsoncheck.ProblemNotJSON {
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
	if path, key, dup := jsoncheck.DuplicateKey(b); dup {
		// encoding/json keeps the last of repeated names, the typed
		// decode of a handler may fail on the first: refused alike on
		// every surface, so that /validate and /call agree.
		issues = append(issues, ValidationIssue{Path: path, Message: fmt.Sprintf("duplicate key %q", key), Keyword: "format"})
	}
	checkNumbers(v, "", &issues)
	return v, nil, issues
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
			checkNumbers(e, path+"/"+jsoncheck.EscapePointer(k), issues)
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
