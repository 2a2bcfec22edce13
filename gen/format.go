package gen

import (
	"bytes"
	"go/format"
)

// Formatting a generated file is most of what generating costs beyond
// loading the package: go/printer is single-threaded, and it sizes every
// multi-line composite literal element by printing it, so a file of a
// thousand tools is printed about twice. render therefore marks the places
// between the file's top-level pieces, and formatPieces formats the pieces
// on every CPU and joins them; a piece that render knows to be in gofmt's
// form already (a schema constant) is not formatted at all. The result is
// byte for byte what format.Source gives for the whole file
// (TestFormatPieces checks it on every golden case and on a package of
// 1,000 tools), because of two things gofmt does at the top level of a
// file:
//
//   - it lays out each declaration by itself: alignment and line breaks
//     never reach across a blank line between two declarations;
//   - it writes exactly one blank line between two declarations that have
//     at least one between them in the source.
//
// So the file is cut only at marks with a blank line around them, each
// piece is formatted on its own (the first as a file, the others as
// declaration lists), and the pieces are joined with one blank line.

// The marks, each on a line of its own (a top-level item of the jennifer
// file, so followed by the newline that ends every item). Go source cannot
// hold a NUL byte, so no generated text is ever taken for one.
const (
	// pieceMark starts a piece to format.
	pieceMark = "\x00"
	// cleanMark starts a piece that gofmt would not change.
	cleanMark = "\x00="
)

// pieceBytes is how much text a piece to format holds at least before the
// next mark may end it: enough that formatting it costs much more than
// handing it to a worker.
const pieceBytes = 32 << 10

// mark is where a mark stood in the text rendered without marks.
type mark struct {
	at    int
	clean bool // a cleanMark
}

// piece is a run of the file's top-level declarations.
type piece struct {
	text  []byte
	clean bool // in gofmt's form already
}

// gofmtPieces is format.Source for a file rendered with marks.
func gofmtPieces(src []byte) ([]byte, error) { return formatPieces(src, pieceBytes) }

// formatPieces formats src, a Go file rendered with marks between
// top-level declarations, as format.Source formats src without the marks,
// in pieces of at least size bytes.
func formatPieces(src []byte, size int) ([]byte, error) {
	text, marks := unmark(src)
	pieces := cutPieces(text, marks, size)
	out := make([][]byte, len(pieces))
	errs := make([]error, len(pieces))
	forEach(len(pieces), func(i int) {
		if pieces[i].clean {
			out[i] = pieces[i].text
		} else {
			out[i], errs[i] = format.Source(pieces[i].text)
		}
	})
	for _, err := range errs {
		if err != nil {
			// Report the error as formatting the whole file does, with
			// the line numbers of the file rather than of a piece.
			return format.Source(text)
		}
	}
	var b bytes.Buffer
	b.Grow(len(text))
	for _, p := range out {
		p = bytes.TrimSpace(p)
		if len(p) == 0 {
			continue // a piece with no declaration
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.Write(p)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// unmark returns src without its marks, exactly the text jennifer renders
// without them, and where in it the marks stood.
func unmark(src []byte) (text []byte, marks []mark) {
	text = make([]byte, 0, len(src))
	for {
		i := bytes.IndexByte(src, 0)
		if i < 0 {
			return append(text, src...), marks
		}
		text = append(text, src[:i]...)
		m := mark{at: len(text)}
		switch rest := src[i:]; {
		case bytes.HasPrefix(rest, []byte(cleanMark+"\n")):
			m.clean = true
			src = rest[len(cleanMark)+1:]
		case bytes.HasPrefix(rest, []byte(pieceMark+"\n")):
			src = rest[len(pieceMark)+1:]
		default: // not a mark: a NUL byte that gofmt will report
			text = append(text, 0)
			src = rest[1:]
			continue
		}
		marks = append(marks, m)
	}
}

// cutPieces cuts text at marks into pieces. A mark cuts only where there
// is a blank line around it, and then always before and after a clean
// piece; a piece to format is cut once it holds size bytes. Where a mark
// does not cut, what follows joins the piece before it, which is clean
// only when both are.
func cutPieces(text []byte, marks []mark, size int) []piece {
	var pieces []piece
	cur := piece{} // the file's start, with the package clause: formatted
	start := 0
	for _, m := range marks {
		if blankAround(text, m.at) && (cur.clean || m.clean || m.at-start >= size) {
			cur.text = text[start:m.at]
			pieces = append(pieces, cur)
			cur, start = piece{clean: m.clean}, m.at
			continue
		}
		cur.clean = cur.clean && m.clean
	}
	cur.text = text[start:]
	return append(pieces, cur)
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
