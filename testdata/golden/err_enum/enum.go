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
