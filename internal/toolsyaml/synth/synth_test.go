package synth_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/internal/toolsyaml"
	"github.com/toolgen-go/toolgen/internal/toolsyaml/synth"
)

// Both catalogs parse, strictly, with n tools of distinct names, the same
// bytes for the same n; Small's tools take two properties and return two,
// and its first tool is the one the benchmarks call.
func TestCatalogs(t *testing.T) {
	const n = 130 // past one round of every noun and verb
	for name, catalog := range map[string]func(string, int) []byte{"Catalog": synth.Catalog, "Small": synth.Small} {
		t.Run(name, func(t *testing.T) {
			data := catalog("cat", n)
			if !bytes.Equal(data, catalog("cat", n)) {
				t.Fatal("two catalogs of the same size differ")
			}
			f, err := toolsyaml.Parse("tools.yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Tools) != n || f.Tools[0].Name != "list_issue_0" {
				t.Fatalf("%d tools, the first %q", len(f.Tools), f.Tools[0].Name)
			}
			if name != "Small" {
				return
			}
			for _, tool := range f.Tools {
				for what, s := range map[string]*toolsyaml.Schema{"input": tool.Input, "output": tool.Output} {
					var schema struct{ Properties map[string]json.RawMessage }
					if s == nil || json.Unmarshal(s.JSON, &schema) != nil || len(schema.Properties) != 2 {
						t.Fatalf("%s: its %s does not have two properties", tool.Name, what)
					}
				}
			}
		})
	}
}
