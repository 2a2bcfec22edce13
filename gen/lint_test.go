package gen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestLintParseProfiles(t *testing.T) {
	got, err := ParseLintProfiles("gemini, Claude,gemini")
	if err != nil || strings.Join(got, ",") != "claude,gemini" {
		t.Errorf("ParseLintProfiles = %v, %v; want [claude gemini]", got, err)
	}
	for _, bad := range []string{"", "openai,", "mistral", "claude,gpt"} {
		if _, err := ParseLintProfiles(bad); err == nil || !strings.Contains(err.Error(), "known: claude, openai, gemini") {
			t.Errorf("ParseLintProfiles(%q) = %v; want an error listing the profiles", bad, err)
		}
	}
}

// TestLintRules runs each rule of the table on a schema that breaks it,
// and checks that one that does not is clean: each rule's finding names
// the profile, the tool, the feature, where it is and the fix.
func TestLintRules(t *testing.T) {
	const clean = `{"type":"object","properties":{"a":{"type":"string","format":"date-time"},"n":{"type":"integer","minimum":1}},"required":["a","n"],"additionalProperties":false}`
	for _, p := range LintProfiles {
		if ws := lintSchema("t", json.RawMessage(clean), []string{p}); len(ws) != 0 {
			t.Errorf("%s: a schema every provider takes has findings: %v", p, ws)
		}
	}
	obj := func(props, extra string) string {
		return `{"type":"object","properties":{` + props + `},"required":["a"],"additionalProperties":false` + extra + `}`
	}
	tests := []struct {
		profile, schema string
		want            []string // "feature at pointer", in order
	}{
		{LintClaude, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}`,
			[]string{"top-level combinator oneOf at the input schema"}},
		{LintClaude, `{"type":"object","allOf":[{"required":["a"]}],"anyOf":[{"required":["b"]}]}`,
			[]string{"top-level combinator anyOf, allOf at the input schema"}},
		{LintClaude, obj(`"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}`, ""), nil}, // inside a property is fine
		{LintClaude, obj(`"a":{"$ref":"#/$defs/x"}`, `,"$defs":{"x":{"type":"string"}}`),
			[]string{"$ref #/$defs/x at #/properties/a"}},
		{LintClaude, obj(`"a":{"type":"array","items":{"$ref":"#"}}`, ""), []string{"$ref # at #/properties/a/items"}},
		{LintClaude, obj(`"a":{"type":"string"}`, `,"$schema":"http://json-schema.org/draft-07/schema#"`),
			[]string{"not draft 2020-12 $schema http://json-schema.org/draft-07/schema# at the input schema"}},
		{LintClaude, obj(`"a":{"type":"string"}`, `,"$schema":"https://json-schema.org/draft/2020-12/schema"`), nil},
		{LintClaude, obj(`"a":{"type":"array","items":[{"type":"string"}]}`, `,"definitions":{}`),
			[]string{"not draft 2020-12 definitions at the input schema", "not draft 2020-12 items as an array at #/properties/a"}},

		{LintOpenAI, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["string","null"]}},"required":["a"],"additionalProperties":false}`,
			[]string{"optional property b at #/properties/b"}},
		{LintOpenAI, obj(`"a":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}`, ""),
			[]string{"additionalProperties not false at #/properties/a"}},
		{LintOpenAI, obj(`"a":{"type":"object","additionalProperties":{"type":"integer"}}`, ""),
			[]string{"additionalProperties not false at #/properties/a"}},
		{LintOpenAI, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`,
			[]string{"additionalProperties not false at the input schema"}},
		{LintOpenAI, obj(`"a":{"type":"string","format":"uri"}`, ""), []string{"format uri at #/properties/a"}},
		{LintOpenAI, obj(`"a":{"type":"string","format":"uuid","pattern":"^x"}`, ""), nil},
		{LintOpenAI, obj(`"a":{"type":"object","additionalProperties":false,"propertyNames":{"pattern":"^[0-9]+$"}}`, ""),
			[]string{"unsupported keyword propertyNames at #/properties/a"}},
		{LintOpenAI, obj(`"a":{"allOf":[{"type":"string"}],"not":{"const":"x"}}`, ""),
			[]string{"unsupported keyword allOf, not at #/properties/a"}},
		{LintOpenAI, obj(`"a":{"type":"array","items":{}}`, ""), []string{"schema without a type at #/properties/a/items"}},
		{LintOpenAI, obj(`"a":{"enum":["x","y"]}`, ""), nil},
		{LintOpenAI, `{"anyOf":[{"type":"object","properties":{},"additionalProperties":false}]}`,
			[]string{"top-level anyOf at the input schema"}},

		{LintGemini, obj(`"a":{"type":"string","const":"x"}`, ""), []string{`const "x" at #/properties/a`}},
		{LintGemini, obj(`"a":{"type":["string","null"]}`, ""), []string{`type array ["string","null"] at #/properties/a`}},
		{LintGemini, obj(`"a":{"$ref":"#/$defs/x"}`, `,"$defs":{"x":{"type":"string"}}`), []string{"$ref #/$defs/x at #/properties/a"}},
		{LintGemini, obj(`"a":{"type":"object","additionalProperties":{"type":"string"}}`, ""), []string{"open object at #/properties/a"}},
		{LintGemini, obj(`"a":{"type":"object","additionalProperties":true}`, ""), []string{"open object at #/properties/a"}},
		{LintGemini, obj(`"a":{"type":"integer","exclusiveMinimum":0,"multipleOf":2}`, ""),
			[]string{"unsupported keyword exclusiveMinimum, multipleOf at #/properties/a"}},
		{LintGemini, obj(`"a":{"oneOf":[{"type":"string"},{"type":"integer"}]}`, ""),
			[]string{"unsupported keyword oneOf at #/properties/a"}},
		// What Gemini's Schema has, and the keys a client drops without
		// loss ($schema, additionalProperties: false), are clean.
		{LintGemini, obj(`"a":{"type":"string","nullable":true,"enum":["x"],"minLength":1,"pattern":"x","format":"enum"}`, `,"$schema":"https://json-schema.org/draft/2020-12/schema"`), nil},
	}
	for _, tt := range tests {
		ws := lintSchema("t", json.RawMessage(tt.schema), []string{tt.profile})
		var got []string
		for _, w := range ws {
			prefix := "lint(" + tt.profile + "): tool t: "
			if !strings.HasPrefix(w.msg, prefix) || !strings.Contains(w.msg, "; fix: ") {
				t.Errorf("%s: finding %q does not say the profile, the tool and the fix", tt.profile, w.msg)
				continue
			}
			msg := strings.TrimPrefix(w.msg, prefix)
			got = append(got, msg[:strings.Index(msg, ": ")])
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", tt.profile, tt.schema, got, tt.want)
		}
	}
}

