package jsonread

import (
	"encoding/json"
	"math"
	"testing"
)

// read reads b as one value of T with the Reader, as a generated decoder
// does, and reports whether the Reader took it.
func read[T any](b []byte, f func(r *Reader) T) (T, bool) {
	r := New(b)
	v := f(&r)
	return v, r.End()
}

// agrees checks what the Reader read from b against encoding/json: when
// the Reader takes b, encoding/json must read the same value from it.
func agrees[T comparable](t *testing.T, b []byte, f func(r *Reader) T) bool {
	t.Helper()
	got, ok := read(b, f)
	if !ok {
		return false
	}
	var want T
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%q: the Reader read %v; encoding/json: %v", b, got, err)
	}
	if got != want && !(isNaN(got) && isNaN(want)) {
		t.Fatalf("%q: the Reader read %v, encoding/json %v", b, got, want)
	}
	return true
}

func isNaN(v any) bool {
	f, ok := v.(float64)
	return ok && math.IsNaN(f)
}

// everyKind reads b as each kind a generated decoder reads, each held to
// encoding/json; it reports which took it.
func everyKind(t *testing.T, b []byte) map[string]bool {
	t.Helper()
	return map[string]bool{
		"string":  agrees(t, b, func(r *Reader) string { return r.String() }),
		"bool":    agrees(t, b, func(r *Reader) bool { return r.Bool() }),
		"int":     agrees(t, b, func(r *Reader) int { return int(r.Int(0)) }),
		"int8":    agrees(t, b, func(r *Reader) int8 { return int8(r.Int(8)) }),
		"int64":   agrees(t, b, func(r *Reader) int64 { return r.Int(64) }),
		"uint":    agrees(t, b, func(r *Reader) uint { return uint(r.Uint(0)) }),
		"uint16":  agrees(t, b, func(r *Reader) uint16 { return uint16(r.Uint(16)) }),
		"uint64":  agrees(t, b, func(r *Reader) uint64 { return r.Uint(64) }),
		"float32": agrees(t, b, func(r *Reader) float32 { return float32(r.Float(32)) }),
		"float64": agrees(t, b, func(r *Reader) float64 { return r.Float(64) }),
	}
}

func TestScalars(t *testing.T) {
	for _, c := range []struct {
		in    string
		takes []string // the kinds that take it; the rest go to encoding/json
	}{
		{`"Oslo"`, []string{"string"}},
		{` "Zürich" `, []string{"string"}},
		{`"a\"b\\c\/d\n\t\r\b\f"`, []string{"string"}},
		{`"say \"hi\" ünïcödé"`, []string{"string"}},
		{`""`, []string{"string"}},
		{`"\u00e9"`, nil},           // \u: encoding/json's
		{`"a` + "\xff" + `"`, nil},  // invalid UTF-8: encoding/json's U+FFFD
		{`"a` + "\n" + `"`, nil},    // a control character: not JSON
		{`"a\x"`, nil},              // not an escape
		{`"abc`, nil},               // unterminated
		{`true`, []string{"bool"}},  //
		{`false`, []string{"bool"}}, //
		{`truex`, nil},              //
		{`null`, nil},               // null is encoding/json's
		{`0`, []string{"int", "int8", "int64", "uint", "uint16", "uint64", "float32", "float64"}},
		{`-0`, []string{"int", "int8", "int64", "float32", "float64"}},
		{`127`, []string{"int", "int8", "int64", "uint", "uint16", "uint64", "float32", "float64"}},
		{`128`, []string{"int", "int64", "uint", "uint16", "uint64", "float32", "float64"}},
		{`-128`, []string{"int", "int8", "int64", "float32", "float64"}},
		{`-129`, []string{"int", "int64", "float32", "float64"}},
		{`65535`, []string{"int", "int64", "uint", "uint16", "uint64", "float32", "float64"}},
		{`65536`, []string{"int", "int64", "uint", "uint64", "float32", "float64"}},
		{`9223372036854775807`, []string{"int", "int64", "uint", "uint64", "float32", "float64"}},
		{`-9223372036854775808`, []string{"int", "int64", "float32", "float64"}},
		{`9223372036854775808`, []string{"uint", "uint64", "float32", "float64"}},
		{`18446744073709551615`, []string{"uint", "uint64", "float32", "float64"}},
		{`18446744073709551616`, []string{"float32", "float64"}},
		{`1.0`, []string{"float32", "float64"}}, // whole, but DecodeArgs's rule for integers
		{`1e3`, []string{"float32", "float64"}},
		{`-2.5E-3`, []string{"float32", "float64"}},
		{`1e400`, nil}, // out of range
		{`1e39`, []string{"float64"}},
		{`01`, nil},
		{`1.`, nil},
		{`.5`, nil},
		{`-`, nil},
		{`+1`, nil},
		{`1 2`, nil},
		{``, nil},
	} {
		took := everyKind(t, []byte(c.in))
		want := map[string]bool{}
		for _, k := range c.takes {
			want[k] = true
		}
		for k, got := range took {
			if got != want[k] {
				t.Errorf("%q as %s: taken %v, want %v", c.in, k, got, want[k])
			}
		}
	}
}

func TestObjectAndArray(t *testing.T) {
	type pair struct {
		A string
		N []int64
	}
	decode := func(b []byte) (pair, bool) {
		var p pair
		var seen uint64
		r := New(b)
		r.Object()
		for r.Member() {
			switch string(r.Key()) {
			case "a":
				r.Once(&seen, 0)
				p.A = r.String()
			case "n":
				r.Once(&seen, 1)
				p.N = []int64{}
				r.Array()
				for r.Item() {
					p.N = append(p.N, r.Int(64))
				}
			default:
				r.Fail()
			}
		}
		return p, r.End()
	}
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{"a":"x","n":[1,2,3]}`, true},
		{` { "a" : "x" , "n" : [ ] } `, true},
		{`{}`, true},
		{`{"n":[1,]}`, false},
		{`{"a":"x",}`, false},
		{`{"a":"x"]`, false},
		{`{"a":"x"} x`, false},
		{`{"a":"x","a":"y"}`, false}, // twice: encoding/json's rules
		{`{"A":"x"}`, false},         // encoding/json's case-insensitive match
		{`{"b":1}`, false},           // unknown: encoding/json ignores it
		{`{"a\u0000":"x"}`, false},
		{`{"a" "x"}`, false},
		{`{"n":[1 2]}`, false},
		{`{"n":{}}`, false},
		{`[]`, false},
		{`{"a":"x"`, false},
	} {
		got, ok := decode([]byte(c.in))
		if ok != c.ok {
			t.Errorf("%s: taken %v, want %v", c.in, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		var want pair
		want.N = nil
		if err := json.Unmarshal([]byte(c.in), &struct {
			A *string
			N *[]int64
		}{&want.A, &want.N}); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got.A != want.A || len(got.N) != len(want.N) || (got.N == nil) != (want.N == nil) {
			t.Errorf("%s: read %+v, encoding/json %+v", c.in, got, want)
		}
		for i := range got.N {
			if got.N[i] != want.N[i] {
				t.Errorf("%s: read %+v, encoding/json %+v", c.in, got, want)
			}
		}
	}
}

// FuzzScalars holds every scalar reader to encoding/json: whatever the
// Reader takes, encoding/json reads as the same value.
func FuzzScalars(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"é"`, `-12`, `255`, `1.5e-7`, `true`, `18446744073709551615`, `"\u0041"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { everyKind(t, b) })
}
