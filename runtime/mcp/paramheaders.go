package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// The Mcp-Param-* headers of a 2026-07-28 tools/call (SEP-2243): a
// parameter whose schema names a header (x-mcp-header) is mirrored into
// it, so that what routes requests can read it, and the server checks
// that the two agree. toolgen checks them as the go-sdk checks them for
// the tools of its registry (a ToolList's: a function provider's tools
// are outside it, and unchecked on either path), with the same words, so
// that a call of such a tool is answered natively too.

// paramBinding is a parameter mirrored into a header: its path of
// property names, and the header's name after Mcp-Param-.
type paramBinding struct {
	path   []string
	header string
}

// schemaProps is what paramBindings reads of a schema.
type schemaProps struct {
	XMCPHeader json.RawMessage        `json:"x-mcp-header"`
	Properties map[string]schemaProps `json:"properties"`
}

// paramBindings are the parameters of schema mirrored into headers, at
// any depth, by path.
func paramBindings(schema json.RawMessage) []paramBinding {
	var root schemaProps
	if json.Unmarshal(schema, &root) != nil {
		return nil
	}
	var out []paramBinding
	var walk func(props map[string]schemaProps, prefix []string)
	walk = func(props map[string]schemaProps, prefix []string) {
		for name, p := range props {
			path := append(slices.Clone(prefix), name)
			var header string
			if json.Unmarshal(p.XMCPHeader, &header) == nil && header != "" {
				out = append(out, paramBinding{path, header})
			}
			walk(p.Properties, path)
		}
	}
	walk(root.Properties, nil)
	slices.SortFunc(out, func(a, b paramBinding) int { return slices.Compare(a.path, b.path) })
	return out
}

// paramHeaderProblem is what is wrong with the Mcp-Param-* headers h of a
// call of t with args (its params' arguments), in the SDK's words; "" when
// nothing is.
func paramHeaderProblem(h http.Header, t *runtime.Tool, args json.RawMessage) string {
	if !bytes.Contains(t.InputSchema, []byte(`x-mcp-header`)) && !bytes.Contains(t.InputSchema, []byte(`\u`)) {
		// Nearly every tool (a key written with escapes is read, as the
		// SDK reads it): its schema, read on every call, was a third of
		// a native call's allocations (BenchmarkMCPMethods).
		return ""
	}
	bindings := paramBindings(t.InputSchema)
	if len(bindings) == 0 {
		return ""
	}
	var obj map[string]json.RawMessage
	if len(args) > 0 && json.Unmarshal(args, &obj) != nil {
		return "" // arguments that are not an object: nothing to mirror
	}
	for _, b := range bindings {
		name := "Mcp-Param-" + b.header
		value := h.Get(name)
		path := strings.Join(b.path, ".")
		arg, ok := argumentAt(obj, b.path)
		if !ok || string(arg) == "null" {
			if value != "" {
				return fmt.Sprintf("header mismatch: unexpected %s header for absent or null parameter %q", name, path)
			}
			continue
		}
		if value == "" {
			return fmt.Sprintf("header mismatch: missing %s header for parameter %q", name, path)
		}
		decoded, ok := headerText(value)
		if !ok {
			return fmt.Sprintf("header mismatch: %s header contains invalid Base64 encoding", name)
		}
		body, ok := headerPrimitive(arg)
		if !ok {
			return fmt.Sprintf("header mismatch: %s header present but body parameter %q is not a primitive type", name, path)
		}
		if !sameHeaderValue(decoded, body) {
			return fmt.Sprintf("header mismatch: %s header value '%s' does not match body value", name, value)
		}
	}
	return ""
}

// argumentAt is the argument at path, through nested objects.
func argumentAt(obj map[string]json.RawMessage, path []string) (json.RawMessage, bool) {
	cur, ok := obj[path[0]]
	for _, p := range path[1:] {
		if !ok {
			return nil, false
		}
		var inner map[string]json.RawMessage
		if json.Unmarshal(cur, &inner) != nil {
			return nil, false
		}
		cur, ok = inner[p]
	}
	return cur, ok
}

// headerText is a header's value as sent: as it is, or the text of a
// =?base64?...?= wrapper (SEP-2243's encoding of what a header cannot
// carry). false for a wrapper that does not decode.
func headerText(v string) (string, bool) {
	inner, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, true
	}
	if inner, ok = strings.CutSuffix(inner, "?="); !ok {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(inner)
	return string(b), err == nil
}

// maxSafeInteger bounds the integers a header may mirror: those a double
// holds exactly.
const maxSafeInteger = 1<<53 - 1

// headerPrimitive is an argument a header can mirror, as the header's
// text writes it: a string, a boolean, or an integer within
// ±maxSafeInteger (as a decimal). false for anything else.
func headerPrimitive(arg json.RawMessage) (any, bool) {
	var v any
	if json.Unmarshal(arg, &v) != nil {
		return nil, false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > maxSafeInteger {
			return nil, false
		}
		return int64(v), true
	}
	return nil, false
}

// sameHeaderValue reports whether a header's text mirrors body (what
// headerPrimitive gave): an integer compared as a number, anything else
// as text.
func sameHeaderValue(text string, body any) bool {
	if n, ok := body.(int64); ok {
		f, err := strconv.ParseFloat(text, 64)
		return err == nil && f == math.Trunc(f) && math.Abs(f) <= maxSafeInteger && int64(f) == n
	}
	return text == body
}
