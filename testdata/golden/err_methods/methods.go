package methods

import "context"

type In struct {
	// X.
	X string `json:"x"`
}

// HasTools declares a Tools method of its own.
type HasTools struct{}

func (HasTools) Tools() []string { return nil }

// Run is a tool method of HasTools.
//
//toolgen:tool
func (h *HasTools) Run(ctx context.Context, in In) error { return nil }

// Again is a second tool method: the clash is reported once.
//
//toolgen:tool
func (h *HasTools) Again(ctx context.Context, in In) error { return nil }

// HasField has a field called Tools.
type HasField struct {
	Tools []string
}

// Run is a tool method of HasField.
//
//toolgen:tool name=field_run
func (h HasField) Run(ctx context.Context, in In) error { return nil }

// Box is generic.
type Box[T any] struct{ v T }

// Open is a method of a generic type.
//
//toolgen:tool
func (b *Box[T]) Open(ctx context.Context, in In) error { return nil }

// Plain has a prompt method.
type Plain struct{}

// Ask is a prompt on a method.
//
//toolgen:prompt
func (Plain) Ask(ctx context.Context, in In) (string, error) { return "", nil }

// Dup has a tool method whose name a function's tool has too.
type Dup struct{}

// Same is a tool.
//
//toolgen:tool name=same
func (Dup) Same(ctx context.Context, in In) error { return nil }

// Same2 is a function with the same tool name.
//
//toolgen:tool name=same
func Same2(ctx context.Context, in In) error { return nil }
