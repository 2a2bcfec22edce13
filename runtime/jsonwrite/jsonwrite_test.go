package jsonwrite

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// marshal is what encoding/json writes for v, with or without HTML
// escaping.
func marshal(t *testing.T, v any, html bool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func checkString(t *testing.T, s string) {
	t.Helper()
	for _, html := range []bool{true, false} {
		if got, want := string(AppendString(nil, s, html)), marshal(t, s, html); got != want {
			t.Fatalf("%q, html %v: wrote %s, encoding/json %s", s, html, got, want)
		}
	}
}

func checkFloat(t *testing.T, f float64) {
	t.Helper()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w := New(8)
		w.Float(f, 64)
		if _, ok := w.Bytes(); ok {
			t.Fatalf("%v: written, want a failure (encoding/json refuses it)", f)
		}
		return
	}
	if got, want := string(AppendFloat(nil, f, 64)), marshal(t, f, true); got != want {
		t.Fatalf("%v as float64: wrote %s, encoding/json %s", f, got, want)
	}
	if f32 := float32(f); !math.IsInf(float64(f32), 0) {
		if got, want := string(AppendFloat(nil, float64(f32), 32)), marshal(t, f32, true); got != want {
			t.Fatalf("%v as float32: wrote %s, encoding/json %s", f32, got, want)
		}
	}
}

func TestString(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "<b>&amp;</b>", "tab\tnew\nline\r\b\f\x00\x1f\x7f",
		"ünïcödé ✓", "bad \xff utf-8 \xc3", "line\u2028sep\u2029", `{"json":"text"}`} {
		checkString(t, s)
	}
}

func TestFloat(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 21.5, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 1.2345e22,
		123456789, 0.1, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, 1e39,
		math.NaN(), math.Inf(1), math.Inf(-1)} {
		checkFloat(t, f)
	}
}

func TestWriter(t *testing.T) {
	w := New(0)
	w.Object()
	w.Field("a")
	w.Array()
	w.Elem()
	w.Int(-3)
	w.Elem()
	w.Uint(math.MaxUint64)
	w.Elem()
	w.Array()
	w.EndArray()
	w.EndArray()
	w.Field("b")
	w.Bool(true)
	w.Field("c")
	w.Null()
	w.Field("d")
	w.Object()
	w.EndObject()
	w.Field("e")
	w.String("<x>")
	w.EndObject()
	got, ok := w.Bytes()
	const want = `{"a":[-3,18446744073709551615,[]],"b":true,"c":null,"d":{},"e":"\u003cx\u003e"}`
	if !ok || string(got) != want {
		t.Fatalf("wrote %s (%v), want %s", got, ok, want)
	}
}

// FuzzString and FuzzFloat hold the Writer to encoding/json byte for byte.
func FuzzString(f *testing.F) {
	f.Add("<a href=\"x\">\u2028\xff</a>\n")
	f.Fuzz(func(t *testing.T, s string) { checkString(t, s) })
}

func FuzzFloat(f *testing.F) {
	for _, x := range []float64{1e-7, 1e21, 21.5, -0.000123} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) { checkFloat(t, math.Float64frombits(bits)) })
}
