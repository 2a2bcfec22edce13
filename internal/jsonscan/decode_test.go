package jsonscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// decodeStd is what Decode must give: encoding/json's decoding of b into
// an any, numbers as json.Number.
func decodeStd(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// checkDecode holds Decode to encoding/json: what it reads is the value
// encoding/json decodes from the same bytes, and it reads every document
// json.Valid accepts, up to its end.
func checkDecode(t *testing.T, b []byte) {
	t.Helper()
	v, n, ok := Decode(b, nil)
	if ok {
		want, err := decodeStd(b[:n])
		if err != nil || !reflect.DeepEqual(v, want) {
			t.Errorf("Decode(%q) = %#v (to %d); encoding/json reads %#v, %v", b, v, n, want, err)
		}
	}
	if json.Valid(b) && depth(b) < maxDecodeDepth && (!ok || Space(b, n) != len(b)) {
		t.Errorf("Decode(%q) = %v, to %d of %d; want the whole valid document", b, ok, n, len(b))
	}
}

func TestDecode(t *testing.T) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"integer","minimum":-1.5e3}},"required":["a"]}`,
		` [1, -0, 0.5, 1E+2, true, false, null, "x", {}, []] `,
		`{"a":1,"a":2}`,
		`"\u00e9\n\"\\\/"`, `"é \xff \xe2\x80"`, `"\ud800"`,
		`{"k\u0041":[{"b":{}}]}`,
		`01`, `1 2`, `{"a":1}x`, `-`, `1.`, `1e`, `"\x01"`, `"\q"`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `tru`, `nul`, ``, ` `,
		strings.Repeat("[", maxDecodeDepth) + strings.Repeat("]", maxDecodeDepth),
		strings.Repeat("[", maxDecodeDepth-1) + strings.Repeat("]", maxDecodeDepth-1),
	} {
		checkDecode(t, []byte(s))
	}
	if _, _, ok := Decode([]byte(strings.Repeat("[", maxDecodeDepth+1)+strings.Repeat("]", maxDecodeDepth+1)), nil); ok {
		t.Error("Decode read a document nested deeper than encoding/json reads")
	}
}

// TestDecodeObjects: with object, every object is made from its members
// in order, a key given twice included.
func TestDecodeObjects(t *testing.T) {
	type member struct {
		key string
		val any
	}
	object := func(keys []string, vals []any) any {
		var ms []member
		for i, k := range keys {
			ms = append(ms, member{k, vals[i]})
		}
		return ms
	}
	v, _, ok := Decode([]byte(`{"b":1,"a":{"c":[{}],"d":null},"b":"x"}`), object)
	want := []member{{"b", json.Number("1")}, {"a", []member{{"c", []any{[]member(nil)}}, {"d", nil}}}, {"b", "x"}}
	if !ok || !reflect.DeepEqual(v, want) {
		t.Errorf("got %#v, want %#v", v, want)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,"b",{"c":null}]}`, `"\u00e9"`, `01`, `{"a":1,"a":2}`, "\"\xff\"", ` 1e5 x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkDecode(t, b) })
}
