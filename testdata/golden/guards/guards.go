// Package guards covers the guards that make a generated file fail to
// compile once the code it was generated from changes: struct types with
// embedded fields (local, pointer, from another package, through an
// alias), fields of types from other packages (generic too), unexported
// fields, a pointer input, flat parameters, and a struct of another
// package that cannot be written here and so has no guard.
package guards

import (
	"context"
	"time"

	"github.com/toolgen-go/toolgen/testdata/golden/guards/parts"
)

type Base struct {
	ID string `json:"id"`
}

type Extra struct {
	Note string `json:"note,omitempty"`
}

// Window is an alias: the field that embeds it is named Window.
type Window = parts.Pair[time.Time]

type Input struct {
	Base
	*Extra
	parts.Meta
	Window `json:"window"`

	Count  int              `json:"count" jsonschema:"minimum=1"`
	Range  parts.Pair[int]  `json:"range"`
	Stamp  parts.Stamp      `json:"stamp"`
	Labels map[string]Label `json:"labels,omitempty"`
	secret string
}

type Label struct {
	Text string `json:"text"`
}

type Saved struct {
	ID   string     `json:"id"`
	Size parts.Size `json:"size"`
}

// Save saves the input.
//
//toolgen:tool
func Save(ctx context.Context, in *Input) (Saved, error) {
	return Saved{ID: in.ID + in.secret, Size: in.Size}, nil
}

// Resize takes flat parameters.
//
//toolgen:tool
func Resize(width int, height parts.Size) (string, error) {
	return "ok", nil
}
