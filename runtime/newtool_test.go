package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/internal/compile"
)

type greetLevel string

func (greetLevel) ToolgenEnum() []any { return []any{"quiet", "normal", "loud"} }

type greetIn struct {
	Name  string     `json:"name" jsonschema:"minLength=1"`
	Level greetLevel `json:"level,omitempty"`
	Times int        `json:"times,omitempty" jsonschema:"default=1,minimum=1"`
}

type greeting struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

func greet(_ context.Context, in greetIn) (greeting, error) {
	if in.Name == "error" {
		return greeting{}, errors.New("cannot greet an error")
	}
	return greeting{Text: strings.Repeat("hi "+in.Name+" ", max(in.Times, 1)), Count: in.Times}, nil
}

func TestNewTool(t *testing.T) {
	tool, err := NewTool("greet", "Greets someone.", greet)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"type":"string","minLength":1},"level":{"type":"string","enum":["quiet","normal","loud"]},"times":{"type":"integer","minimum":1,"default":1}},"required":["name"],"additionalProperties":false}`; string(tool.InputSchema) != want {
		t.Errorf("input schema\n got %s\nwant %s", tool.InputSchema, want)
	}
	if want := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"text":{"type":"string"},"count":{"type":"integer"}},"required":["text","count"],"additionalProperties":false}`; string(tool.OutputSchema) != want {
		t.Errorf("output schema\n got %s\nwant %s", tool.OutputSchema, want)
	}
	if want := `greet(name: string, level?: "quiet" | "normal" | "loud", times?: integer = 1) -> {text: string, count: integer}`; tool.Signature != want {
		t.Errorf("signature %s", tool.Signature)
	}

	// Served like any tool: validated, decoded, converted.
	s := NewServer(ToolList{tool}, &Options{AllowExecute: true, Logger: slog.New(slog.DiscardHandler)})
	do(t, s, "POST", "/tools/greet/call", `{"name":"Ada","times":2}`).is(t, 200,
		`{"content":[{"type":"text","text":"{\"text\":\"hi Ada hi Ada \",\"count\":2}"}],"structuredContent":{"text":"hi Ada hi Ada ","count":2},"isError":false}`)
	do(t, s, "POST", "/tools/greet/call", `{"name":"Ada","level":"shout"}`).is(t, 400,
		`{"content":[{"type":"text","text":"invalid arguments:\n- /level: value must be one of \"quiet\", \"normal\", \"loud\" (enum)"}],"isError":true}`)
	do(t, s, "POST", "/tools/greet/call", `{"name":"error"}`).is(t, 500,
		`{"content":[{"type":"text","text":"cannot greet an error"}],"isError":true}`)
}

type pointIn struct {
	X, Y float64
}

