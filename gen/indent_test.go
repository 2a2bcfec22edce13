package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// indentJSON is json.Indent with tabs for the depths of any real schema,
// and keeps its lines short however deep the nesting.
func TestIndentJSON(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `"a"`, `1`, `null`,
		`{"a":1,"b":[1,2,{"c":{}}],"d":[],"e":{"f":"x\"}{,:[]y\\"}}`,
		` { "a" : [ 1 , 2 ] , "b" : { } } `,
		`{"type":"object","properties":{"a":{"type":"string","enum":["{","]",":",","]}},"required":["a"]}`,
	}
	for _, doc := range docs {
		var want, got bytes.Buffer
		if err := json.Indent(&want, []byte(strings.TrimSpace(doc)), "", "\t"); err != nil {
			t.Fatal(err)
		}
		if err := indentJSON(&got, []byte(doc), maxIndent); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("indentJSON(%s):\n%s\nwant\n%s", doc, got.String(), want.String())
		}
	}
	if err := indentJSON(&bytes.Buffer{}, []byte(`{"a":`), maxIndent); err == nil {
		t.Error("indentJSON took invalid JSON")
	}

	// 1,000 levels: the same lines as json.Indent, none indented by more
	// than maxIndent tabs.
	deep := strings.Repeat(`{"next":`, 1000) + `{}` + strings.Repeat(`}`, 1000)
	var want, got bytes.Buffer
	json.Indent(&want, []byte(deep), "", "\t")
	if err := indentJSON(&got, []byte(deep), maxIndent); err != nil {
		t.Fatal(err)
	}
	wl, gl := strings.Split(want.String(), "\n"), strings.Split(got.String(), "\n")
	if len(wl) != len(gl) {
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
	for i := range gl {
		if strings.TrimLeft(gl[i], "\t") != strings.TrimLeft(wl[i], "\t") {
			t.Fatalf("line %d: %q, want %q", i+1, gl[i], wl[i])
		}
		if n := len(gl[i]) - len(strings.TrimLeft(gl[i], "\t")); n > maxIndent {
			t.Fatalf("line %d indented by %d tabs", i+1, n)
		}
	}
}
