package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/internal/suggest"
)

// directivePrefix starts every toolgen directive. Like //go: directives it
// has no space after the slashes, so go doc hides it.
const directivePrefix = "//toolgen:"

// directive is one //toolgen:NAME ARGS comment line.
type directive struct {
	name string
	args string
	pos  token.Position // of the comment
	col  int            // column of args in the line
}

// at returns the position of byte off of the directive's arguments.
func (d *directive) at(off int) token.Position {
	p := d.pos
	p.Column = d.col + off
	p.Offset += d.col - d.pos.Column + off
	return p
}

// directives returns the toolgen directives of a comment group. A line
// that looks like one but has a space after the slashes is an error: it
// would silently do nothing.
func directives(fset *token.FileSet, g *ast.CommentGroup, e *errs) []*directive {
	if g == nil {
		return nil
	}
	var out []*directive
	for _, c := range g.List {
		pos := fset.Position(c.Slash)
		if strings.HasPrefix(c.Text, "// toolgen:") || strings.HasPrefix(c.Text, "//\ttoolgen:") {
			e.add(pos, "toolgen directives are written with no space after //: %q", "//"+strings.TrimLeftFunc(c.Text[2:], unicode.IsSpace))
			continue
		}
		if !strings.HasPrefix(c.Text, directivePrefix) {
			continue
		}
		rest := c.Text[len(directivePrefix):]
		name, args, _ := strings.Cut(rest, " ")
		argOff := len(directivePrefix) + len(name) + 1
		trimmed := strings.TrimLeft(args, " \t")
		argOff += len(args) - len(trimmed)
		out = append(out, &directive{name: name, args: strings.TrimRight(trimmed, " \t"), pos: pos, col: pos.Column + argOff})
	}
	return out
}

// knownDirectives are the directives toolgen reads: those on a function,
// then on a type, then on a package.
var knownDirectives = []string{"tool", "example", "param", "prompt", "enum", "schema", "toolkit"}

// misplaced reports a directive that does not belong where it is written:
// a known one that applies elsewhere ("does not apply to a function
// (function directives: ...)", what and here saying so), or one toolgen
// does not know, with the closest known one when it is a likely typo.
func misplaced(e *errs, d *directive, what, here string) {
	if slices.Contains(knownDirectives, d.name) {
		e.add(d.pos, "//toolgen:%s does not apply to %s (%s)", d.name, what, here)
		return
	}
	msg := fmt.Sprintf("unknown directive //toolgen:%s (known: %s)", d.name, strings.Join(knownDirectives, ", "))
	if best := suggest.Closest(d.name, knownDirectives); best != "" {
		msg += ": did you mean //toolgen:" + best + "?"
	}
	e.add(d.pos, "%s", msg)
}

// arg is one argument of a directive: key=value or a bare flag.
type arg struct {
	key, value string
	hasValue   bool
	off        int // byte offset in the directive's args
}

// splitArgs splits `name=get_weather title="Get weather" readonly`. Values
// may be Go double-quoted strings.
func splitArgs(s string) ([]arg, error) {
	var out []arg
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		start := i
		for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		a := arg{key: s[start:i], off: start}
		if a.key == "" {
			return nil, &argError{start, "expected a key before '='"}
		}
		if i < len(s) && s[i] == '=' {
			i++
			a.hasValue = true
			if i < len(s) && s[i] == '"' {
				end := i + 1
				for end < len(s) && s[end] != '"' {
					if s[end] == '\\' {
						end++
					}
					end++
				}
				if end >= len(s) {
					return nil, &argError{i, fmt.Sprintf("unterminated string in %s=", a.key)}
				}
				v, err := strconv.Unquote(s[i : end+1])
				if err != nil {
					return nil, &argError{i, fmt.Sprintf("malformed string in %s=: %v", a.key, err)}
				}
				a.value = v
				i = end + 1
				if i < len(s) && s[i] != ' ' && s[i] != '\t' {
					return nil, &argError{i, fmt.Sprintf("expected a space after the quoted value of %s=", a.key)}
				}
			} else {
				vs := i
				for i < len(s) && s[i] != ' ' && s[i] != '\t' {
					i++
				}
				a.value = s[vs:i]
				if a.value == "" {
					return nil, &argError{vs, fmt.Sprintf("%s= needs a value", a.key)}
				}
			}
		}
		out = append(out, a)
	}
	return out, nil
}

type argError struct {
	off int
	msg string
}

func (e *argError) Error() string { return e.msg }
