package runtime

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

type argInner struct {
	K string `json:"k"`
}

type ArgEmbedded struct {
	X int `json:"x"`
}

type argsOf struct {
	ArgEmbedded
	E     string              `json:"e"`
	Name  string              `json:"name"`
	Items []argInner          `json:"items"`
	ByKey map[string]argInner `json:"by_key"`
	Ptr   *argInner           `json:"ptr"`
	Raw   json.RawMessage     `json:"raw"`
	Any   any                 `json:"any"`
	City  string              // no tag: "city" is its name too, as always
}

// A name that matches a field only in another case is another property,
// at every depth: it neither sets the field nor replaces it.
func TestDecodeArgsExactNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want argsOf
	}{
		{`{"E":"zzz"}`, argsOf{}},
		{`{"e":"a","E":"zzz"}`, argsOf{E: "a"}},
		{`{"E":"zzz","e":"a"}`, argsOf{E: "a"}},
		{`{"NAME":5,"name":"n"}`, argsOf{Name: "n"}},
		{`{"\u0045":"zzz","e":"a"}`, argsOf{E: "a"}}, // "E" written with an escape
		{`{"\u0065":"a"}`, argsOf{E: "a"}},           // "e" so written: the field's own name
		{`{"X":1}`, argsOf{}},
		{`{"x":1}`, argsOf{ArgEmbedded: ArgEmbedded{X: 1}}},
		{`{"items":[{"K":"no"},{"k":"yes"}]}`, argsOf{Items: []argInner{{}, {K: "yes"}}}},
		{`{"by_key":{"a":{"K":"no","k":"yes"}}}`, argsOf{ByKey: map[string]argInner{"a": {K: "yes"}}}},
		{`{"ptr":{"K":"no"}}`, argsOf{Ptr: &argInner{}}},
		{`{"Items":[{"k":"x"}]}`, argsOf{}},
		{`{"city":"Oslo","E":1}`, argsOf{City: "Oslo"}},
		{`{"CITY":"Oslo"}`, argsOf{City: "Oslo"}},
		// Under a type that reads its own JSON, and under any, names
		// are what they are.
		{`{"raw":{"K":1},"any":{"K":2}}`, argsOf{Raw: json.RawMessage(`{"K":1}`), Any: map[string]any{"K": 2.0}}},
		// Numbers come through the rewrite as written.
		{`{"E":1,"any":12345678901234567890}`, argsOf{Any: 1.2345678901234567e19}},
		// So does every other member, byte for byte.
		{`{"e":"ok","raw":{"b":1, "a":"<x>"},"E":"z"}`, argsOf{E: "ok", Raw: json.RawMessage(`{"b":1, "a":"<x>"}`)}},
		{`{"by_key":{"a":{"K":"no","k":"<y>"}},"raw":[ 1 ,2]}`, argsOf{ByKey: map[string]argInner{"a": {K: "<y>"}}, Raw: json.RawMessage(`[ 1 ,2]`)}},
		// A name written with escapes: the whole rewritten, names as
		// they are read, HTML left alone.
		{`{"\u0045":"z","e":"a","raw":{"x":"<&>"}}`, argsOf{E: "a", Raw: json.RawMessage(`{"x":"<&>"}`)}},
	} {
		var got argsOf
		if err := DecodeArgs(json.RawMessage(tc.in), &got); err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.in, got, tc.want)
		}
	}
}

// Arguments with every name as written take the plain path: nothing is
// rewritten, and a name under a type that reads its own JSON is left as
// the client wrote it.
func TestDecodeArgsExactNamesUntouched(t *testing.T) {
	for _, in := range []string{
		`{}`, `{"e":"a","items":[{"k":"x"}],"by_key":{"K":{"k":"y"}}}`,
		`{"raw":{"K":1, "k" : 2}}`, `{"any":{"E":1}}`, `{"other":{"E":1}}`, `{"city":"Oslo"}`,
	} {
		if foldedName([]byte(in), reflect.TypeFor[argsOf]()) {
			t.Errorf("%s: a name in another case found", in)
		}
	}
	var got argsOf
	if err := DecodeArgs(json.RawMessage(`{"raw":{"K":1, "k" : 2}}`), &got); err != nil || string(got.Raw) != `{"K":1, "k" : 2}` {
		t.Errorf("raw: %s, %v", got.Raw, err)
	}
}

// A value the schema lets through but the Go type cannot take is refused
// in words, never in encoding/json's or time.Parse's.
func TestArgumentErrorsInWords(t *testing.T) {
	type in struct {
		S int       `json:"s,string,omitempty"`
		B []byte    `json:"b,omitempty"`
		T time.Time `json:"t,omitzero"`
	}
	tool := MustNewTool("x", "X.", func(context.Context, in) (string, error) { return "ok", nil })
	s := NewServer(ToolList{tool}, &Options{Logger: discard()})
	for args, want := range map[string]string{
		`{"s":"abc"}`:                  `a value sent as a string does not hold a value of its kind: "abc"`,
		`{"b":"!!!"}`:                  `a value is not base64-encoded data (at its byte 0)`,
		`{"t":"2020-01-01t00:00:00z"}`: `"2020-01-01t00:00:00z" is not a date-time as Go reads RFC 3339`,
	} {
		out := s.Invoke(context.Background(), &Call{Tool: "x", Arguments: json.RawMessage(args)})
		text := out.Result.ErrorText()
		if out.Status != StatusInvalid || !strings.Contains(text, want) || strings.Contains(text, "json:") || strings.Contains(text, "parsing time") {
			t.Errorf("%s: %s %q, want %q", args, out.Status, text, want)
		}
	}
}

// A record's value is read back as content blocks only when it is exactly
// what a result's blocks are written as; a structured array stays one.
func TestRecordedResultBlocks(t *testing.T) {
	for in, blocks := range map[string]bool{
		`[{"type":"image","data":"iVBO","mimeType":"image/png"},{"type":"text","text":"a"}]`: true,
		`[{"type":"text","text":"x","id":7}]`:                                                false,
		`[{"type":"row","n":1}]`:                                                             false,
		`[]`:                                                                                 false,
	} {
		r := recordedResult(json.RawMessage(in), false)
		if got := r.StructuredContent == nil; got != blocks {
			t.Errorf("%s: read as blocks %v, want %v (%+v)", in, got, blocks, r)
		}
	}
}

// ymd is a date of its own, parsed with time.Parse: its errors are its
// own words.
type ymd struct{ time.Time }

func (d *ymd) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	t, err := time.Parse("2006-01-02", s)
	d.Time = t
	return err
}

func TestOwnTypesKeepTheirWords(t *testing.T) {
	tool := Tool{Name: "d", InputSchema: json.RawMessage(`{"type":"object","properties":{"d":{"type":"string"}}}`),
		Handler: func(_ context.Context, args json.RawMessage) (*Result, error) {
			var in struct {
				D ymd `json:"d"`
			}
			if err := DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return TextResult("ok"), nil
		}}
	s := NewServer(ToolList{tool}, &Options{Logger: discard()})
	out := s.Invoke(context.Background(), &Call{Tool: "d", Arguments: json.RawMessage(`{"d":"2024-13-01"}`)})
	if text := out.Result.ErrorText(); !strings.Contains(text, "month out of range") || strings.Contains(text, "RFC 3339") {
		t.Errorf("%s %q", out.Status, text)
	}
}
