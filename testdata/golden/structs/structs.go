// Package structs covers the struct rules: field names and skipping as
// encoding/json does, embedded structs, optional and required fields,
// nullable, and ,string.
package structs

import "context"

type Base struct {
	ID      string `json:"id"`
	Created string `json:"created,omitempty"`
}

type Audit struct {
	By string `json:"by"`
}

type audited struct {
	Reason string `json:"reason,omitempty"`
}

type Labels struct {
	Primary string `json:"primary"`
}

type A struct{ Dup string }
type B struct{ Dup string }

type TaggedDup struct {
	Name string `json:"name"`
}

// Input's embedded structs: Base and *Audit are flattened; audited is
// unexported but its exported fields count; Labels is tagged, so it is one
// property; A.Dup and B.Dup clash at the same depth and are both dropped;
// TaggedDup's "name" does not clash with Name, JSON names being
// case-sensitive.
type Input struct {
	Base
	*Audit
	audited
	Labels `json:"labels"`
	A
	B
	TaggedDup
	Name string

	Title    string `json:"title"`
	Skipped  string `json:"-"`
	Dash     string `json:"-,"`
	hidden   string
	Count    int     `json:"count,string"`
	Enabled  bool    `json:"enabled,omitempty,string"`
	Optional string  `json:"optional,omitempty"`
	Zero     float64 `json:"zero,omitzero"`
	Ptr      *int    `json:"ptr"`
	Forced   *int    `json:"forced" jsonschema:"required"`
	Loose    string  `json:"loose" jsonschema:"optional"`
	Nullable *string `json:"nullable" jsonschema:"nullable"`
	NullObj  *Labels `json:"null_obj,omitempty" jsonschema:"nullable"`
	Ignored  string  `json:"ignored" jsonschema:"-"`
	NoTag    string
}

var _ = Input{}.hidden

// Inspect echoes the input.
//
//toolgen:tool
func Inspect(ctx context.Context, in *Input) (*Input, error) {
	return in, nil
}

// Empty takes no arguments at all.
//
//toolgen:tool
func Empty(ctx context.Context, in struct{}) (string, error) {
	return "empty", nil
}
