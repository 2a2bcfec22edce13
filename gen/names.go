package gen

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// snakeCase turns a Go name into a tool name: GetWeather → get_weather,
// HTTPServer → http_server, ParseV2Data → parse_v2_data.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			nextLower := i > 0 && i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1])
			if prevLower || nextLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// funcDescription is a function's doc comment as a tool description: when
// it starts with the function's name ("GetWeather fetches ..."), the name is
// dropped and the next word capitalised ("Fetches ...").
func funcDescription(doc, name string) string {
	rest, ok := strings.CutPrefix(doc, name+" ")
	if !ok {
		return doc
	}
	rest = strings.TrimLeft(rest, " ")
	r, size := utf8.DecodeRuneInString(rest)
	if r == utf8.RuneError {
		return doc
	}
	return string(unicode.ToUpper(r)) + rest[size:]
}

// capitalise upper-cases the first letter.
func capitalise(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
