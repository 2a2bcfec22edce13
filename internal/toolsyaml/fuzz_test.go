package toolsyaml

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Fuzz target: `go test ./internal/toolsyaml -run '^$' -fuzz FuzzParse -fuzztime 1m`.

var positioned = regexp.MustCompile(`^t\.yaml:[1-9][0-9]*:[1-9][0-9]*: .`)

// Any file parses without panicking, within the limits: each error is
// positioned, each schema kept is valid JSON, and parsing is
// deterministic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"tools:\n  - name: add\n    description: Adds.\n    input:\n      type: object\n      properties: {a: {type: number}, b: {type: number}}\n      required: [a, b]\n    output: {type: number}\n",
		"package: calc\ntoolkit: Calc\nversion: 1.0.0\ntools: []\nprompts:\n  - name: explain\n    arguments: [{name: value, required: true}]\n    template: \"Why {{.value}}?\"\n",
		"tools:\n  - name: a\n    input: &o {type: object}\n  - name: b\n    input: *o\n",
		"tools: [{name: x, input: {type: object, properties: {d: {type: string, format: date-time}}, $defs: {}}}]",
		"a: &a [x, x]\nb: &b [*a, *a]\ntools: []\n", "tools:\n  - {name: 1}\n", "---\n---\n", "", "tools: {", "\t", "tools:\n- name: x\n  input: {type: object, default: .nan}\n",
		stringBomb(), // the limit on expanded bytes
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		file, err := Parse("t.yaml", []byte(src))
		if d := time.Since(start); d > 5*time.Second { // a file that stalls the generator is a bug too
			t.Fatalf("took %v", d)
		}
		if err != nil {
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			for _, e := range list {
				if !positioned.MatchString(e.Error()) {
					t.Fatalf("unpositioned error %q", e.Error())
				}
			}
			return
		}
		for _, tool := range file.Tools {
			for _, s := range []*Schema{tool.Input, tool.Output} {
				if s != nil && !json.Valid(s.JSON) {
					t.Fatalf("tool %s: schema %q is not JSON", tool.Name, s.JSON)
				}
			}
		}
		again, err := Parse("t.yaml", []byte(src))
		if err != nil || summary(file) != summary(again) {
			t.Fatalf("parsed differently the second time: %v", err)
		}
	})
}

// summary is what a parsed file says, without the compiled schemas.
func summary(f *File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s\n", f.Package, f.Toolkit, f.Version)
	for _, t := range f.Tools {
		fmt.Fprintf(&b, "%v %s %s %q %q %s %s %v %s", t.Pos, t.Name, t.GoName, t.Title, t.Description, t.Version, t.Toolkit, t.Annotations, t.Examples)
		for _, s := range []*Schema{t.Input, t.Output} {
			if s != nil {
				b.Write(s.JSON)
			}
			b.WriteByte('|')
		}
		b.WriteByte('\n')
	}
	for _, p := range f.Prompts {
		fmt.Fprintf(&b, "%+v\n", *p)
	}
	return b.String()
}