// lintException is a finding the examples and golden cases keep on
// purpose: in dir, for profile, a feature (a prefix of "FEATURE DETAIL").
// Every entry must still match a finding, so the table stays true.
type lintException struct {
	dir, profile, feature, reason string
}

const (
	whyOptional = "the case is about arguments a call may leave out (omitempty, pointers, defaults, properties not in required); strict mode wants them required and nullable, which would change what a call must send"
	whyYAMLOpen = "tools.yaml schemas are kept as written, and these objects do not say additionalProperties: false (toolgen does not add it: an author's open object stays open)"
	whyMap      = "a map or an open object (map[string]T, any-valued map, additionalProperties: schema) is what the case tests; neither OpenAI's strict mode nor Gemini can describe one"
	whyAny      = "any, interface{} and json.RawMessage arguments are {} by the type rules: what the case tests"
	whyRecRef   = "a recursive type can only be described with a $ref; toolgen inlines every non-recursive one"
	whyYAMLRef  = "a tools.yaml schema is served as written, key order too (DESIGN.md, schema-first): toolgen does not rewrite the author's $ref, and the lint's fix says to write the schema in place; each $defs entry is a Go type of its own either way"
	whyNullable = "jsonschema:\"nullable\" and a nullable tools.yaml type are written as a type list, which is what the case tests"
	whyKeywords = "the case covers every jsonschema tag keyword the type rules take"
	whyConst    = "const is part of what the case tests (a tag, a //toolgen:schema, a tools.yaml)"
	whyConform  = "the MCP conformance suite's tools exercise draft 2020-12 keywords and x- extensions on purpose"
)

