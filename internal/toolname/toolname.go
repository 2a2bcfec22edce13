// Package toolname is the rule for tool and prompt names, shared by the
// generator and the runtime. It is a leaf: it imports only the standard
// library, so that the generator does not link the server to check a name.
package toolname

// Pattern is the rule as a regular expression: 1 to 128 ASCII letters,
// digits, '_', '-' and '.', as MCP allows and the explorer's URLs need no
// escaping for.
const Pattern = `^[A-Za-z0-9_.-]{1,128}$`

// Rule says the rule in words, for error messages.
const Rule = "1 to 128 letters, digits, '_', '-' or '.'"

// Valid reports whether name matches [Pattern].
func Valid(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}
