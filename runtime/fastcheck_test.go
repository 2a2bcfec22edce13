package runtime

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolgen-go/toolgen/internal/compile"
	"github.com/toolgen-go/toolgen/internal/fastcheck"
)

// The fast checker against the full path (parseArgs, then jsonschema):
// whenever fastcheck says valid, the full path must accept, on every schema
// the generator writes in the golden cases and examples and on hand-written
// edge schemas; and on plain valid bodies it must say valid, or the fast
// path is never taken.

// edgeSchemas are schemas written to corner the checker.
var edgeSchemas = []string{
	forecastSchema,
	`{"type":"object"}`,
	`true`,
	`{}`,
	`{"type":"object","properties":{"n":{"type":"number"}}}`,
	`{"type":"object","properties":{"n":{"type":"integer"}}}`,
	`{"type":"object","properties":{"n":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}}}`,
	`{"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":18446744073709551615}}}`,
	// The 64-bit rule (compile.Int64Range): integer schemas take int64's
	// range unless a bound of their own widens it.
	`{"type":"object","properties":{"n":{"type":"integer","minimum":0}}}`,
	`{"type":"object","properties":{"n":{"type":["integer","null"]}}}`,
	`{"type":"object","properties":{"n":{"type":["integer","number"]}}}`,
	`{"type":"object","properties":{"n":{"type":"integer","exclusiveMaximum":1e30}}}`,
	`{"type":"object","properties":{"n":{"type":"integer","minimum":-1e19}}}`,
	`{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"number","minimum":1e19}]}}}`,
	`{"type":"object","properties":{"n":{"type":"number","minimum":0.1}}}`,
	`{"type":"object","properties":{"n":{"type":"number","maximum":0.1}}}`,
	`{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}}}`,
	`{"type":"object","properties":{"n":{"type":"number","minimum":-3.4028234663852886e+38,"maximum":3.4028234663852886e+38}}}`,
	`{"type":"object","properties":{"n":{"enum":[1,"1",true,null,0.5,-0]}}}`,
	`{"type":"object","properties":{"n":{"const":100}}}`,
	`{"type":"object","properties":{"n":{"const":"a\"b\u00e9"}}}`,
	`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":3}}}`,
	`{"type":"object","properties":{"s":{"type":"string","pattern":"^[a-z]+$"}}}`,
	`{"type":"object","properties":{"s":{"type":"string","pattern":"é"}}}`,
	`{"type":"object","properties":{"s":{"type":"string","format":"date-time"}}}`,
	`{"type":"object","properties":{"s":{"format":"email"}}}`,
	`{"type":"object","properties":{"s":{"type":"string","format":"no-such-format"}}}`,
	`{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":2}}}`,
	`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]}`,
	`{"type":"object","required":["a","b"]}`,
	`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`,
	`{"type":"object","properties":{"a":{"type":"string"}},"required":["b"],"additionalProperties":false}`,
	`{"type":"object","properties":{"o":{"anyOf":[{"type":"string"},{"type":"integer","minimum":5}]}}}`,
	`{"$defs":{"node":{"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#/$defs/node"}},"required":["v"]}},"$ref":"#/$defs/node"}`,
	`{"type":"object","properties":{"self":{"$ref":"#"},"n":{"type":"number","maximum":1e400}}}`,
	`{"type":"object","properties":{"n":{"type":"number","minimum":1e-400}}}`,
	`{"type":"object","properties":{"n":false}}`,
	`{"type":"object","properties":{"n":true}}`,
	`{"type":"array","items":{"type":"array"}}`,
}

