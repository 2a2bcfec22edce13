// Package toolname is the rule for tool and prompt names, and for the ids
// of the secrets a tool declares, shared by the generator and the runtime. It is a leaf: it imports only the standard
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

// SecretPattern is the rule for a secret's id: an identifier of 1 to 128
// ASCII letters, digits and '_', not starting with a digit, so that every
// id is also a valid environment variable name (the default source of
// secrets) and reads the same in Go, YAML and OXP.
const SecretPattern = `^[A-Za-z_][A-Za-z0-9_]{0,127}$`

// SecretRule says the secret rule in words, for error messages.
const SecretRule = "1 to 128 letters, digits or '_', not starting with a digit"

// ValidSecret reports whether id matches [SecretPattern].
func ValidSecret(id string) bool {
	if len(id) == 0 || len(id) > 128 || '0' <= id[0] && id[0] <= '9' {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_':
		default:
			return false
		}
	}
	return true
}
