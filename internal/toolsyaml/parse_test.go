package toolsyaml

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
)

const calculator = `package: calculator
toolkit: Calculator
version: 1.0.0
tools:
  - name: add
    title: Add
    description: Adds two numbers together.
    annotations: {readOnlyHint: true, idempotentHint: true}
    input:
      type: object
      properties:
        b: {type: number, description: The second number to add.}
        a: {type: number, description: The first number to add.}
      required: [a, b]
    output: {type: number, description: The sum of the two numbers.}
    examples: [{a: 1, b: 2.50}]
  - name: ring-doorbell
    toolkit: Doorbell
    version: 0.1.0
    input:
      $schema: https://json-schema.org/draft/2020-12/schema
      type: object
      $defs:
        id: {type: string, pattern: "^d-[0-9]+$"}
      properties:
        doorbell_id: {$ref: "#/$defs/id", description: The ID of the doorbell to ring.}
      required: [doorbell_id]
      additionalProperties: false
prompts:
  - name: explain
    description: Explain a result.
    arguments: [{name: value, description: The value, required: true}]
    template: "Explain why the answer is {{.value}}."
`

func TestParse(t *testing.T) {
	f, err := Parse("calc/tools.yaml", []byte(calculator))
	if err != nil {
		t.Fatal(err)
	}
	if f.Package != "calculator" || f.Toolkit != "Calculator" || f.Version != "1.0.0" || len(f.Tools) != 2 || len(f.Prompts) != 1 {
		t.Fatalf("file: %+v", f)
	}
	add := f.Tools[0]
	if add.Name != "add" || add.GoName != "Add" || add.Title != "Add" || add.Version != "1.0.0" {
		t.Errorf("add: %+v", add)
	}
	if a := add.Annotations; a == nil || a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.IdempotentHint == nil || a.DestructiveHint != nil {
		t.Errorf("annotations: %+v", a)
	}
	// Kept as written: key order (b before a), numbers as written.
	if got, want := string(add.Input.JSON), `{"type":"object","properties":{"b":{"type":"number","description":"The second number to add."},"a":{"type":"number","description":"The first number to add."}},"required":["a","b"]}`; got != want {
		t.Errorf("input:\n got %s\nwant %s", got, want)
	}
	if got := string(add.Output.JSON); got != `{"type":"number","description":"The sum of the two numbers."}` {
		t.Errorf("output: %s", got)
	}
	if len(add.Examples) != 1 || string(add.Examples[0]) != `{"a":1,"b":2.50}` {
		t.Errorf("examples: %s", add.Examples)
	}
	ring := f.Tools[1]
	if ring.GoName != "RingDoorbell" || ring.Version != "0.1.0" || ring.Toolkit != "Doorbell" || add.Toolkit != "Calculator" || ring.Output != nil {
		t.Errorf("ring: %+v", ring)
	}
	if got, want := string(ring.Input.JSON), `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"id":{"type":"string","pattern":"^d-[0-9]+$"}},"properties":{"doorbell_id":{"$ref":"#/$defs/id","description":"The ID of the doorbell to ring."}},"required":["doorbell_id"],"additionalProperties":false}`; got != want {
		t.Errorf("ring input:\n got %s\nwant %s", got, want)
	}
	p := f.Prompts[0]
	if p.Name != "explain" || p.GoName != "Explain" || len(p.Arguments) != 1 || !p.Arguments[0].Required || p.Template != "Explain why the answer is {{.value}}." {
		t.Errorf("prompt: %+v", p)
	}
}

func TestDefaults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-tools")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(filepath.Join(dir, "tools.yaml"), []byte("tools:\n  - name: a\n    input: {type: object}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Package != "mytools" || f.Toolkit != "Mytools" || f.Tools[0].Version != "" {
		t.Errorf("defaults: package %q toolkit %q version %q", f.Package, f.Toolkit, f.Tools[0].Version)
	}
}

