package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Formatting in pieces gives exactly what format.Source gives for the
// whole file: on every golden case, cut at every mark where a cut is
// allowed, and on the synthetic package of 1,000 tools, cut as Generate
// cuts it. The marks change nothing else: the text without them is the
// file as rendered without them.
func TestFormatPieces(t *testing.T) {
	root := moduleRoot(t)
	for _, name := range goldenCases(t) {
		if _, err := os.Stat(filepath.Join(root, goldenDir, name, DefaultOutput)); err != nil {
			continue // a case that fails to generate
		}
		arg := "./" + goldenDir + "/" + name
		if _, err := os.Stat(filepath.Join(root, goldenDir, name, "tools.yaml")); err == nil {
			arg += "/tools.yaml"
		}
		t.Run(name, func(t *testing.T) {
			for _, u := range readUnits(t, root, arg) {
				samePieces(t, u, 1)
			}
		})
	}
	t.Run("synth1000", func(t *testing.T) {
		units := readUnits(t, synthPackage(t, 1000), ".")
		if len(units) != 1 {
			t.Fatalf("%d units, want 1", len(units))
		}
		samePieces(t, units[0], pieceBytes)
	})
}

// readUnits reads args in dir as Generate does.
func readUnits(t *testing.T, dir, arg string) []*unit {
	t.Helper()
	g := testGenerator(t, dir)
	units := g.read([]string{arg})
	if err := g.errs.err(); err != nil {
		t.Fatal(err)
	}
	return units
}

// samePieces checks that u's file formatted in pieces of size bytes is
// the file rendered without marks and formatted whole, and that it was
// cut at all.
func samePieces(t *testing.T, u *unit, size int) {
	t.Helper()
	plain, err := render(u, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := formatFile(plain, format.Source)
	if err != nil {
		t.Fatal(err)
	}
	marked, err := render(u, true)
	if err != nil {
		t.Fatal(err)
	}
	text, marks := unmark(marked)
	if !bytes.Equal(text, plain) {
		t.Fatalf("without its marks the file is not as rendered without them:\n%s", lineDiff(string(plain), string(text)))
	}
	if n := len(cutPieces(text, marks, size)); n < 2 && len(u.tools)+len(u.prompts) > 0 {
		t.Errorf("%d piece(s) of %d marks: the test checks no cut", n, len(marks))
	}
	got, err := formatFile(marked, func(src []byte) ([]byte, error) { return formatPieces(src, size) })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("formatted in pieces, the file differs from format.Source's:\n%s", lineDiff(string(want), string(got)))
	}
}

// Where no blank line stands around a mark, the file is not cut there;
// a clean piece joined to one that is not is formatted with it.
func TestCutPieces(t *testing.T) {
	src := []byte("package p\n\nvar a = 1\n" + pieceMark + "\nvar b = 2\n" + pieceMark + "\n\nvar c = 3\n" +
		cleanMark + "\n\nconst d = 4\n" + pieceMark + "\nconst   e = 5\n" + cleanMark + "\n\nconst f = 6\n")
	text, marks := unmark(src)
	if want := "package p\n\nvar a = 1\nvar b = 2\n\nvar c = 3\n\nconst d = 4\nconst   e = 5\n\nconst f = 6\n"; string(text) != want {
		t.Fatalf("unmarked: %q, want %q", text, want)
	}
	var got []string
	for _, p := range cutPieces(text, marks, 1) {
		got = append(got, fmt.Sprintf("%t %q", p.clean, p.text))
	}
	want := []string{
		`false "package p\n\nvar a = 1\nvar b = 2\n"`,
		`false "\nvar c = 3\n"`,
		`false "\nconst d = 4\nconst   e = 5\n"`,
		`true "\nconst f = 6\n"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("pieces:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	out, err := formatPieces(src, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := format.Source(text); !bytes.Equal(out, want) {
		t.Errorf("formatPieces:\n%s\nwant:\n%s", out, want)
	}
}

// BenchmarkFormat compares the two ways to format the file of the
// synthetic package of 1,000 tools: in pieces (what Generate does) and
// whole with format.Source. What piecewise formatting buys, for
// BENCHMARKS.md: the wall time of the format phase, on every CPU, and
// the CPU it saves by not formatting the schema constants.
func BenchmarkFormat(b *testing.B) {
	g := testGenerator(b, synthPackage(b, 1000))
	units := g.read([]string{"."})
	if err := g.errs.err(); err != nil || len(units) != 1 {
		b.Fatal(err)
	}
	marked, err := render(units[0], true)
	if err != nil {
		b.Fatal(err)
	}
	plain, err := render(units[0], false)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("path=pieces", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := formatFile(marked, gofmtPieces); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("path=whole", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := formatFile(plain, format.Source); err != nil {
				b.Fatal(err)
			}
		}
	})
}
