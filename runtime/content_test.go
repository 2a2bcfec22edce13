package runtime

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

func TestContentJSON(t *testing.T) {
	size := int64(42)
	cases := []struct {
		c    Content
		want string
	}{
		{Text(""), `{"type":"text","text":""}`},
		{Image([]byte{1, 2, 3}, "image/png"), `{"type":"image","data":"AQID","mimeType":"image/png"}`},
		{Audio(nil, "audio/wav"), `{"type":"audio","data":"","mimeType":"audio/wav"}`},
		{EmbeddedResource(ResourceContents{URI: "file:///a.txt", MIMEType: "text/plain", Text: "hi"}), `{"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"hi"}}`},
		{EmbeddedResource(ResourceContents{URI: "file:///a.bin", Blob: []byte{0xff}}), `{"type":"resource","resource":{"uri":"file:///a.bin","blob":"/w=="}}`},
		{ResourceLink("file:///x", "x"), `{"type":"resource_link","uri":"file:///x","name":"x"}`},
		{Content{Type: ContentResourceLink, URI: "u", Name: "n", Title: "t", Description: "d", MIMEType: "m", Size: &size}, `{"type":"resource_link","uri":"u","name":"n","title":"t","description":"d","mimeType":"m","size":42}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.c)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v: got %s, %v; want %s", c.c, b, err, c.want)
		}
		var back Content
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("round trip %s: %v", b, err)
		}
		if again, _ := json.Marshal(back); string(again) != c.want {
			t.Errorf("round trip of %s gave %s", c.want, again)
		}
	}
	for _, bad := range []Content{{Type: "video"}, {Type: ContentResource}} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("%+v marshalled without error", bad)
		}
	}
}

// A string result's text is the string itself, not its JSON; other values
// are sent as their JSON; null has no structured content.
func TestStructuredResult(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{"pong", `{"content":[{"type":"text","text":"pong"}],"structuredContent":"pong","isError":false}`},
		{"say \"hi\"\n", `{"content":[{"type":"text","text":"say \"hi\"\n"}],"structuredContent":"say \"hi\"\n","isError":false}`},
		{3, `{"content":[{"type":"text","text":"3"}],"structuredContent":3,"isError":false}`},
		{map[string]int{"a": 1}, `{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1},"isError":false}`},
		{[]int(nil), `{"content":[{"type":"text","text":"null"}],"isError":false}`},
	} {
		r, err := StructuredResult(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := httpkit.Marshal(r); string(got) != c.want {
			t.Errorf("%#v:\n got %s\nwant %s", c.v, got, c.want)
		}
	}
	if _, err := StructuredResult(func() {}); err == nil {
		t.Error("a func encoded")
	}
}

// Whole numbers written with a fraction or an exponent decode into integer
// fields, at any depth; other numbers are left as they are.
func TestDecodeArgsWholeNumbers(t *testing.T) {
	var v struct {
		N     int             `json:"n"`
		U     uint8           `json:"u"`
		F     float64         `json:"f"`
		List  []int64         `json:"list"`
		Inner struct{ M int } `json:"inner"`
		Raw   json.RawMessage `json:"raw"`
	}
	if err := DecodeArgs(json.RawMessage(`{"n":3.0,"u":2.5e1,"f":1.5,"list":[1,2.000,3e2],"inner":{"M":-4.0},"raw":7.0}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.N != 3 || v.U != 25 || v.F != 1.5 || len(v.List) != 3 || v.List[1] != 2 || v.List[2] != 300 || v.Inner.M != -4 || string(v.Raw) != "7" {
		t.Errorf("decoded %+v", v)
	}
	err := DecodeArgs(json.RawMessage(`{"n":3.5}`), &v)
	var ae *ArgumentError
	if !errors.As(err, &ae) {
		t.Fatalf("3.5 into an int: %v", err)
	}
	if is := ae.issue(); is.Path != "/n" || is.Message != "expected an integer that fits int, but got number 3.5" || is.Keyword != "type" {
		t.Errorf("issue %+v", is)
	}
}

// Users compare results in their tests, with reflect.DeepEqual or go-cmp
// (which refuses a struct with unexported fields unless told to skip
// them): Result and Content stay plain values, all of their fields
// exported, and StructuredResult's result equals the literal one would
// write for it.
func TestResultIsPlain(t *testing.T) {
	for _, v := range []any{Result{}, Content{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if f := rt.Field(i); !f.IsExported() {
				t.Errorf("%s has the unexported field %s", rt, f.Name)
			}
		}
	}
	got, err := StructuredResult(map[string]int{"n": 3})
	want := &Result{Content: []Content{Text(`{"n":3}`)}, StructuredContent: json.RawMessage(`{"n":3}`)}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("StructuredResult: %#v, %v; want %#v", got, err, want)
	}
}

// TestStructuredJSONAllocs: a structured result costs its result with its
// block, and its structured content's box; its text is b's bytes.
func TestStructuredJSONAllocs(t *testing.T) {
	b := []byte(`{"city":"Oslo","days":2}`)
	if n := testing.AllocsPerRun(100, func() { _, _ = StructuredJSON(b) }); n > 2 {
		t.Errorf("StructuredJSON makes %v allocations, want at most 2", n)
	}
	r, _ := StructuredJSON(b)
	if r.Content[0].Text != string(b) || string(r.StructuredContent.(json.RawMessage)) != string(b) {
		t.Errorf("StructuredJSON(%s) = %+v", b, r)
	}
}
