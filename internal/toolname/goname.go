package toolname

import (
	"strings"
	"unicode"
)

// commonInitialisms are written in capitals in Go names, as golint and
// staticcheck expect (userId → UserID).
var commonInitialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "CSV": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true,
	"JSON": true, "JWT": true, "LHS": true, "MCP": true, "OS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SDK": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "URI": true, "URL": true,
	"UTF8": true, "UUID": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// GoName turns a tool, property or type name into an exported Go
// identifier: words split at '_', '-', '.', spaces and lower-to-upper case
// changes, each capitalised, common initialisms in capitals
// (get_weather → GetWeather, user_id → UserID, httpURL → HTTPURL). A name
// that starts with a digit gets an "X" prefix; one with no letters or
// digits becomes "X".
func GoName(s string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1])):
			flush()
			cur = append(cur, r)
		case unicode.IsUpper(r) && i > 0 && unicode.IsUpper(runes[i-1]) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			// "HTTPServer": the S starts a new word.
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	var b strings.Builder
	for _, w := range words {
		up := strings.ToUpper(w)
		if commonInitialisms[up] {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		b.WriteString(strings.ToUpper(string(r[0])))
		b.WriteString(string(r[1:]))
	}
	out := b.String()
	if out == "" {
		return "X"
	}
	if !unicode.IsUpper([]rune(out)[0]) {
		// A digit, or a letter without case (名前): exported names must
		// start with an upper-case letter.
		return "X" + out
	}
	return out
}
