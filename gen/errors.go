package gen

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Error is one problem in the input, at a position. A warning is a
// problem that does not stop generation (unless Config.Strict).
type Error struct {
	Pos     token.Position
	Msg     string
	Warning bool
}

// Error formats the error as file:line:col: message.
func (e *Error) Error() string {
	msg := e.Msg
	if e.Warning {
		msg = "warning: " + msg
	}
	if !e.Pos.IsValid() && e.Pos.Filename == "" {
		return msg
	}
	return e.Pos.String() + ": " + msg
}

// ErrorList is every problem found, in file order. Its Error is one
// problem a line, as the CLI prints them.
type ErrorList []*Error

// Error gives every error, one a line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (l ErrorList) sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// errs collects errors, positions shown relative to a base directory.
type errs struct {
	base string
	list ErrorList
	// relNames remembers rel's answer by file: it is asked for the
	// position of every field of every tool, in a few files.
	relNames map[string]string
}

func (e *errs) add(pos token.Position, format string, args ...any) {
	e.list = append(e.list, &Error{Pos: e.rel(pos), Msg: fmt.Sprintf(format, args...)})
}

// rel shortens a position's file name to a path relative to the base
// directory when the file is inside it, as the go command does.
func (e *errs) rel(pos token.Position) token.Position {
	pos.Filename = expandGOROOT(pos.Filename)
	if e.base == "" || !filepath.IsAbs(pos.Filename) {
		return pos
	}
	name, ok := e.relNames[pos.Filename]
	if !ok {
		name = pos.Filename
		if r, err := filepath.Rel(e.base, pos.Filename); err == nil && !strings.HasPrefix(r, "..") {
			name = r
		}
		if e.relNames == nil {
			e.relNames = map[string]string{}
		}
		e.relNames[pos.Filename] = name
	}
	pos.Filename = name
	return pos
}

// err returns the errors in file order, each once: a type used by several
// tools is reported once.
func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	e.list.sort()
	out := e.list[:0]
	for i, x := range e.list {
		if i > 0 && x.Pos == e.list[i-1].Pos && x.Msg == e.list[i-1].Msg {
			continue
		}
		out = append(out, x)
	}
	e.list = out
	return e.list
}