func TestNewToolResults(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		tool Tool
		sig  string
		want string
	}{
		{MustNewTool("text", "", func(_ context.Context, p *pointIn) (string, error) { return "at x", nil }),
			"text(X: number, Y: number) -> string", `{"content":[{"type":"text","text":"at x"}],"isError":false}`},
		{MustNewTool("named", "", func(_ context.Context, p pointIn) (greetLevel, error) { return "loud", nil }),
			"named(X: number, Y: number) -> string", `{"content":[{"type":"text","text":"loud"}],"isError":false}`},
		{MustNewTool("image", "", func(_ context.Context, p pointIn) (Content, error) { return Image([]byte{1}, "image/png"), nil }),
			"image(X: number, Y: number) -> content", `{"content":[{"type":"image","data":"AQ==","mimeType":"image/png"}],"isError":false}`},
		{MustNewTool("blocks", "", func(_ context.Context, p pointIn) ([]Content, error) { return []Content{Text("a"), Text("b")}, nil }),
			"blocks(X: number, Y: number) -> content", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"isError":false}`},
		{MustNewTool("result", "", func(_ context.Context, p pointIn) (*Result, error) { return ErrorResult("soft"), nil }),
			"result(X: number, Y: number) -> content", `{"content":[{"type":"text","text":"soft"}],"isError":true}`},
		{MustNewTool("list", "", func(_ context.Context, p pointIn) ([]int, error) { return []int{1, 2}, nil }),
			"list(X: number, Y: number) -> integer[]", `{"content":[{"type":"text","text":"[1,2]"}],"structuredContent":[1,2],"isError":false}`},
	}
	for _, c := range cases {
		if c.tool.Signature != c.sig {
			t.Errorf("%s: signature %q, want %q", c.tool.Name, c.tool.Signature, c.sig)
		}
		res, err := c.tool.Handler(ctx, json.RawMessage(`{"X":1,"Y":2}`))
		if err != nil {
			t.Fatalf("%s: %v", c.tool.Name, err)
		}
		if got, _ := json.Marshal(res); string(got) != c.want {
			t.Errorf("%s: %s, want %s", c.tool.Name, got, c.want)
		}
	}
}

func TestNewToolErrors(t *testing.T) {
	if _, err := NewTool("has space", "", greet); err == nil {
		t.Error("invalid name accepted")
	}
	if _, err := NewTool("scalar", "", func(context.Context, string) (string, error) { return "", nil }); err == nil || !strings.Contains(err.Error(), "must be a struct") {
		t.Errorf("non-struct input: %v", err)
	}
	if _, err := NewTool("value", "", func(context.Context, pointIn) (Result, error) { return Result{}, nil }); err == nil || !strings.Contains(err.Error(), "*runtime.Result") {
		t.Errorf("Result value: %v", err)
	}
	type bad struct{ C chan int }
	if _, err := NewTool("chan", "", func(context.Context, bad) (string, error) { return "", nil }); err == nil || !strings.Contains(err.Error(), "C: unsupported type chan int") {
		t.Errorf("chan field: %v", err)
	}
	// A type that decodes itself is not described by its fields, which
	// no call sends.
	type timed struct {
		Span span `json:"span"`
	}
	if _, err := NewTool("span", "", func(context.Context, timed) (string, error) { return "", nil }); err == nil || !strings.Contains(err.Error(), "its JSON form is its own") {
		t.Errorf("a field that decodes itself: %v", err)
	}
	// A result is encoded: by its fields.
	if _, err := NewTool("spanned", "", func(context.Context, pointIn) (timed, error) { return timed{}, nil }); err != nil {
		t.Errorf("a result field that decodes itself: %v", err)
	}
	if _, err := NewTool[pointIn, string]("nil", "", nil); err == nil {
		t.Error("nil function accepted")
	}
	defer func() {
		if recover() == nil {
			t.Error("MustNewTool did not panic")
		}
	}()
	MustNewTool("has space", "", greet)
}

// span decodes "1h" itself, and encodes as its field.
type span struct{ D int64 }

func (s *span) UnmarshalJSON([]byte) error { return nil }

type withNils struct {
	Tags  []string          `json:"tags"`
	Map   map[string]*int   `json:"map"`
	Ptr   *pointIn          `json:"ptr"`
	Items []*pointIn        `json:"items"`
	Blob  []byte            `json:"blob"`
	Skip  []string          `json:"skip,omitempty"`
	Deep  map[string][]bool `json:"deep"`
}

// A result validates against the tool's own output schema even where Go
// writes null (nil slices, maps and pointers), as clients that check
// structured content require; and a nil result has no structured content.
func TestOutputSchemaAllowsNulls(t *testing.T) {
	tool := MustNewTool("nils", "", func(_ context.Context, in pointIn) (*withNils, error) {
		if in.X == 0 {
			return nil, nil
		}
		return &withNils{Map: map[string]*int{"a": nil}, Items: []*pointIn{nil, {X: 1}}, Deep: map[string][]bool{"x": nil}}, nil
	})
	schema, err := compile.Schema(tool.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Handler(context.Background(), json.RawMessage(`{"X":1,"Y":0}`))
	if err != nil {
		t.Fatal(err)
	}
	v, _, _ := parseArgs(res.StructuredContent.(json.RawMessage))
	if err := schema.Validate(v); err != nil {
		t.Errorf("the result %s does not validate against its output schema %s: %v", res.StructuredContent, tool.OutputSchema, err)
	}
	res, err = tool.Handler(context.Background(), json.RawMessage(`{"X":0,"Y":0}`))
	if err != nil || res.StructuredContent != nil || res.Content[0].Text != "null" {
		t.Errorf("nil result: %+v %v", res, err)
	}
}