// Every error names the line and column of the offending node.
func TestErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown top-level key", "tools: []\nplugins: 1\n", []string{`t.yaml:2:1: unknown key "plugins" in the file (known: $defs, package, prompts, toolkit, tools, version)`}},
		{"missing tools", "package: x\n", []string{`t.yaml:1:1: the file is missing the required key "tools"`}},
		{"not a mapping", "- 1\n", []string{`t.yaml:1:1: the file must be a mapping, not a list`}},
		{"empty", "", []string{`t.yaml:1:1: empty file: expected a mapping with tools:`}},
		{"syntax", "tools: [\n", []string{`t.yaml:2:1: did not find expected node content at the end of the file`}},
		{"tools not a list", "tools: {a: 1}\n", []string{`t.yaml:1:8: expected a list, not a mapping`}},
		{"unknown tool key", "tools:\n  - name: a\n    input: {type: object}\n    handler: x\n", []string{`t.yaml:4:5: unknown key "handler" in a tool (known: annotations, approval, description, examples, input, name, output, ratelimit, scopes, secrets, task, timeout, title, toolkit, version)`}},
		{"wrong type", "tools:\n  - name: a\n    description: [x]\n    input: {type: object}\n", []string{`t.yaml:3:18: expected a string, not a list`}},
		{"wrong hint type", "tools:\n  - name: a\n    annotations: {readOnlyHint: yes}\n    input: {type: object}\n", []string{`t.yaml:3:33: expected true or false, not the string "yes"`}},
		{"unknown hint", "tools:\n  - name: a\n    annotations: {safe: true}\n    input: {type: object}\n", []string{`t.yaml:3:19: unknown key "safe" in annotations (known: destructiveHint, idempotentHint, openWorldHint, readOnlyHint)`}},
		{"missing input", "tools:\n  - name: a\n", []string{`t.yaml:2:5: a tool is missing the required key "input"`}},
		{"duplicate name", "tools:\n  - name: a\n    input: {type: object}\n  - name: a\n    input: {type: object}\n", []string{`t.yaml:4:11: duplicate tool name "a" (first defined at 2:11)`}},
		{"invalid name", "tools:\n  - name: 1up\n    input: {type: object}\n  - name: a b\n    input: {type: object}\n", []string{
			`t.yaml:2:11: invalid tool name "1up": it must start with a letter and have at most 128 letters, digits, '_', '-' or '.'`,
			`t.yaml:4:11: invalid tool name "a b": it must start with a letter and have at most 128 letters, digits, '_', '-' or '.'`}},
		{"duplicate key", "tools:\n  - name: a\n    name: b\n    input: {type: object}\n", []string{`t.yaml:3:5: duplicate key "name" in a tool`}},
		{"input not object", "tools:\n  - name: a\n    input: {type: string}\n", []string{`t.yaml:3:19: input must be an object schema (type: object): its properties are the tool's arguments`}},
		{"schema bad type", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        n: {type: integr}\n", []string{`t.yaml:6:13: invalid schema: value must be one of "array", "boolean", "integer", "null", "number", "object", "string"`}},
		{"schema bad keyword value", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        n:\n          type: integer\n          minimum: low\n", []string{`t.yaml:8:11: invalid schema: expected number, but got string`}},
		{"schema bad ref", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        n: {$ref: \"#/$defs/missing\"}\n", []string{`t.yaml:6:13: invalid schema: #/$defs/missing not found`}},
		{"schema external ref", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        n: {$ref: \"https://example.com/s.json\"}\n", []string{`is not allowed: a tool's schema must be self-contained`}},
		{"schema NaN", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        n: {type: number, maximum: .inf}\n", []string{`t.yaml:6:36: number ".inf" cannot be represented in JSON`}},
		{"example mismatch", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        n: {type: integer}\n    examples:\n      - {n: x}\n", []string{`t.yaml:8:10: example does not match the input schema: /n: expected integer, but got string`}},
		{"bad template", "tools: []\nprompts:\n  - name: p\n    template: \"{{.x\"\n", []string{`t.yaml:4:15: invalid template:`}},
		{"prompt without template", "tools: []\nprompts:\n  - name: p\n", []string{`t.yaml:3:5: a prompt is missing the required key "template"`}},
		{"bad package", "package: My-Pkg\ntools: []\n", []string{`t.yaml:1:10: package "My-Pkg" is not a valid Go package name (lower case letters, digits and _)`}},
		{"two documents", "tools: []\n---\ntools: []\n", []string{`t.yaml:2:1: only one YAML document is allowed`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("t.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatalf("no error; parsed %+v", f)
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error is %T, not ErrorList", err)
			}
			got := err.Error()
			if len(list) != len(c.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(list), len(c.want), got)
			}
			for i, w := range c.want {
				if !strings.Contains(list[i].Error(), w) {
					t.Errorf("error %d:\n got %s\nwant %s", i, list[i].Error(), w)
				}
			}
		})
	}
}

// A YAML syntax error is reported at the line where the parser stopped,
// which it quotes, rather than at the line where the enclosing collection
// starts (all yaml.v3 says of most parser errors): a key indented wrongly
// on line 6 of a tool that starts on line 3 is an error at 6, not at 3:1.
func TestSyntaxErrorLine(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"key indented too far",
			"package: calc\ntools:\n  - name: add\n    description: Adds.\n    input: {type: object}\n      output: {type: number}\n",
			`t.yaml:6:7: did not find expected key at "      output: {type: number}" (check its indentation against the collection that starts at line 3)`},
		{"key indented too little",
			"package: calc\ntools:\n  - name: add\n    description: Adds.\n    input: {type: object}\n  output: {type: number}\n",
			`t.yaml:6:3: did not find expected '-' indicator at "  output: {type: number}" (check its indentation against the collection that starts at line 3)`},
		{"deep in a schema, after comments and blank lines",
			"tools:\n  - name: add\n    input:\n      type: object\n      # the arguments\n\n      properties:\n        a: {type: number}\n          b: {type: number}\n",
			`t.yaml:9:11: did not find expected key at "          b: {type: number}" (check its indentation against the collection that starts at line 8)`},
		{"CRLF line ends",
			"tools:\r\n  - name: add\r\n    input: {type: object}\r\n      output: {type: number}\r\n",
			`t.yaml:4:7: did not find expected key at "      output: {type: number}" (check its indentation against the collection that starts at line 2)`},
		{"scanner error, at its own line",
			"tools:\n  - name: add\n    input:\n     type: object\n      properties: {}\n",
			`t.yaml:5:7: mapping values are not allowed in this context at "      properties: {}"`},
		{"unclosed flow mapping",
			"tools:\n  - name: a\n    input: {type: object\n  - name: b\n",
			`t.yaml:3:5: did not find expected ',' or '}' at "    input: {type: object"`},
		{"long line, cut",
			"tools:\n  - name: add\n    input: {type: object}\n      description: " + strings.Repeat("x", 200) + "\n",
			`t.yaml:4:7: did not find expected key at "      description: ` + strings.Repeat("x", 100-len("      description: ")) + `…" (check its indentation against the collection that starts at line 2)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if got := err.Error(); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// Aliases are expanded, within limits.
func TestAliases(t *testing.T) {
	src := "tools:\n  - name: a\n    input: &obj\n      type: object\n      properties: {x: {type: string}}\n  - name: b\n    input: *obj\n"
	f, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.Tools[1].Input.JSON) != string(f.Tools[0].Input.JSON) {
		t.Errorf("alias not expanded: %s", f.Tools[1].Input.JSON)
	}
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i := range 8 {
		name := string(rune('b' + i))
		b.WriteString(name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n")
		prev = name
	}
	bomb := "tools:\n  - name: a\n    input:\n      type: object\n      default: {" + strings.ReplaceAll(strings.TrimSpace(b.String()), "\n", ", ") + "}\n"
	if _, err := Parse("t.yaml", []byte(bomb)); err == nil || !strings.Contains(err.Error(), "t.yaml:5:") || !strings.Contains(err.Error(), "expands to more than 8000000 nodes through aliases") {
		t.Errorf("alias bomb: %v", err)
	}
}

// The limits hold against files built to exhaust the generator: aliases
// nested to billions of nodes (the 14 KB bomb), nesting past the
// depth limit, and a file past the size limit. Each is a positioned error,
// found at once and with little memory.
func TestLimits(t *testing.T) {
	var bomb strings.Builder
	bomb.WriteString("tools:\n  - name: a\n    input:\n      type: object\n      default:\n")
	bomb.WriteString("        l0: &l0 [" + strings.Repeat("lol, ", 99) + "lol]\n")
	for i := 1; i < 12; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 100), ", ")
		fmt.Fprintf(&bomb, "        l%d: &l%d [%s]\n", i, i, refs)
	}
	deep := "tools:\n  - name: a\n    input:\n      type: object\n      default: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n"
	big := "tools:\n  - name: a\n    input: {type: object}\n# " + strings.Repeat("x", MaxFileBytes) + "\n"
	for _, c := range []struct{ name, src, want string }{
		{"alias bomb", bomb.String(), "t.yaml:9:13: this value expands to more than 8000000 nodes through aliases"},
		{"deep", deep, "t.yaml:5:87: this value nests deeper than 128 levels"},
		{"too large", big, "t.yaml:1:1: the file is"},
		// Found by FuzzParse: an alias inside its own anchor's value.
		{"alias to itself", "tools:\n  - &o\n    name: x\n    input: *o\n", "t.yaml:2:5: this value contains an alias to itself"},
		{"alias to itself, deeper", "tools:\n  - name: x\n    input: &s\n      type: object\n      properties: {a: *s}\n", "this value contains an alias to itself"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			start := time.Now()
			_, err := Parse("t.yaml", []byte(c.src))
			took := time.Since(start)
			goruntime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("allocated %d MiB", alloc>>20)
			}
			if took > time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
	if len(bomb.String()) > 16<<10 {
		t.Errorf("the bomb is %d bytes; it should be about the issue's 14 KB", len(bomb.String()))
	}
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"get_weather": "GetWeather", "get-weather": "GetWeather", "user_id": "UserID", "userId": "UserID",
		"httpURL": "HTTPURL", "HTTPServer": "HTTPServer", "ring.doorbell": "RingDoorbell", "add": "Add",
		"3d_view": "X3dView", "__": "X", "api_key": "APIKey", "Calculator": "Calculator", "doorbell_id": "DoorbellID",
		"名前": "X名前", "名前_2": "X名前2", "Éclair": "Éclair",
	} {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A file too large to search keeps the line yaml.v3 gives, quoted, and
// its error comes at once.
func TestSyntaxErrorLineLargeFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("tools:\n")
	for i := 0; b.Len() <= maxSearchBytes; i++ {
		fmt.Fprintf(&b, "  - name: t%d\n    input: {type: object}\n", i)
	}
	b.WriteString("  - name: last\n    input: {type: object}\n      output: {type: number}\n")
	lines := strings.Count(b.String(), "\n")
	_, err := Parse("t.yaml", []byte(b.String()))
	want := fmt.Sprintf(`t.yaml:%d:3: did not find expected key at "  - name: last"`, lines-2)
	if err == nil || err.Error() != want {
		t.Errorf("\n got %v\nwant %s", err, want)
	}
}
