package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

const maxDepth = 128

// depth is how deeply b's arrays and objects nest, strings skipped.
func depth(b []byte) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			most = max(most, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// want is what Valid must answer: json.Valid, and valid UTF-8, and the
// depth within bounds.
func want(b []byte) bool {
	return json.Valid(b) && utf8.Valid(b) && depth(b) <= maxDepth
}

var seeds = []string{
	``, ` `, `{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-0.5e-3`, `1E+2`, `"a"`, `"a\"b\\c\/\b\f\n\r\t\u00e9\uD83C\uDF27"`,
	`{"city":"Paris","days":3,"units":"celsius"}`, " {\"a\" :\t[1, 2.5, {\"b\": null}]\r\n} ",
	`{"a":1,"a":2}`, `{"a":1}{}`, `{"a":1} x`, `{"a":}`, `{"a" 1}`, `{a:1}`, `{"a":1,}`, `[1,]`, `[,1]`, `[1 2]`, `01`, `1.`, `.5`, `1e`, `1e+`, `-`, `+1`, `--1`,
	`"\x"`, `"\u12"`, `"\u12G4"`, "\"\x01\"", "\"\x7f\"", "\"\xff\"", "{\"\xff\":1}", `"\ud800"`, "\"é 東京 🌧\"", `1e400`,
	strings.Repeat("[", 128) + strings.Repeat("]", 128), strings.Repeat("[", 129) + strings.Repeat("]", 129),
	strings.Repeat(`{"a":`, 129) + "1" + strings.Repeat("}", 129),
	`nul`, `tru`, `falsey`, `{"a":1`, `"abc`, `[`, `{`, `"`, `\`, "\x00", "[1]\x00", "\ufeff{}",
}

func TestValid(t *testing.T) {
	for _, s := range seeds {
		if got, w := Valid([]byte(s), maxDepth), want([]byte(s)); got != w {
			t.Errorf("Valid(%q) = %v, want %v", s, got, w)
		}
	}
}

// Valid answers as json.Valid does, but for invalid UTF-8 and depth.
func FuzzValid(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, w := Valid(b, maxDepth), want(b); got != w {
			t.Fatalf("Valid(%q) = %v, want %v", b, got, w)
		}
	})
}

// Compact says compact exactly when json.Compact gives b back as it is.
func FuzzCompact(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		valid, compact := Compact(b, maxDepth)
		if valid != want(b) {
			t.Fatalf("Compact(%q) valid = %v, want %v", b, valid, !valid)
		}
		if !valid {
			return
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			t.Fatal(err)
		}
		if same := buf.String() == string(b); compact != same {
			t.Fatalf("Compact(%q) compact = %v, json.Compact gives %q", b, compact, buf.String())
		}
	})
}

// BenchmarkValid compares Valid with json.Valid on a tool call's
// arguments and on its result (BENCHMARKS.md).
func BenchmarkValid(b *testing.B) {
	for _, in := range []struct{ name, json string }{
		{"args", `{"city":"Paris","days":3,"units":"celsius"}`},
		{"result", `{"city":"Paris","days":3,"high":21.5,"summary":"sunny in celsius"}`},
	} {
		data := []byte(in.json)
		for _, p := range []struct {
			name  string
			valid func([]byte) bool
		}{{"jsonscan", func(b []byte) bool { return Valid(b, maxDepth) }}, {"encoding-json", json.Valid}} {
			b.Run("json="+in.name+"/check="+p.name, func(b *testing.B) {
				for b.Loop() {
					if !p.valid(data) {
						b.Fatal("not valid")
					}
				}
			})
		}
	}
}