var lintExceptions = []lintException{
	{"examples/calculator", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"examples/conformance", LintClaude, "$ref", whyConform},
	{"examples/conformance", LintClaude, "top-level combinator allOf", whyConform},
	{"examples/conformance", LintGemini, "$ref", whyConform},
	{"examples/conformance", LintGemini, "unsupported keyword", whyConform},
	{"examples/conformance", LintOpenAI, "additionalProperties not false", whyConform},
	{"examples/conformance", LintOpenAI, "optional property", whyConform},
	{"examples/conformance", LintOpenAI, "unsupported keyword allOf, if, then, else", whyConform},
	{"examples/qmcp", LintOpenAI, "additionalProperties not false", "the qmcp tools pass plans and results through as free-form JSON objects (map[string]any)"},
	{"examples/qmcp", LintOpenAI, "optional property", "the qmcp tools' context, dry_run and criteria are optional by design"},
	{"examples/weather", LintOpenAI, "optional property", "units and days have defaults and size is optional: the weather example shows defaults"},
	{"testdata/golden/codecs", LintOpenAI, "optional property", "the pointers of the codecs case are there for the generated decoder's variables, not for a model"},
	{"testdata/golden/basic_types", LintGemini, "unsupported keyword contentEncoding", "[]byte is a base64 string with contentEncoding by the type rules"},
	{"testdata/golden/basic_types", LintOpenAI, "schema without a type", whyAny},
	{"testdata/golden/client", LintOpenAI, "optional property", "the client case's convert and greeting have parameters that a call leaves out, which is what the case tests"},
	{"testdata/golden/collections", LintGemini, "open object", whyMap},
	{"testdata/golden/collections", LintGemini, "unsupported keyword propertyNames", "maps with integer keys carry propertyNames with the key's pattern by the type rules"},
	{"testdata/golden/collections", LintOpenAI, "additionalProperties not false", whyMap},
	{"testdata/golden/collections", LintOpenAI, "schema without a type", whyAny},
	{"testdata/golden/collections", LintOpenAI, "unsupported keyword propertyNames", "maps with integer keys carry propertyNames with the key's pattern by the type rules"},
	{"testdata/golden/defaults", LintClaude, "$ref #", whyRecRef},
	{"testdata/golden/defaults", LintGemini, "$ref #", whyRecRef},
	{"testdata/golden/defaults", LintGemini, "open object", whyMap},
	{"testdata/golden/defaults", LintOpenAI, "additionalProperties not false", whyMap},
	{"testdata/golden/defaults", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/defaults", LintOpenAI, "schema without a type", whyAny},
	{"testdata/golden/directives", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/enums", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/guards", LintGemini, "open object", whyMap},
	{"testdata/golden/guards", LintOpenAI, "additionalProperties not false", whyMap},
	{"testdata/golden/guards", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/params", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/recursive", LintClaude, "$ref", whyRecRef},
	{"testdata/golden/recursive", LintGemini, "$ref", whyRecRef},
	{"testdata/golden/recursive", LintGemini, "open object", whyMap},
	{"testdata/golden/recursive", LintOpenAI, "additionalProperties not false", whyMap},
	{"testdata/golden/recursive", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/schema_override", LintGemini, "const", whyConst},
	{"testdata/golden/schema_override", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/signatures", LintGemini, "open object", whyMap},
	{"testdata/golden/signatures", LintOpenAI, "additionalProperties not false", whyMap},
	{"testdata/golden/structs", LintGemini, "type array", whyNullable},
	{"testdata/golden/structs", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/tags", LintGemini, "const", whyConst},
	{"testdata/golden/tags", LintGemini, "type array", whyNullable},
	{"testdata/golden/tags", LintGemini, "unsupported keyword", whyKeywords},
	{"testdata/golden/tags", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/tags", LintOpenAI, "schema without a type", whyAny},
	{"testdata/golden/yaml_basic", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_collisions", LintClaude, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_collisions", LintGemini, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_collisions", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_collisions", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/yaml_defaults", LintClaude, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_defaults", LintGemini, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_defaults", LintGemini, "open object", whyMap},
	{"testdata/golden/yaml_defaults", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_defaults", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/yaml_defaults", LintOpenAI, "schema without a type", whyAny},
	{"testdata/golden/yaml_defs", LintClaude, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_defs", LintGemini, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_defs", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_defs", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/yaml_names", LintClaude, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_names", LintGemini, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_names", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_names", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/yaml_policy", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_prompts", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_prompts", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/yaml_secrets", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_secrets", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/yaml_types", LintClaude, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_types", LintGemini, "$ref", whyYAMLRef},
	{"testdata/golden/yaml_types", LintGemini, "const", whyConst},
	{"testdata/golden/yaml_types", LintGemini, "open object", whyMap},
	{"testdata/golden/yaml_types", LintGemini, "type array", whyNullable},
	{"testdata/golden/yaml_types", LintGemini, "unsupported keyword", "the case maps oneOf and allOf to json.RawMessage"},
	{"testdata/golden/yaml_types", LintOpenAI, "additionalProperties not false", whyYAMLOpen},
	{"testdata/golden/yaml_types", LintOpenAI, "format uri", "the case maps string formats to Go types; uri has none"},
	{"testdata/golden/yaml_types", LintOpenAI, "optional property", whyOptional},
	{"testdata/golden/yaml_types", LintOpenAI, "schema without a type", whyAny},
	{"testdata/golden/yaml_types", LintOpenAI, "unsupported keyword", "the case maps oneOf and allOf to json.RawMessage"},
}

var lintFinding = regexp.MustCompile(`^lint\((\w+)\): tool (\S+): (.*?) at (#\S*|the input schema): `)

// TestLintExamplesAndGolden lints every example and every golden case
// that generates (not err_*) for all three profiles: each finding must be
// one the table above keeps, with its reason, and each entry of the table
// must still be found. A finding elsewhere is a schema some provider
// rejects: fix the case, or add it to the table with a reason.
func TestLintExamplesAndGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every example and golden case")
	}
	root := moduleRoot(t)
	var args []string
	examples, _ := filepath.Glob(filepath.Join(root, "examples", "*", "*.go"))
	seen := map[string]bool{}
	for _, e := range examples {
		dir, _ := filepath.Rel(root, filepath.Dir(e))
		if !seen[dir] {
			seen[dir] = true
			args = append(args, "./"+filepath.ToSlash(dir))
		}
	}
	for _, c := range goldenCases(t) {
		if strings.HasPrefix(c, "err_") || strings.Contains(c, "_err_") {
			continue
		}
		arg := "./" + goldenDir + "/" + c
		if _, err := os.Stat(filepath.Join(root, goldenDir, c, "tools.yaml")); err == nil {
			arg += "/tools.yaml"
		}
		args = append(args, arg)
	}
	var findings []*Error
	if _, err := Generate(Config{Dir: root, Lint: LintProfiles, Warn: func(w *Error) {
		if strings.HasPrefix(w.Msg, "lint(") {
			findings = append(findings, w)
		}
	}}, args); err != nil {
		t.Fatalf("generating the examples and golden cases: %v", err)
	}
	used := make([]bool, len(lintExceptions))
	for _, f := range findings {
		m := lintFinding.FindStringSubmatch(f.Msg)
		if m == nil {
			t.Errorf("%s: a finding not in the lint's shape: %s", f.Pos, f.Msg)
			continue
		}
		dir := filepath.ToSlash(filepath.Dir(f.Pos.Filename))
		if rest, ok := strings.CutPrefix(dir, goldenDir+"/"); ok {
			dir = goldenDir + "/" + strings.Split(rest, "/")[0]
		}
		if !f.Pos.IsValid() {
			t.Errorf("a finding without a position: %s", f.Msg)
		}
		kept := false
		for i, e := range lintExceptions {
			if e.dir == dir && e.profile == m[1] && strings.HasPrefix(m[3], e.feature) {
				used[i], kept = true, true
			}
		}
		if !kept {
			t.Errorf("%s: %s\n(fix the schema, or keep it in lintExceptions with a reason)", f.Pos, f.Msg)
		}
	}
	for i, e := range lintExceptions {
		if !used[i] {
			t.Errorf("lintExceptions keeps %s %s %q, which is no longer found: remove it", e.dir, e.profile, e.feature)
		}
	}
}

// TestLintPositions checks that findings point at the Go field, the flat
// parameter or the tools.yaml key they are about, and at the tool when
// they are about the whole input.
func TestLintPositions(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module")
	}
	root := moduleRoot(t)
	// Nothing is downloaded; the module's go.sum may gain lines.
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/lintpos\n\ngo 1.25.0\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\nreplace github.com/toolgen-go/toolgen => "+root+"\n")
	write("tools.go", `package lintpos

import "context"

// Inner is nested.
type Inner struct {
	// Site is a URL.
	Site string `+"`json:\"site\" jsonschema:\"format=uri\"`"+`
}

// In is the input.
type In struct {
	// Name is required.
	Name string `+"`json:\"name\"`"+`
	// Inner is nested.
	Inner []Inner `+"`json:\"inner\"`"+`
	// Note is optional.
	Note string `+"`json:\"note,omitempty\"`"+`
}

// Nest has a nested field.
//
//toolgen:tool
func Nest(ctx context.Context, in In) (string, error) { return "", nil }

// Flat has flat parameters.
//
//toolgen:tool
//toolgen:param when format=uri
func Flat(ctx context.Context, when string) (string, error) { return "", nil }
`)
	write("tools.yaml", `package: lintpos
tools:
  - name: pick
    description: Picks.
    input:
      type: object
      properties:
        a: {type: string, description: A., const: x}
        b:
          description: B.
          $ref: '#/$defs/b'
      required: [a, b]
      additionalProperties: false
$defs:
  b: {type: string, const: y, description: B.}
`)
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(gosum))
	var got []string
	collect := func(w *Error) {
		if strings.HasPrefix(w.Msg, "lint(") {
			m := lintFinding.FindStringSubmatch(w.Msg)
			got = append(got, filepath.Base(w.Pos.Filename)+":"+strconv.Itoa(w.Pos.Line)+":"+strconv.Itoa(w.Pos.Column)+" "+m[1]+" "+m[3])
		}
	}
	if _, err := Generate(Config{Dir: dir, Lint: []string{LintOpenAI}, Warn: collect}, []string{"."}); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(Config{Dir: dir, Output: "yaml_gen.go", Lint: []string{LintGemini}, Warn: collect}, []string{"tools.yaml"}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"tools.go:8:2 openai format uri",              // Inner.Site, through a slice
		"tools.go:18:2 openai optional property note", // In.Note
		"tools.go:30:32 openai format uri",            // the flat parameter
		"tools.yaml:8:9 gemini const \"x\"",           // property a
		"tools.yaml:9:9 gemini $ref #/$defs/b",        // property b, whose schema is the $ref
		"tools.yaml:15:3 gemini const \"y\"",          // the file's $defs b
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("positions:\n got %q\nwant %q", got, want)
	}
}
