package marshaler

import (
	"context"
	"math/big"
)

//toolgen:schema {"type": "strin"}
type Misspelt string

//toolgen:schema {"type":
type Broken string

//toolgen:schema
type Empty string

type In struct {
	Amount *big.Int `json:"amount"`
}

//toolgen:tool
func Pay(ctx context.Context, in In) error { return nil }

//toolgen:tool
func Spell(ctx context.Context, m Misspelt) error { return nil }

//toolgen:tool
func Break(ctx context.Context, b Broken) error { return nil }

//toolgen:tool
func Nothing(ctx context.Context, e Empty) error { return nil }

// Span decodes "1h" but has no MarshalJSON: the rules cannot describe it
// from its fields, which are not what a call sends.
type Span struct{ D int64 }

func (s *Span) UnmarshalJSON(b []byte) error { return nil }

// Code decodes from a string and encodes as its fields.
type Code struct{ N int }

func (c *Code) UnmarshalText(b []byte) error { return nil }

type Timing struct {
	Span Span `json:"span"`
	Code Code `json:"code"`
}

//toolgen:tool
func Time(ctx context.Context, in Timing) error { return nil }

//toolgen:tool
func Decode(ctx context.Context, c Code) error { return nil }

// Report returns a Span: a result is encoded, by its fields (it has no
// MarshalJSON), so it needs no //toolgen:schema.
//
//toolgen:tool
func Report(ctx context.Context) (Span, error) { return Span{}, nil }
