package decodetest

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// prefills are the values a handler may decode into: the zero value, and
// one with defaults in it (a handler prefills a tool's defaults before it
// decodes; slices and pointers set make a decoder leave the call to
// DecodeArgs, which decodes into what they point at).
var prefills = map[string]func(*Input){
	"zero": func(*Input) {},
	"defaults": func(in *Input) {
		in.S, in.I, in.F64, in.Name = "default", 7, 0.5, "n"
		in.Pt = Point{X: 1, Y: 2}
		in.In.Where.Y = 3
	},
	"set": func(in *Input) {
		in.Tags = Tags{"kept"}
		s := "kept"
		in.PS = &s
	},
}

// agreeFrom decodes b with a generated decoder and with
// runtime.DecodeArgs (encoding/json), into values prefill (nil: none)
// set: where the decoder takes b, both must decode it to the same value;
// where it does not, it must leave its value as it was. It reports
// whether the decoder took b.
func agreeFrom[T any](t *testing.T, b []byte, decode func([]byte, *T) bool, prefill func(*T)) bool {
	t.Helper()
	var fast, slow, before T
	if prefill != nil {
		prefill(&fast)
		prefill(&slow)
		prefill(&before)
	}
	if !decode(b, &fast) {
		if !reflect.DeepEqual(fast, before) {
			t.Fatalf("%q: the decoder did not take it, but changed its value: %+v", b, fast)
		}
		return false
	}
	if err := runtime.DecodeArgs(b, &slow); err != nil {
		t.Fatalf("%q: the decoder took it; DecodeArgs: %v", b, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: decoded\n%+v\nDecodeArgs\n%+v", b, fast, slow)
	}
	return true
}

// agree is agreeFrom for Every's decoder from each prefill; it reports
// whether the decoder took b from the zero value.
func agree(t *testing.T, b []byte) bool {
	t.Helper()
	took := false
	for name, prefill := range prefills {
		if agreeFrom(t, b, toolgenEveryDecode, prefill) && name == "zero" {
			took = true
		}
	}
	return took
}

// agreeFlat is agreeFrom for the flat-parameter tool's decoder.
func agreeFlat(t *testing.T, b []byte) bool {
	t.Helper()
	return agreeFrom(t, b, toolgenFlatDecode, nil)
}

// every is a call that gives every member.
const every = `{"s":"Zürich \"x\"\n","b":true,"i":-3,"i8":-128,"i16":300,"i32":-70000,"i64":9007199254740993,
	"u":3,"u8":255,"u32":4294967295,"u64":18446744073709551615,"f32":1.5,"f64":-2.5e-3,
	"level":4,"name":"n","tags":["a","b"],"ps":"p","pi":5,"pp":{"x":1,"y":2},
	"pt":{"y":9},"pts":[{"x":1},{"y":2}],"ppts":[{"x":3}],"grid":[[1,2],[],[3]],
	"in":{"n":7,"on":false,"where":{"x":0.25}},"Untagged":"u"}`

func TestDecoderTakes(t *testing.T) {
	for _, b := range []string{
		every,
		`{}`,
		` { "s" : "" , "tags" : [ ] , "grid" : [ [ ] ] } `,
		`{"pts":[],"ppts":[]}`,
		`{"in":{}}`,
	} {
		if !agree(t, []byte(b)) {
			t.Errorf("%s: not taken, want taken", b)
		}
	}
	for _, b := range []string{
		`{"word":"w","times":2,"weights":[0.5,1e-3],"where":{"x":1,"y":2}}`,
		`{}`,
	} {
		if !agreeFlat(t, []byte(b)) {
			t.Errorf("%s: not taken, want taken", b)
		}
	}
}

// The decoder leaves to encoding/json whatever its rules decide.
func TestDecoderLeaves(t *testing.T) {
	for _, b := range []string{
		``,
		`null`,
		`[]`,
		`{"s":null}`,
		`{"ps":null}`,
		`{"tags":null}`,
		`{"S":"case"}`,                // case-insensitive
		`{"unknown":1}`,               // ignored by encoding/json
		`{"Skipped":"x"}`,             // json:"-"
		`{"hidden":"x"}`,              // unexported
		`{"s":"a","s":"b"}`,           // twice
		`{"pt":{"x":1},"pt":{"y":2}}`, // twice: objects merge
		`{"s":"\u00e9"}`,              // \u
		`{"\u0073":"x"}`,              // an escaped key
		`{"i":1.0}`,                   // a whole number as a float
		`{"i":1e2}`,                   //
		`{"i8":128}`,                  // out of range
		`{"u":-1}`,                    //
		`{"f32":1e39}`,                //
		`{"s":5}`,                     // the wrong type
		`{"tags":"a"}`,                //
		`{"in":{"where":[]}}`,         //
		`{"s":"x"} {}`,                // more after it
		`{"s":"x"`,                    // cut short
		`{"s":"x",}`,                  //
	} {
		if agree(t, []byte(b)) {
			t.Errorf("%s: taken, want left to DecodeArgs", b)
		}
	}
	if agree(t, []byte(strings.Replace(every, `"s":`, `"s" :`, 1))) != true {
		t.Error("white space before a colon: not taken")
	}
}

// FuzzDecoder holds the generated decoders to runtime.DecodeArgs: whatever
// a decoder takes, DecodeArgs decodes to the same value.
func FuzzDecoder(f *testing.F) {
	for _, s := range []string{every, `{"pts":[{"x":1}],"grid":[[1]]}`, `{"i":1.0}`, `{"word":"w","weights":[1],"where":{"y":1}}`, `{"S":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		agree(t, b)
		agreeFlat(t, b)
	})
}

// encodes holds a generated encoder to json.Marshal: the same bytes, or,
// where the encoder refuses v, a Marshal that fails too.
func encodes(t *testing.T, v any, encode func(any) ([]byte, bool)) {
	t.Helper()
	got, ok := encode(v)
	want, err := json.Marshal(v)
	switch {
	case !ok && err == nil:
		t.Fatalf("%+v: the encoder refused it, Marshal wrote %s", v, want)
	case ok && err != nil:
		t.Fatalf("%+v: the encoder wrote %s, Marshal failed: %v", v, got, err)
	case ok && !bytes.Equal(got, want):
		t.Fatalf("%+v: the encoder wrote\n%s\nMarshal\n%s", v, got, want)
	}
}

func TestEncoder(t *testing.T) {
	var in Input
	if err := json.Unmarshal([]byte(every), &in); err != nil {
		t.Fatal(err)
	}
	encodes(t, in, toolgenEveryEncode)
	encodes(t, Input{}, toolgenEveryEncode) // nil slices and pointers: null
	in.S, in.Name = "<b>&\xff\u2028\x01", "\"q\""
	in.F32, in.F64 = 1e-7, 1e21
	in.Pts, in.Grid = []Point{}, [][]int{nil, {}}
	encodes(t, in, toolgenEveryEncode)
	in.F64 = math.NaN()
	encodes(t, in, toolgenEveryEncode) // refused by both
	in.F64, in.F32 = 0, float32(math.Inf(-1))
	encodes(t, in, toolgenEveryEncode)

	s := "s"
	for _, sp := range []*Sparse{
		nil,
		{},
		{Last: "only"},
		{S: "x", B: true, I: -1, U8: 255, F32: 0.1, F64: -2.5e-10, Tags: Tags{}, PS: &s, PP: &Point{}},
		{Tags: Tags{"a"}, PS: new(string), Pt: Point{X: 1}},
		{F64: math.Inf(1)},
	} {
		encodes(t, sp, toolgenThinEncode)
	}
	// A value of another type (a result type changed without running
	// toolgen again, which its guard stops) is refused.
	if _, ok := toolgenThinEncode(Sparse{}); ok {
		t.Error("toolgenThinEncode took a Sparse for a *Sparse")
	}
}

// FuzzEncoder holds the generated encoders to json.Marshal on whatever
// the fuzzer's JSON decodes to.
func FuzzEncoder(f *testing.F) {
	for _, s := range []string{every, `{"s":"<>&","f64":1e-9,"tags":[]}`, `{"pp":null,"last":"\u2028"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var in Input
		if json.Unmarshal(b, &in) == nil {
			encodes(t, in, toolgenEveryEncode)
		}
		var sp *Sparse
		if json.Unmarshal(b, &sp) == nil {
			encodes(t, sp, toolgenThinEncode)
		}
	})
}

// BenchmarkDecode and BenchmarkEncode measure what the generated code
// buys against encoding/json, on a call that gives every member:
//
//	go test ./internal/decodetest -run '^$' -bench 'Decode|Encode' -count 6 | benchstat -col /path -
func BenchmarkDecode(b *testing.B) {
	args := []byte(every)
	b.Run("path=generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in Input
			if !toolgenEveryDecode(args, &in) {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("path=DecodeArgs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in Input
			if err := runtime.DecodeArgs(args, &in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	var in Input
	if err := json.Unmarshal([]byte(every), &in); err != nil {
		b.Fatal(err)
	}
	b.Run("path=generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := toolgenEveryEncode(in); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("path=Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