// bodies are tried on every schema.
var bodies = []string{
	forecastBody,
	`{"city":"Paris","days":3.0,"units":"celsius"}`,
	`{"city":"Paris","days":3e0,"units":"fahrenheit"}`,
	`{"city":"Paris","days":0.3e1,"units":"celsius"}`,
	`{"city":"Paris","days":30e-1,"units":"celsius"}`,
	`{"city":"Paris","days":1.4E+1,"units":"celsius"}`,
	`{"city":"Paris","days":14.000000000000000001,"units":"celsius"}`,
	`{"city":"Paris","days":-0,"units":"celsius"}`,
	`{"city":"","days":3,"units":"celsius"}`,
	`{"city":"P\u00e9ris","days":3,"units":"cels\u0069us"}`,
	`{"ci\u0074y":"Paris","days":3,"units":"celsius"}`,
	`{"city":"Paris","days":3,"units":"celsius","city":"Rome"}`,
	`{"city":"Paris","days":3,"units":"celsius","days":99}`,
	`{"city":"Paris","days":3,"units":"celsius"} `,
	`{"city":"Paris","days":3,"units":"celsius"}x`,
	`{"city":"Paris","days":3,"units":"celsius"}}`,
	`{"city":"Paris","days":3,"units":"celsius"}` + "\f",
	`{"city":"Paris","days":3,"units":"celsius",}`,
	"{\"city\":\"Par\xffis\",\"days\":3,\"units\":\"celsius\"}",
	"{\"city\":\"Par\xed\xa0\x80is\",\"days\":3,\"units\":\"celsius\"}", // a surrogate in UTF-8: not valid UTF-8
	`{"city":"\ud83d\ude00","days":3,"units":"celsius"}`,
	`{"city":"\ud800","days":3,"units":"celsius"}`,
	"{\"city\":\"a\tb\",\"days\":3,\"units\":\"celsius\"}",
	`{}`, ``, ` `, `null`, `[]`, `"x"`, `3`, `true`,
	`{"n":1}`, `{"n":1.0}`, `{"n":1e0}`, `{"n":-0}`, `{"n":-0.0}`, `{"n":0}`, `{"n":100}`, `{"n":1e2}`, `{"n":10E1}`,
	`{"n":0.1}`, `{"n":0.1000000000000000001}`, `{"n":0.0999999999999999999}`, `{"n":0.10}`, `{"n":1e-1}`,
	`{"n":1e400}`, `{"n":1e-400}`, `{"n":1e308}`, `{"n":1.7976931348623157e308}`, `{"n":1.8e308}`, `{"n":1e1000}`, `{"n":1e-1000}`, `{"n":1e1001}`, `{"n":0e99999}`,
	`{"n":9223372036854775807}`, `{"n":9223372036854775808}`, `{"n":-9223372036854775808}`, `{"n":-9223372036854775809}`,
	`{"n":18446744073709551615}`, `{"n":18446744073709551616}`, `{"n":1e19}`, `{"n":-1e19}`, `{"n":9.223372036854775807e18}`, `{"n":9.223372036854775808e18}`, `{"n":-9.223372036854775808e18}`, `{"n":-9.223372036854775809e18}`, `{"n":92233720368547758.07e2}`, `{"n":123456789012345678901234567890}`,
	`{"n":3.4028234663852886e+38}`, `{"n":3.4028234663852887e+38}`, `{"n":-3.4028234663852886e38}`,
	`{"n":"1"}`, `{"n":true}`, `{"n":null}`, `{"n":0.5}`, `{"n":[1]}`, `{"n":{}}`, `{"n":01}`, `{"n":1.}`, `{"n":.5}`, `{"n":+1}`, `{"n":-}`, `{"n":1e}`,
	`{"n":` + strings.Repeat("1", 999) + `}`, `{"n":` + strings.Repeat("1", 1001) + `}`, `{"n":0.` + strings.Repeat("0", 998) + `1}`,
	`{"s":"ab"}`, `{"s":"abcd"}`, `{"s":"a"}`, `{"s":"éé"}`, `{"s":"\u00e9\u00e9"}`, `{"s":"ééé"}`, `{"s":"😀😀"}`, `{"s":"\ud83d\ude00\ud83d\ude00"}`, `{"s":"\ud800\ud800"}`, `{"s":"a\u0000"}`,
	`{"s":"abc"}`, `{"s":"ABC"}`, `{"s":"a\/b"}`, `{"s":"é"}`, `{"s":"\u00e9"}`,
	`{"s":"2024-01-02T03:04:05Z"}`, `{"s":"2024-13-02T03:04:05Z"}`, `{"s":"2024-01-02T03:04:05\u005a"}`, `{"s":"a@b.co"}`, `{"s":"nope"}`, `{"s":5}`,
	`{"a":[1]}`, `{"a":[1,2]}`, `{"a":[1,2,3]}`, `{"a":[]}`, `{"a":[1.0,2e0]}`, `{"a":[1.5]}`, `{"a":null}`, `{"a":"x"}`, `{"a":5}`, `{"a":"x","b":1}`, `{"b":1}`, `{"a":"x","b":"y"}`,
	`{"o":"x"}`, `{"o":5}`, `{"o":4}`, `{"o":5.0}`, `{"o":true}`,
	`{"v":1}`, `{"v":1,"next":{"v":2}}`, `{"v":1,"next":{"v":2.5}}`, `{"v":1,"next":{}}`,
	`{"self":{"self":{"n":1e300}}}`, `{"self":{"n":"x"}}`,
	`{"n":1,"n":"x"}`, `{"n":"x","n":1}`,
	`[[1],[2,[3]]]`, `[1]`,
	strings.Repeat("[", 128) + strings.Repeat("]", 128),
	strings.Repeat("[", 129) + strings.Repeat("]", 129),
	`{"a":` + strings.Repeat("[", 127) + strings.Repeat("]", 127) + `}`,
	`{"a":` + strings.Repeat("[", 128) + strings.Repeat("]", 128) + `}`,
	strings.Repeat(`{"name":"x","children":[`, 63) + `{"name":"x"}` + strings.Repeat("]}", 63), // recursive, 127 deep
	strings.Repeat(`{"name":"x","children":[`, 64) + `{"name":"x"}` + strings.Repeat("]}", 64),
	`{"self":` + strings.Repeat(`{"self":`, 126) + `{}` + strings.Repeat("}", 126) + `}`,
	`{"self":` + strings.Repeat(`{"self":`, 127) + `{}` + strings.Repeat("}", 127) + `}`,
}

