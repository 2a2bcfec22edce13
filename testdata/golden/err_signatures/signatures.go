package signatures

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
)

//toolgen:tool
func Variadic(ctx context.Context, xs ...int) error { return nil }

//toolgen:tool
func Unnamed(ctx context.Context, _ int, b string) error { return nil }

//toolgen:tool
func ThreeResults() (int, int, error) { return 0, 0, nil }

//toolgen:tool
func SecondNotError() (int, string) { return 0, "" }

//toolgen:tool
func CtxLater(a int, ctx context.Context) error { return nil }

//toolgen:tool
func ResultValue() runtime.Result { return runtime.Result{} }

//toolgen:tool
func ReturnsContext() context.Context { return nil }
