package enum

import "context"

//toolgen:enum
type Shape struct{ Sides int }

//toolgen:enum
type Lonely string

//toolgen:enum extra
type Argued string

const A Argued = "a"

//toolgen:tool
func Draw(ctx context.Context, s Shape) error { return nil }

//toolgen:tool
func Alone(ctx context.Context, l Lonely) error { return nil }

//toolgen:tool
func Argue(ctx context.Context, a Argued) error { return nil }

type Narrowed struct {
	// A is narrowed to a value Argued does not have.
	A Argued `json:"a" jsonschema:"enum=b"`
}

//toolgen:tool
func Narrow(ctx context.Context, in Narrowed) error { return nil }