// fullAccepts is today's path: parseArgs, then the compiled schema.
func fullAccepts(ct *compiledTool, body []byte) bool {
	v, problem, issues := parseArgs(body)
	if problem != nil || issues != nil {
		return false
	}
	return ct.validate(v) == nil
}

func fullTool(schema string) *compiledTool {
	return &compiledTool{src: schema, compiles: new(atomic.Int64)}
}

// generatedSchemas returns the input schemas of the golden cases' and the
// examples' generated code, by file and tool.
func generatedSchemas(t testing.TB) map[string]string {
	files, err := filepath.Glob("../testdata/golden/*/tools_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := filepath.Glob("../examples/*/tools_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, ex...)
	if len(files) < 20 {
		t.Fatalf("found %d generated files, want the golden cases and examples", len(files))
	}
	re := regexp.MustCompile("(?s)const (toolgen\\w*InputSchema) = `([^`]*)`")
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			out[filepath.Base(filepath.Dir(f))+"."+string(m[1])] = string(m[2])
		}
	}
	return out
}

// fallsBack lists the generated schemas the fast checker does not cover,
// and why. Everything else must compile.
var fallsBack = map[string]string{
	"conformance.toolgenJSONSchema202012ToolInputSchema": "$anchor (the conformance suite's showcase of 2020-12)",
	"tags.toolgenTaggedInputSchema":                      "uniqueItems (a tag asks for it; comparing items by value is left to jsonschema)",
	"yaml_types.toolgenPlanTripInputSchema":              "allOf (written by hand in tools.yaml)",
}

func TestFastCheckCoversGenerated(t *testing.T) {
	if fastcheck.Compile([]byte(forecastSchema), argLimits) == nil {
		t.Fatal("the benchmark's forecast schema falls back")
	}
	schemas := generatedSchemas(t)
	names := make([]string, 0, len(schemas))
	for name := range schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	covered := 0
	for _, name := range names {
		c := fastcheck.Compile([]byte(schemas[name]), argLimits)
		_, expected := fallsBack[name]
		switch {
		case c == nil && !expected:
			t.Errorf("%s falls back:\n%s", name, schemas[name])
		case c != nil && expected:
			t.Errorf("%s is covered now: take it off fallsBack", name)
		case c != nil:
			covered++
		}
	}
	t.Logf("%d of %d generated schemas covered", covered, len(names))
}

// Every schema fastcheck accepts compiles with jsonschema: the runtime
// relies on it when it defers that compile.
func TestFastCheckCompileIsStrict(t *testing.T) {
	bad := []string{
		`{"type":"strin"}`, `{"type":[]}`, `{"type":["string","string"]}`, `{"type":3}`,
		`{"minimum":"3"}`, `{"maximum":true}`, `{"exclusiveMinimum":true}`, `{"minLength":-1}`, `{"minLength":1.5}`, `{"maxItems":"2"}`,
		`{"required":"x"}`, `{"required":["x","x"]}`, `{"required":[1]}`, `{"required":null}`, `{"properties":[]}`, `{"properties":{"a":3}}`,
		`{"additionalProperties":"no"}`, `{"items":[{}]}`, `{"pattern":"("}`, `{"pattern":3}`, `{"format":3}`,
		`{"enum":[]}`, `{"enum":3}`, `{"anyOf":[]}`, `{"anyOf":{}}`, `{"$ref":"#/$defs/missing"}`, `{"$ref":"other.json"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, `{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/b"}]},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#"}`, `{"properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}}`,
		`{"title":3}`, `{"examples":{}}`, `{"deprecated":"yes"}`, `{"description":null}`,
		`{"type":"object"} x`, `{"type":"object"`, `3`, `"x"`, `null`,
	}
	for _, s := range bad {
		if fastcheck.Compile([]byte(s), argLimits) != nil {
			t.Errorf("Compile accepted %s", s)
		}
	}
	all := append(append([]string{}, edgeSchemas...), bad...)
	for _, s := range generatedSchemas(t) {
		all = append(all, s)
	}
	for _, s := range all {
		if fastcheck.Compile([]byte(s), argLimits) == nil {
			continue
		}
		if _, err := compile.Schema([]byte(s)); err != nil {
			t.Errorf("Compile accepted %s, which jsonschema refuses: %v", s, err)
		}
	}
}

// differ checks one schema and body: fast valid implies full valid.
func differ(t testing.TB, schema string, c *fastcheck.Checker, ct *compiledTool, body []byte) (fast, full bool) {
	fast = c.Valid(body)
	full = fullAccepts(ct, body)
	if fast && !full {
		t.Errorf("fastcheck accepts what the full path refuses\nschema %s\nbody   %q", schema, body)
	}
	return fast, full
}

func TestFastCheckAgreesWithFullPath(t *testing.T) {
	schemas := append([]string{}, edgeSchemas...)
	for _, s := range generatedSchemas(t) {
		schemas = append(schemas, s)
	}
	fullValid, fastValid, instances := 0, 0, 0
	for _, schema := range schemas {
		c := fastcheck.Compile([]byte(schema), argLimits)
		if c == nil {
			continue
		}
		ct := fullTool(schema)
		all := append([]string{}, bodies...)
		if inst, ok := instance(schema); ok {
			all = append(all, variants(inst)...)
			if fullAccepts(ct, []byte(inst)) {
				instances++
			}
		}
		for _, b := range all {
			fast, full := differ(t, schema, c, ct, []byte(b))
			if full && !fast && plain(b) {
				t.Errorf("fastcheck is unsure of a plain valid body\nschema %s\nbody   %s", schema, b)
			}
			if fast {
				fastValid++
			}
			if full {
				fullValid++
			}
		}
	}
	// The table must exercise both answers, and the fast path must be the
	// one valid bodies take.
	t.Logf("%d bodies valid, %d of them known valid by fastcheck; %d schemas with a valid built instance", fullValid, fastValid, instances)
	if instances < 100 {
		t.Errorf("only %d schemas got a valid instance from build: the plain-body check above misses the others", instances)
	}
	if fullValid < 500 || fastValid < fullValid*9/10 {
		t.Errorf("%d bodies valid, %d of them known valid by fastcheck: too few", fullValid, fastValid)
	}
}

// plain is a body the fast checker must decide itself: no escaped
// property names, no surrogate escapes, no numbers past float64's range,
// no format keyword on a value that is not a string (see fastcheck.Valid),
// no repeated name whose first value fails, and no trailing \f (which
// parseArgs trims as space and JSON does not).
func plain(b string) bool {
	return !regexp.MustCompile(`\\u[dD][89abAB]|"[^"\\]*\\[^"]*"\s*:|\d[eE]\+?(309|[4-9]\d\d)|\d{309}|"s"\s*:\s*(5|null)|"n":"x","n"|\f`).MatchString(b)
}

// instance builds a value that should be valid against schema, from its
// keywords, for the generated schemas that no hand-written body fits.
func instance(schema string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(schema))
	dec.UseNumber() // bounds such as -9223372036854775808 exactly
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return "", false
	}
	root, _ := doc.(map[string]any)
	v := build(root, doc, 0)
	b, err := json.Marshal(v)
	return string(b), err == nil
}

func build(root map[string]any, s any, depth int) any {
	m, ok := s.(map[string]any)
	if !ok || depth > 20 {
		return nil
	}
	if ref, ok := m["$ref"].(string); ok {
		if ref == "#" {
			return build(root, root, depth+1)
		}
		defs, _ := root["$defs"].(map[string]any)
		return build(root, defs[strings.TrimPrefix(ref, "#/$defs/")], depth+1)
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if a, ok := m["anyOf"].([]any); ok && len(a) > 0 {
		return build(root, a[0], depth+1)
	}
	typ, _ := m["type"].(string)
	if ts, ok := m["type"].([]any); ok && len(ts) > 0 {
		typ, _ = ts[0].(string)
	}
	switch typ {
	case "object":
		out := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		required := map[string]bool{}
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				required[r.(string)] = true
			}
		}
		for name, p := range props {
			if depth < 4 || required[name] { // (a recursive schema ends)
				out[name] = build(root, p, depth+1)
			}
		}
		return out
	case "array":
		n := 1
		if depth >= 4 {
			n = 0
		}
		if min, ok := m["minItems"].(json.Number); ok {
			if min, err := min.Int64(); err == nil && int(min) > n {
				n = int(min)
			}
		}
		out := make([]any, n)
		for i := range out {
			out[i] = build(root, m["items"], depth+1)
		}
		return out
	case "string":
		switch m["format"] {
		case "date-time":
			return "2024-01-02T03:04:05Z"
		case "email":
			return "a@example.com"
		case "uri":
			return "https://example.com/x"
		}
		n := int64(1)
		if min, ok := m["minLength"].(json.Number); ok {
			n, _ = min.Int64()
		}
		return strings.Repeat("x", int(n))
	case "integer", "number":
		if min, ok := m["minimum"].(json.Number); ok {
			return min
		}
		if _, ok := m["exclusiveMinimum"]; ok {
			return nil // (no simple value above it: the body is invalid)
		}
		return 1
	case "boolean":
		return true
	}
	return nil
}

// variants are a body written in other ways (and broken in some).
func variants(b string) []string {
	num := regexp.MustCompile(`:(-?\d+)([,}\]])`)
	return []string{
		b,
		" \n\t" + b + "\r\n",
		num.ReplaceAllString(b, ":$1.0$2"),
		num.ReplaceAllString(b, ":${1}e0$2"),
		num.ReplaceAllString(b, ":${1}.0000000000000000001$2"),
		strings.ReplaceAll(b, `"x`, `"\u0078`),
		strings.ReplaceAll(b, `":`, `" : `),
		strings.Replace(b, "{", `{"zz_unknown":1,`, 1),
		strings.Replace(b, "{", `{"zz_unknown":1`, 1),
		b + b,
		b[:len(b)-1],
		fmt.Sprintf("[%s]", b),
	}
}

// FuzzFastCheck looks for a body the fast checker calls valid and the full
// path refuses, on the edge schemas and every generated one.
func FuzzFastCheck(f *testing.F) {
	schemas := append([]string{}, edgeSchemas...)
	gen := generatedSchemas(f)
	names := make([]string, 0, len(gen))
	for name := range gen {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		schemas = append(schemas, gen[name])
	}
	type tool struct {
		c  *fastcheck.Checker
		ct *compiledTool
	}
	var tools []tool
	for _, s := range schemas {
		if c := fastcheck.Compile([]byte(s), argLimits); c != nil {
			tools = append(tools, tool{c, fullTool(s)})
		}
	}
	// Each tool with a body written for it (TestFastCheck runs their
	// variants; as seeds they would take CI's whole 20 s of fuzzing to
	// gather coverage), and the table's bodies spread over the tools.
	for i, tl := range tools {
		if inst, ok := instance(tl.ct.src); ok {
			f.Add(uint16(i), []byte(inst))
		}
	}
	for i, b := range bodies {
		f.Add(uint16(i), []byte(b))
		f.Add(uint16(0), []byte(b)) // the forecast schema
	}
	f.Fuzz(func(t *testing.T, pick uint16, body []byte) {
		tl := tools[int(pick)%len(tools)]
		differ(t, tl.ct.src, tl.c, tl.ct, body)
	})
}

// BenchmarkCheckArgs compares the two ways to find the benchmark's forecast
// arguments valid: the fast checker, and parseArgs with the validator.
func BenchmarkCheckArgs(b *testing.B) {
	body := []byte(forecastBody)
	b.Run("path=fastcheck", func(b *testing.B) {
		c := fastcheck.Compile([]byte(forecastSchema), argLimits)
		b.ReportAllocs()
		for b.Loop() {
			if !c.Valid(body) {
				b.Fatal("not valid")
			}
		}
	})
	b.Run("path=full", func(b *testing.B) {
		ct := fullTool(forecastSchema)
		ct.compile()
		b.ReportAllocs()
		for b.Loop() {
			if !fullAccepts(ct, body) {
				b.Fatal("not valid")
			}
		}
	})
}
