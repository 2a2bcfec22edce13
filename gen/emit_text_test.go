package gen

import (
	"go/format"
	"strings"
	"testing"
)

// TestTextPiecesFill: each piece replaces its placeholder's whole line,
// indentation included; a placeholder missing or out of order is an
// error, never a file with a piece in the wrong place.
func TestTextPiecesFill(t *testing.T) {
	p := newTextPieces()
	one := func(qualifiers) string { return "const a = 1\n" }
	two := func(qualifiers) string { return "\treturn 2\n" }
	p.add(one)
	p.add(two)
	if _, err := p.write(nil); err != nil {
		t.Fatal(err)
	}
	line := func(n string) string { return "// " + p.mark + n + "\n" }
	got, err := p.fill([]byte("package p\n\n" + line("0") + "\nfunc f() int {\n\t" + line("1") + "}\n"))
	if want := "package p\n\nconst a = 1\n\nfunc f() int {\n\treturn 2\n}\n"; err != nil || string(got) != want {
		t.Errorf("fill = %q, %v; want %q", got, err, want)
	}
	for name, src := range map[string]string{
		"missing":  "package p\n\n" + line("0"),
		"swapped":  "package p\n\n" + line("1") + line("0"),
		"no marks": "package p\n",
	} {
		if got, err := p.fill([]byte(src)); err == nil {
			t.Errorf("%s: fill = %q, want an error", name, got)
		}
	}
	if other := newTextPieces(); other.mark == p.mark || !strings.HasPrefix(other.mark, "toolgen:text:") {
		t.Errorf("marks %q and %q: want a fresh one per file", p.mark, other.mark)
	}
}

// TestWriteKeyedAsGofmt: writeKeyed lays a keyed literal out as gofmt
// does, where runs of one-line values align and an element that does not
// fit on a line (a value spanning lines, or longer than gofmt measures, 1e6
// bytes) stands alone.
func TestWriteKeyedAsGofmt(t *testing.T) {
	long := `"` + strings.Repeat("x", 1_000_100) + `"`
	for name, elems := range map[string][]keyValue{
		"one run":   {{"Name", `"a"`}, {"Description", `"b"`}, {"Handler", "h"}},
		"multiline": {{"Name", `"a"`}, {"Description", "`b\nc`"}, {"Toolkit", `"k"`}, {"Handler", "h"}},
		"too long":  {{"Name", `"a"`}, {"Description", long}, {"Toolkit", `"k"`}, {"Handler", "h"}},
		"long last": {{"Name", `"a"`}, {"Handler", "h"}, {"Description", long}},
	} {
		var b strings.Builder
		b.WriteString("package p\n\nvar _ = T{\n")
		writeKeyed(&b, 1, elems)
		b.WriteString("}\n")
		got := b.String()
		want, err := format.Source([]byte(got))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got != string(want) {
			t.Errorf("%s: writeKeyed wrote\n%.300s\ngofmt writes\n%.300s", name, got, want)
		}
	}
}

// TestTextPieceFailure: a piece that cannot be written (a struct type
// that does not format) makes render fail with toolgen's own error, not a
// file with unformatted Go in it.
func TestTextPieceFailure(t *testing.T) {
	p := newTextPieces()
	p.add(func(q qualifiers) string {
		return typeText(q, &typeExpr{kind: exprStruct, fields: []field{{name: "not a name", typ: &typeExpr{kind: exprNamed, name: "int"}}}})
	})
	if _, err := p.write(nil); err == nil || !strings.Contains(err.Error(), "does not format") {
		t.Errorf("write = %v, want the struct's format error", err)
	}
}
