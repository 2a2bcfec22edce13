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
