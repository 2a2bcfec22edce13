// Package results covers each result form: a string is one text content,
// runtime.Content, []runtime.Content and *runtime.Result are used as they
// are, and any other type is structured content with an output schema.
package results

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
)

// Mood is a string type: still text.
type Mood string

type Out struct {
	OK bool `json:"ok"`
}

//toolgen:tool description="A string."
func Text() string { return "plain text" }

//toolgen:tool description="A named string type."
func Named() Mood { return "happy" }

//toolgen:tool description="One content block."
func Image() runtime.Content { return runtime.Image([]byte{0x89, 'P', 'N', 'G'}, "image/png") }

//toolgen:tool description="Several content blocks."
func Blocks() []runtime.Content {
	return []runtime.Content{runtime.Text("a"), runtime.ResourceLink("file:///b", "b")}
}

//toolgen:tool description="A whole result."
func Whole(ctx context.Context) (*runtime.Result, error) {
	return &runtime.Result{Content: []runtime.Content{runtime.Text("traced")}, TraceID: "t-1"}, nil
}

//toolgen:tool description="A struct: structured."
func Struct() Out { return Out{OK: true} }

//toolgen:tool description="A pointer to a struct: structured."
func Pointer() *Out { return &Out{} }

//toolgen:tool description="A number: structured, with a non-object output schema."
func Number() float64 { return 3.5 }

//toolgen:tool description="A map: structured."
func Map() map[string]int { return map[string]int{"a": 1} }

//toolgen:tool description="Anything: structured, any output."
func Anything() any { return []any{1, "two"} }
