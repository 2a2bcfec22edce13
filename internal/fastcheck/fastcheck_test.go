package fastcheck

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/internal/compile"
)

// The differential tests against the full path (parseArgs, then
// jsonschema) live in the runtime package, which owns parseArgs; these
// test the parts.

var limits = Limits{MaxNesting: 128, MaxMantissa: 1000, MaxExponent: 1000}

const forecast = `{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,"maximum":14},"units":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","days","units"],"additionalProperties":false}`

// cmp agrees with math/big on every pair of a set of awkward literals.
func TestDecimalCmp(t *testing.T) {
	lits := []string{
		"0", "-0", "0.0", "0e5", "1", "-1", "1.0", "1e0", "10e-1", "0.1e1", "100", "1e2", "10E1", "1e+2",
		"0.1", "0.10", "1e-1", "0.1000000000000000001", "0.0999999999999999999", "0.01", "-0.1", "-0.1000000000000000001",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615", "18446744073709551616",
		"3.4028234663852886e+38", "3.4028234663852887e+38", "1e400", "1e-400", "123.456", "123.4560", "1234.56e-1",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		lits = append(lits, randomNumber(r))
	}
	for _, a := range lits {
		for _, b := range lits {
			na, _, oka := scanNumber([]byte(a), 0)
			nb, _, okb := scanNumber([]byte(b), 0)
			ra, _ := new(big.Rat).SetString(a)
			rb, _ := new(big.Rat).SetString(b)
			if !oka || !okb {
				t.Fatalf("scanNumber refused %s or %s", a, b)
			}
			if got, want := cmp(&na.dec, &nb.dec), ra.Cmp(rb); got != want {
				t.Errorf("cmp(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
		n, _, _ := scanNumber([]byte(a), 0)
		ra, _ := new(big.Rat).SetString(a)
		if n.dec.isInt() != ra.IsInt() {
			t.Errorf("isInt(%s) = %v, want %v", a, n.dec.isInt(), ra.IsInt())
		}
	}
}

func randomNumber(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(2) == 0 {
		b.WriteByte('-')
	}
	digits := func(n int) {
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	if r.IntN(3) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteByte(byte('1' + r.IntN(9)))
		digits(r.IntN(25))
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		digits(1 + r.IntN(25))
	}
	if r.IntN(2) == 0 {
		b.WriteString("e")
		b.WriteString(strconv.Itoa(r.IntN(80) - 40))
	}
	return b.String()
}

// The common case costs no allocation.
func TestValidDoesNotAllocate(t *testing.T) {
	c := Compile([]byte(forecast), limits)
	if c == nil {
		t.Fatal("forecast schema not covered")
	}
	for _, body := range []string{
		`{"city":"Paris","days":3,"units":"celsius"}`,
		`{"city":"Paris","days":3.0,"units":"fahrenheit"}`,
		`{"city":"P\u00e9ris","days":3,"units":"celsius"}`, // minLength reads the text: one allocation to unescape it
	} {
		b := []byte(body)
		if !c.Valid(b) {
			t.Fatalf("%s not valid", body)
		}
		allocs := testing.AllocsPerRun(100, func() { c.Valid(b) })
		escaped := strings.Contains(body, `\u`)
		if !escaped && allocs != 0 || escaped && allocs > 1 {
			t.Errorf("%s: %v allocations per call", body, allocs)
		}
	}

	// Every kind of value and the other keywords, none of them allocating.
	c = Compile([]byte(`{"$defs":{"p":{"type":"object","properties":{"x":{"type":"number","exclusiveMinimum":0}},"required":["x"]}},
		"type":"object","properties":{"ok":{"type":"boolean","const":true},"none":{"type":"null"},"tags":{"type":"array","items":{"type":"string","pattern":"^[a-z]+$"},"maxItems":3},
		"at":{"$ref":"#/$defs/p"},"either":{"anyOf":[{"type":"integer"},{"type":"string"}]},"by":{"type":"object","propertyNames":{"pattern":"^[0-9]+$"},"additionalProperties":{"enum":[1,2.5,"x",false,null]}}},
		"additionalProperties":false}`), limits)
	if c == nil {
		t.Fatal("schema not covered")
	}
	b := []byte(`{"ok":true,"none":null,"tags":["a","bc"],"at":{"x":0.5},"either":"s","by":{"1":2.50,"2":null,"3":false}}`)
	if !c.Valid(b) {
		t.Fatalf("%s not valid", b)
	}
	limit := 0.0
	if raceEnabled {
		limit = 1 // the pattern's matcher (see raceEnabled)
	}
	if allocs := testing.AllocsPerRun(100, func() { c.Valid(b) }); allocs > limit {
		t.Errorf("%s: %v allocations per call", b, allocs)
	}
}

// A schema Compile accepts is one jsonschema compiles: the runtime defers
// that compile on the strength of it.
func FuzzCompileStrict(f *testing.F) {
	for _, s := range []string{
		forecast, `{}`, `true`, `false`, `{"type":"strin"}`, `{"minimum":"3"}`, `{"required":"x"}`,
		`{"type":["integer","null"],"minimum":0,"maximum":1e3,"multipleOf":0.5}`,
		`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"type":"object","propertyNames":{"pattern":"^[0-9]+$"},"additionalProperties":{"type":"string","format":"date-time"}}`,
		`{"anyOf":[{"type":"string","maxLength":3},{"const":null}],"x-note":1,"title":"t","examples":[1]}`,
		`{"type":"array","items":{"enum":[1,"a",true,null]},"minItems":1,"maxItems":2}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"pattern":"("}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		if Compile([]byte(schema), limits) == nil {
			return
		}
		if _, err := compile.Schema([]byte(schema)); err != nil {
			t.Errorf("Compile accepted %s, which jsonschema refuses: %v", schema, err)
		}
	})
}

func BenchmarkValid(b *testing.B) {
	c := Compile([]byte(forecast), limits)
	body := []byte(`{"city":"Paris","days":3,"units":"celsius"}`)
	b.ReportAllocs()
	for b.Loop() {
		if !c.Valid(body) {
			b.Fatal("not valid")
		}
	}
}

// A schema whose anyOf branches both recurse would make a scan that
// backtracks take time exponential in the body's depth: the step budget
// ends it, and Valid says "not known valid".
func TestValidBudget(t *testing.T) {
	c := Compile([]byte(`{"$defs":{"n":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/n"},"maxItems":1},{"type":"array","items":{"$ref":"#/$defs/n"}}]}},"$ref":"#/$defs/n"}`), limits)
	if c == nil {
		t.Fatal("schema not covered")
	}
	deep := strings.Repeat("[", 100) + "1" + strings.Repeat("]", 100)
	if c.Valid([]byte(deep)) {
		t.Error("an invalid body is valid")
	}
	shallow := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	if !c.Valid([]byte(shallow)) {
		t.Error("a valid body within the budget is not known valid")
	}
}

// TestRepeatedNames: a body that repeats a name in one object is never
// called valid (encoding/json would keep the last, a typed decode may fail
// on the first); the full path refuses it. Names outside properties count,
// and so do more of them than the fast path remembers.
func TestRepeatedNames(t *testing.T) {
	c := Compile([]byte(forecast), limits)
	m := Compile([]byte(`{"type":"object","additionalProperties":{"type":"integer"}}`), limits)
	if c == nil || m == nil {
		t.Fatal("schemas not covered")
	}
	many := func(repeat bool) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range maxOtherNames + 2 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `":1`)
		}
		if repeat {
			b.WriteString(`,"k0":2`)
		}
		b.WriteString("}")
		return b.String()
	}
	for _, tc := range []struct {
		c    *Checker
		body string
		want bool
	}{
		{c, `{"city":"Paris","days":3,"units":"celsius"}`, true},
		{c, `{"city":"Paris","days":3,"units":"celsius","days":4}`, false},
		{c, `{"city":"x","city":"Paris","days":3,"units":"celsius"}`, false},
		{m, `{"a":1,"b":2}`, true},
		{m, `{"a":1,"b":2,"a":3}`, false},
		{m, many(false), false}, // more names than remembered: left to the full path
		{m, many(true), false},
	} {
		if got := tc.c.Valid([]byte(tc.body)); got != tc.want {
			t.Errorf("Valid(%.60s) = %v, want %v", tc.body, got, tc.want)
		}
	}
}
