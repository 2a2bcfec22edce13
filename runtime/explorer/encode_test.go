package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// checkEncoding fails when encodeCallResponse and encoding/json disagree on
// resp: different bytes, or an error from one only.
func checkEncoding(t *testing.T, resp callResponse) {
	t.Helper()
	var fast, slow bytes.Buffer
	ferr := encodeCallResponse(&fast, resp)
	serr := httpkit.EncodeValue(&slow, resp)
	if (ferr != nil) != (serr != nil) {
		t.Fatalf("errors differ: fast %v, encoding/json %v", ferr, serr)
	}
	if serr == nil && fast.String() != slow.String() {
		t.Fatalf("bytes differ:\n fast %s\n json %s", fast.String(), slow.String())
	}
}

func TestEncodeCallResponse(t *testing.T) {
	size := int64(7)
	structured, _ := runtime.StructuredResult(map[string]any{"city": "Zürich <&>", "n": 3})
	// What a tool put in the place of StructuredResult's bytes is checked
	// and compacted as any other structured content.
	replaced, _ := runtime.StructuredResult(map[string]any{"n": 3})
	replaced.StructuredContent = json.RawMessage("{ \"n\" : 4 }")
	cut, _ := runtime.StructuredResult(map[string]any{"n": 3})
	cut.StructuredContent = cut.StructuredContent.(json.RawMessage)[:3]
	for _, tc := range []struct {
		name string
		resp callResponse
	}{
		{"text", callResponse{Result: runtime.TextResult("sunny")}},
		{"empty text", callResponse{Result: runtime.TextResult("")}},
		{"escapes", callResponse{Result: runtime.TextResult("a\"b\\c\n\t\r\b\f\x00\x1f\x7f <b>&amp;</b>")}},
		{"unicode", callResponse{Result: runtime.TextResult("Zürich 東京 🌧 \u2028 \u2029")}},
		{"invalid UTF-8", callResponse{Result: runtime.TextResult("bad \xff\xfe byte \xe2\x80")}},
		{"structured", callResponse{Result: structured}},
		{"structured, replaced", callResponse{Result: replaced}},
		{"structured, cut short", callResponse{Result: cut}},
		{"structured with spaces", callResponse{Result: &runtime.Result{Content: []runtime.Content{}, StructuredContent: json.RawMessage("{ \"a\" : [1, 2],\n \"b\":\"<x>\" }")}}},
		{"structured map", callResponse{Result: &runtime.Result{Content: []runtime.Content{runtime.Text("x")}, StructuredContent: map[string]any{"result": json.RawMessage(`"a"`), "b": []int{1}}}}},
		{"structured not JSON", callResponse{Result: &runtime.Result{Content: []runtime.Content{}, StructuredContent: json.RawMessage(`{nope`)}}},
		{"nil raw", callResponse{Result: &runtime.Result{Content: []runtime.Content{}, StructuredContent: json.RawMessage(nil)}}},
		{"error", callResponse{Result: runtime.ErrorResult("Tool not found: x")}},
		{"nil content", callResponse{Result: &runtime.Result{}}},
		{"nil result", callResponse{}},
		{"trace", callResponse{Result: runtime.TextResult("ok"), Meta: &callMeta{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736"}}},
		{"trace to escape", callResponse{Result: runtime.TextResult("ok"), Meta: &callMeta{TraceID: "\"<\n"}}},
		{"other blocks", callResponse{Result: runtime.ContentResult(
			runtime.Image([]byte{1, 2, 3}, "image/png"), runtime.Audio(nil, "audio/wav"),
			runtime.EmbeddedResource(runtime.ResourceContents{URI: "file:///a", Text: "<t>"}),
			runtime.Content{Type: runtime.ContentResourceLink, URI: "https://x", Name: "n", Size: &size},
			runtime.Text("after"),
		)}},
		{"bad block", callResponse{Result: runtime.ContentResult(runtime.Content{Type: "video"})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkEncoding(t, tc.resp)
			// As the explorer encodes a call's answer: with what the
			// pipeline (history) found of the same bytes.
			if tc.resp.Result != nil {
				res := tc.resp.Result
				srv := runtime.NewServer(runtime.ToolList{{Name: "t", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { return res, nil }}}, &runtime.Options{Logger: slog.New(slog.DiscardHandler)})
				out := srv.Invoke(context.Background(), &runtime.Call{Tool: "t"})
				checkEncoding(t, callResponse{Result: out.Result, Meta: tc.resp.Meta, out: out})
			}
		})
	}
}

func FuzzEncodeCallResponse(f *testing.F) {
	f.Add("sunny", []byte(`{"a":1}`), false, "")
	f.Add("a\"\\\n\x00\u2028\xff", []byte(" [1, 2 ] "), true, "t\x01")
	f.Add("", []byte(`nope`), false, "<&>")
	f.Fuzz(func(t *testing.T, text string, raw []byte, isError bool, trace string) {
		r := &runtime.Result{Content: []runtime.Content{runtime.Text(text), runtime.Text(trace)}, IsError: isError}
		if len(raw) > 0 {
			r.StructuredContent = json.RawMessage(raw)
		}
		resp := callResponse{Result: r}
		if trace != "" {
			resp.Meta = &callMeta{TraceID: trace}
		}
		checkEncoding(t, resp)
	})
}

// encodeString escapes as encoding/json does, HTML escaping off.
func FuzzEncodeString(f *testing.F) {
	for _, s := range []string{"", "plain", `{"city":"Paris","days":3}`, "a\"\\\n\r\t\b\f\x00\x01\x1f\x7f", "<&>", "Zürich 東京 🌧", "\u2028\u2029", "\xff\xfe\xe2\x80", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var fast, slow bytes.Buffer
		httpkit.EncodeString(&fast, s)
		if err := httpkit.EncodeValue(&slow, s); err != nil {
			t.Fatal(err)
		}
		if fast.String() != slow.String() {
			t.Fatalf("%q:\n fast %s\n json %s", s, fast.String(), slow.String())
		}
	})
}

// BenchmarkEncodeCallResponse compares encodeCallResponse with
// encoding/json on the forecast tool's answer (a text block holding the
// structured result, and the structured result), what every REST call of
// the benchmarks encodes: what the hand-written encoder buys, for
// BENCHMARKS.md.
func BenchmarkEncodeCallResponse(b *testing.B) {
	out := struct {
		City    string  `json:"city"`
		Days    int     `json:"days"`
		High    float64 `json:"high"`
		Summary string  `json:"summary"`
	}{"Paris", 3, 21.5, "sunny in celsius"}
	res, err := runtime.StructuredResult(out)
	if err != nil {
		b.Fatal(err)
	}
	resp := callResponse{Result: res}
	for _, p := range []struct {
		name   string
		encode func(*bytes.Buffer, callResponse) error
	}{
		{"hand", encodeCallResponse},
		{"json", func(buf *bytes.Buffer, r callResponse) error { return httpkit.EncodeValue(buf, r) }},
	} {
		b.Run("path="+p.name, func(b *testing.B) {
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := p.encode(&buf, resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
