package unsupported

import (
	"context"
	"fmt"
	"unsafe"
)

type Options struct {
	Callback func() `json:"callback"`
}

type Nested struct {
	Options Options `json:"options"`
}

//toolgen:tool
func Chan(ctx context.Context, in struct {
	C chan int `json:"c"`
}) error {
	return nil
}

//toolgen:tool
func Func(ctx context.Context, in Nested) error { return nil }

//toolgen:tool
func Complex(ctx context.Context, z complex128) error { return nil }

//toolgen:tool
func Unsafe(ctx context.Context, in struct{ P unsafe.Pointer }) error { return nil }

//toolgen:tool
func Stringer(ctx context.Context, in struct{ S []fmt.Stringer }) error { return nil }

//toolgen:tool
func MapKey(ctx context.Context, in struct{ M map[[2]int]int }) error { return nil }

//toolgen:tool
func BadResult(ctx context.Context) (chan int, error) { return nil, nil }

type hidden struct {
	// H is h.
	H string `json:"h"`
}

// Shrouded embeds a pointer to an unexported struct: encoding/json
// cannot decode into it.
type Shrouded struct {
	*hidden
}

//toolgen:tool
func Shroud(ctx context.Context, in Shrouded) error { return nil }

// Unveil may return one: encoding it is no trouble.
//
//toolgen:tool
func Unveil(ctx context.Context) (Shrouded, error) { return Shrouded{}, nil }
