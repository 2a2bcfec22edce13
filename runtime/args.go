package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
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
// no place in tool arguments. float64 ends at 1e308.
const (
	maxNumberExponent = 1000
	maxNumberDigits   = 1000
)

// argsProblem is why a body is not acceptable arguments. notJSON marks a
// body that does not parse as JSON at all (the explorer's /call treats
// that as {}); the rest (invalid UTF-8, nesting too deep) is refused
// everywhere.
type argsProblem struct {
	notJSON bool
	msg     string
}

// parseArgs decodes arguments for the validator (numbers as json.Number, so
// that no precision is lost before the schema's bounds are checked). It
// returns the value, or the problem with the body, or the numbers that are
// out of range (with their paths).
func parseArgs(b []byte) (any, *argsProblem, []ValidationIssue) {
	if !utf8.Valid(b) {
		return nil, &argsProblem{msg: "not valid UTF-8"}, nil
	}
	if nestedTooDeep(b) {
		return nil, &argsProblem{msg: fmt.Sprintf("nested deeper than %d levels", maxNesting)}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.More() {
		err = fmt.Errorf("data after the JSON value")
	}
	if err != nil {
		var x any
		if jerr := json.Unmarshal(b, &x); jerr != nil {
			err = jerr // encoding/json's message, with its offset
		}
		return nil, &argsProblem{notJSON: true, msg: err.Error()}, nil
	}
	var issues []ValidationIssue
	checkNumbers(v, "", &issues)
	return v, nil, issues
}

// nestedTooDeep scans for brackets outside strings, whether or not the
// text is valid JSON (encoding/json itself stops at 10,000 levels).
func nestedTooDeep(b []byte) bool {
	depth := 0
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxNesting {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
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
	if !hasExp {
		return true
	}
	e, err := strconv.Atoi(exp)
	return err == nil && e >= -maxNumberExponent && e <= maxNumberExponent
}
