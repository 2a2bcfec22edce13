package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkDefault answers a field schema met before from what it found the
// first time: the same wrong default in two types is reported in both.
func TestCheckDefaultMetAgain(t *testing.T) {
	dir := t.TempDir()
	src := "package d\n\n" +
		"type A struct {\n\tN int `json:\"n,omitempty\" jsonschema:\"minimum=1,default=0\"`\n}\n\n" +
		"type B struct {\n\tN int `json:\"n,omitempty\" jsonschema:\"minimum=1,default=0\"`\n}\n\n" +
		"// ToolA does a.\n//\n//toolgen:tool\nfunc ToolA(in A) string { return \"\" }\n\n" +
		"// ToolB does b.\n//\n//toolgen:tool\nfunc ToolB(in B) string { return \"\" }\n"
	for name, content := range map[string]string{"go.mod": "module example.com/d\n\ngo 1.24\n", "d.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Generate(Config{Dir: dir}, nil)
	if err == nil {
		t.Fatal("generated with wrong defaults")
	}
	for _, typ := range []string{"A.N", "B.N"} {
		if want := typ + ": jsonschema tag: default 0 does not match the field's schema"; !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in:\n%v", want, err)
		}
	}
}
