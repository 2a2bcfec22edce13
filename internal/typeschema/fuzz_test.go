package typeschema

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// Fuzz targets: `go test ./internal/typeschema -run '^$' -fuzz FuzzSchemaTag -fuzztime 1m`.

// A struct tag's jsonschema items parse without panicking, and what
// parses prints back (commas escaped, the value quoted) to a tag that
// parses to the same items, wherever the syntax can say it.
func FuzzSchemaTag(f *testing.F) {
	for _, s := range []string{
		`json:"x" jsonschema:"minimum=1,maximum=14,default=1"`, `jsonschema:"-"`, `jsonschema:"enum=a,enum=b"`,
		`jsonschema:"description=a\\, b"`, `jsonschema_description:"a, b" jsonschema:"title=T"`, `jsonschema:"required"`,
		`jsonschema:"`, `jsonschema:x`, `json:"a,omitempty"`, ``, `jsonschema:"=x,,k="`, `jsonschema:"pattern=^[a-z]+$"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		items, skip, err := parseSchemaTag(tag)
		if err != nil || skip {
			return
		}
		if len(items) == 1 && items[0].key == "-" && !items[0].hasValue {
			return // `- ` is an item named "-"; printed alone it would be `-`, the skip marker
		}
		parts := make([]string, 0, len(items))
		for _, it := range items {
			if strings.Contains(it.key, ",") || strings.HasSuffix(it.value, `\`) || strings.HasSuffix(it.key, `\`) || (it.key == "" && !it.hasValue) || it.key != strings.TrimSpace(it.key) {
				return // not something the syntax can write back
			}
			p := it.key
			if it.hasValue {
				p += "=" + it.value
			}
			parts = append(parts, strings.ReplaceAll(p, ",", `\,`))
		}
		printed := `jsonschema:` + strconv.Quote(strings.Join(parts, ","))
		again, skip, err := parseSchemaTag(printed)
		if err != nil || skip {
			t.Fatalf("%q printed as %q: %v", tag, printed, err)
		}
		if len(again) != len(items) {
			t.Fatalf("%q: %d items, %d after printing %q", tag, len(items), len(again), printed)
		}
		for i := range items {
			if items[i] != again[i] {
				t.Fatalf("%q: item %d %+v became %+v through %q", tag, i, items[i], again[i], printed)
			}
		}
	})
}

// Any JSON (or not) renders as a signature without panicking, starting
// with the tool's name.
func FuzzSignature(f *testing.F) {
	f.Add(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","default":1}},"required":["city"]}`, `{"type":"number"}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"enum":["a","b",1,null]}}}`, `{"type":["array","null"],"items":{"anyOf":[{"type":"string"},{"const":3}]}}`)
	f.Add(`{"properties":{"x":{"oneOf":[]}}}`, `not json`)
	f.Add(`[]`, ``)
	f.Fuzz(func(t *testing.T, input, output string) {
		sig := Signature("tool", json.RawMessage(input), json.RawMessage(output), "")
		if !strings.HasPrefix(sig, "tool(") {
			t.Fatalf("%q", sig)
		}
		_ = Arguments(json.RawMessage(input))
	})
}
