// Package codecs covers which inputs get a generated decoder and which
// results an encoder: their variables hide no name their types are
// written with, a package-level jsonread or jsonwrite moves the import
// aside, and json.Number, a type with a method of encoding/json/v2's and
// a type too large to write out get neither.
package codecs

import (
	"context"
	"encoding/json"
)

// The decoder's and encoder's variables' names, as types.
type (
	r string
	w int
	v []r
	e struct {
		S r `json:"s"`
	}
	d struct {
		P    *e  `json:"p"`
		V    v   `json:"v"`
		W    w   `json:"w"`
		Es   []e `json:"es"`
		Seen *r  `json:"seen"`
	}
	seen = r
)

// jsonread and jsonwrite are the generated file's imports' names.
var jsonread, jsonwrite = 1, 2

// Shadow has a decoder and an encoder.
//
//toolgen:tool
func Shadow(ctx context.Context, in d) (d, error) { return in, nil }

// Numbered holds a json.Number: a string that must be a number literal.
type Numbered struct {
	N json.Number `json:"n"`
}

// Number has neither.
//
//toolgen:tool
func Number(ctx context.Context, in Numbered) (Numbered, error) { return in, nil }

// Upper has the methods encoding/json/v2 calls (and v1 under
// GOEXPERIMENT=jsonv2), named so at least.
type Upper string

func (*Upper) UnmarshalJSONFrom(any) error { return nil }

func (Upper) MarshalJSONTo(any) error { return nil }

// Uppers holds one.
type Uppers struct {
	U Upper `json:"u"`
}

// Shout has neither.
//
//toolgen:tool
func Shout(ctx context.Context, in Uppers) (Uppers, error) { return in, nil }

// Three levels of four fields: more types than a plan writes out.
type (
	L1 struct{ A, B, C, D L2 }
	L2 struct{ A, B, C, D L3 }
	L3 struct{ A, B, C, D L4 }
	L4 struct{ X int }
)

// Wide has neither.
//
//toolgen:tool
func Wide(ctx context.Context, in L1) (L1, error) { return in, nil }

// Narrow, one level less, has both.
//
//toolgen:tool
func Narrow(ctx context.Context, in L2) (L2, error) { return in, nil }

// Ack has no fields: its encoder writes {} without reading the value.
type Ack struct{}

// Acks holds some.
type Acks struct {
	All []Ack `json:"all"`
}

// Confirm has a decoder and an encoder for an empty struct, and for a
// slice of them.
//
//toolgen:tool
func Confirm(ctx context.Context, in Acks) (Ack, error) { return Ack{}, nil }

// ConfirmAll writes a slice of empty structs.
//
//toolgen:tool
func ConfirmAll(ctx context.Context, in Acks) (Acks, error) { return in, nil }
