package toolsyaml

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.yaml.in/yaml/v3"
)

// The JSON Schema for tools.yaml that editors use must accept what the
// parser accepts and refuse what it refuses.
func TestFileSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	f, err := os.Open(filepath.Join("..", "..", "schemas", "tools.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := c.AddResource("tools.schema.json", f); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("tools.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	check := func(src string) error {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		js, err := nodeJSON(&n)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		return schema.Validate(v)
	}
	good := []string{calculator, "tools:\n  - name: a\n    secrets: [WEATHER_API_KEY, _x2]\n    input: {type: object}\n",
		"tools:\n  - name: a\n    approval: operator\n    input: {type: object}\n  - name: b\n    approval: client\n    input: {type: object}\n",
		"tools:\n  - name: a\n    task: optional\n    input: {type: object}\n  - name: b\n    task: required\n    input: {type: object}\n"}
	if ex, err := os.ReadFile(filepath.Join("..", "..", "examples", "calculator", "tools.yaml")); err == nil {
		good = append(good, string(ex))
	}
	for _, src := range good {
		if _, err := Parse("t.yaml", []byte(src)); err != nil {
			t.Fatalf("parser refuses a good file: %v", err)
		}
		if err := check(src); err != nil {
			t.Errorf("schema refuses a good file: %v", err)
		}
	}
	for _, bad := range []string{
		"tools: []\nplugins: 1\n",
		"tools:\n  - name: a\n",
		"tools:\n  - name: a\n    input: {type: string}\n",
		"tools:\n  - name: 1a\n    input: {type: object}\n",
		"tools:\n  - name: a\n    annotations: {readOnlyHint: yes}\n    input: {type: object}\n",
		"tools: []\nprompts:\n  - name: p\n",
		"package: My-Pkg\ntools: []\n",
		"tools:\n  - name: a\n    secrets: [API-KEY]\n    input: {type: object}\n",
		"tools:\n  - name: a\n    secrets: [K, K]\n    input: {type: object}\n",
		"tools:\n  - name: a\n    secrets: K\n    input: {type: object}\n",
		"tools:\n  - name: a\n    approval: always\n    input: {type: object}\n",
		"tools:\n  - name: a\n    approval: \"\"\n    input: {type: object}\n",
		"tools:\n  - name: a\n    approval: [operator]\n    input: {type: object}\n",
		"tools:\n  - name: a\n    task: always\n    input: {type: object}\n",
		"tools:\n  - name: a\n    task: \"\"\n    input: {type: object}\n",
	} {
		if _, err := Parse("t.yaml", []byte(bad)); err == nil {
			t.Errorf("parser accepts %q", bad)
		}
		if err := check(bad); err == nil {
			t.Errorf("schema accepts %q", bad)
		}
	}
}
