package gen

import (
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
