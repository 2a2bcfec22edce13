package gen

import (
	"bytes"
	"go/format"
)

// Formatting a generated file is most of what generating costs beyond
// loading the package: go/printer is single-threaded, and it sizes every
// multi-line composite literal element by printing it, so a file of a
// thousand tools is printed about twice. emit therefore renders the file
// with a mark between its top-level pieces, and formatPieces formats the
// pieces on every CPU and joins them. The result is byte for byte what
// format.Source gives for the whole file (TestFormatPieces checks it on
// every golden case and on a package of 1,000 tools), because of two
// things gofmt does at the top level of a file:
//
//   - it lays out each declaration by itself: alignment and line breaks
//     never reach across a blank line between two declarations;
//   - it writes exactly one blank line between two declarations that have
//     at least one between them in the source.
//
// So the file is cut only at marks with a blank line around them, each
// piece is formatted on its own (the first as a file, the others as
// declaration lists), and the pieces are joined with one blank line.

// pieceMark is put between the file's top-level pieces. Go source cannot
// hold a NUL byte, so no generated text is ever taken for it.
const pieceMark = "\x00"

// markLine is a mark as it stands in the text jennifer renders: a
// top-level item, so followed by the newline that ends every item.
var markLine = []byte(pieceMark + "\n")

// pieceBytes is how much text a piece holds at least before the next mark
// may end it: enough that formatting a piece costs much more than handing
// it to a worker. A file smaller than this is formatted whole.
const pieceBytes = 32 << 10

// gofmtPieces is format.Source for a file rendered with marks.
func gofmtPieces(src []byte) ([]byte, error) { return formatPieces(src, pieceBytes) }

// formatPieces formats src, a Go file rendered with marks between
// top-level declarations, as format.Source formats src without the marks,
// in pieces of at least size bytes.
func formatPieces(src []byte, size int) ([]byte, error) {
	text, marks := unmark(src)
	pieces := cutPieces(text, marks, size)
	if len(pieces) == 1 {
		return format.Source(text)
	}
	out := make([][]byte, len(pieces))
	errs := make([]error, len(pieces))
	forEach(len(pieces), func(i int) { out[i], errs[i] = format.Source(pieces[i]) })
	for _, err := range errs {
		if err != nil {
			// Report the error as formatting the whole file does, with
			// the line numbers of the file rather than of a piece.
			return format.Source(text)
		}
	}
	var b bytes.Buffer
	b.Grow(len(text))
	for i, p := range out {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.Write(bytes.TrimSpace(p))
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// unmark returns src without its marks, exactly the text jennifer renders
// without them, and the offsets in it where the marks stood.
func unmark(src []byte) (text []byte, marks []int) {
	text = make([]byte, 0, len(src))
	for {
		i := bytes.Index(src, markLine)
		if i < 0 {
			return append(text, src...), marks
		}
		text = append(text, src[:i]...)
		marks = append(marks, len(text))
		src = src[i+len(markLine):]
	}
}

// cutPieces cuts text at marks into pieces of at least size bytes (the
// last may be smaller). A mark cuts only where there is a blank line
// around it.
func cutPieces(text []byte, marks []int, size int) [][]byte {
	var pieces [][]byte
	start := 0
	for _, m := range marks {
		if m-start >= size && blankAround(text, m) {
			pieces = append(pieces, text[start:m])
			start = m
		}
	}
	return append(pieces, text[start:])
}

// blankAround reports whether the white space around offset at holds a
// blank line (two newlines or more).
func blankAround(text []byte, at int) bool {
	lines := 0
	for i := at - 1; i >= 0 && isSpace(text[i]); i-- {
		if text[i] == '\n' {
			lines++
		}
	}
	for i := at; i < len(text) && isSpace(text[i]); i++ {
		if text[i] == '\n' {
			lines++
		}
	}
	return lines >= 2
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
