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
