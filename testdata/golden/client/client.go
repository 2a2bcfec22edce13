// Package client covers toolgen -client: a typed method for every shape
// of tool (struct and flat inputs, no input, structured, wrapped, text and
// content results, no result), and methods of two types with one name.
package client

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Shape is a kind of figure.
//
//toolgen:enum
type Shape string

const (
	Square Shape = "square"
	Circle Shape = "circle"
)

// FigureInput describes a figure.
type FigureInput struct {
	// Kind of figure.
	Kind Shape `json:"kind"`
	// Size of the figure, in centimetres.
	Size float64 `json:"size" jsonschema:"minimum=0,maximum=100"`
}

// Figure is a figure's measurements.
type Figure struct {
	Kind Shape   `json:"kind"`
	Area float64 `json:"area"`
}

// Measure measures a figure.
//
// A figure of size 13 is bad luck: the tool refuses it.
//
//toolgen:tool
func Measure(ctx context.Context, in FigureInput) (*Figure, error) {
	if in.Size == 13 {
		return nil, &runtime.ToolError{Message: "Size 13 is bad luck."}
	}
	area := in.Size * in.Size
	if in.Kind == Circle {
		area = 3 * in.Size * in.Size / 4
	}
	return &Figure{Kind: in.Kind, Area: area}, nil
}

// Scale scales a figure; its input is a pointer, its result a value.
//
//toolgen:tool
func Scale(in *FigureInput) (Figure, error) {
	return Figure{Kind: in.Kind, Area: in.Size * 2}, nil
}

// Words splits a text into words.
//
//toolgen:tool
//toolgen:param text description="The text to split."
func Words(text string) ([]string, error) { return strings.Fields(text), nil }

// Count counts. Its parameters' names are those a method body uses. (The
// integers are int32s, whose schemas keep their bounds.)
//
//toolgen:tool
//toolgen:param c description="What to count."
//toolgen:param err description="How many."
//toolgen:param json description="Whether to shout."
func Count(ctx context.Context, c string, err int32, json bool) (int32, error) {
	return int32(len(c)) * err, nil
}

// Echo says a text back.
//
//toolgen:tool
//toolgen:param text description="What to say."
func Echo(text string) string { return text }

// Pick picks a shape by name.
//
//toolgen:tool
//toolgen:param name description="The shape's name."
func Pick(name string) (Shape, error) {
	if name != string(Square) && name != string(Circle) {
		return "", fmt.Errorf("no shape %q", name)
	}
	return Shape(name), nil
}

// Banner draws a banner as text content.
//
//toolgen:tool
func Banner(ctx context.Context) (runtime.Content, error) {
	return runtime.Text("*** banner ***"), nil
}

// Reset resets nothing; it fails when told to.
//
//toolgen:tool
//toolgen:param fail description="Whether to fail."
func Reset(ctx context.Context, fail bool) error {
	if fail {
		return errors.New("reset failed")
	}
	return nil
}

// Raw returns a result of its own making.
//
//toolgen:tool
func Raw() (*runtime.Result, error) {
	return runtime.ContentResult(runtime.Text("a"), runtime.Text("b")), nil
}

// Store keeps a count.
type Store struct{ n int32 }

// Add adds to the count of a Store.
//
//toolgen:tool name=store_add
//toolgen:param n description="How much to add."
func (s *Store) Add(n int32) int32 { s.n += n; return s.n }

// Bag keeps a count too.
type Bag struct{ n int32 }

// Add adds to the count of a Bag.
//
//toolgen:tool name=bag_add
//toolgen:param n description="How much to add."
func (b *Bag) Add(n int32) int32 { b.n += n; return b.n }

// Convert converts an amount at a rate, with a note.
//
//toolgen:tool
//toolgen:param amount description="The amount."
//toolgen:param rate description="The rate." default=2
//toolgen:param unit description="The unit of the result." enum=EUR enum=USD default=EUR
//toolgen:param note description="A note." optional
//toolgen:param tags description="Tags." optional
//toolgen:param origin description="Where the amount comes from." optional
func Convert(amount float64, rate float64, unit string, note string, tags []string, origin *Figure) (string, error) {
	return fmt.Sprintf("%g %s at %g (%q %v) %v", amount*rate, unit, rate, note, tags, origin != nil), nil
}

// Greeting says hello, in a language that has a default: all of its
// parameters may be left out.
//
//toolgen:tool
//toolgen:param lang description="The language." default=en
func Greeting(lang string) string {
	if lang == "fr" {
		return "bonjour"
	}
	return "hello " + lang
}
