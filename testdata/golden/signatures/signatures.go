// Package signatures covers each accepted function signature: with and
// without a context and an error, the struct and pointer-to-struct input,
// flat parameters, no parameters, and functions that return only an error
// or nothing.
package signatures

import (
	"context"
	"errors"
)

type Input struct {
	N int `json:"n"`
}

//toolgen:tool description="ctx, struct input, (R, error)."
func Full(ctx context.Context, in Input) (string, error) { return ctxText(ctx, in.N), nil }

//toolgen:tool description="No ctx, pointer input, no error."
func Pointer(in *Input) string { return itoa(in.N) }

//toolgen:tool description="Flat parameters, with ctx."
func Flat(ctx context.Context, a int, b string, c []float64, d map[string]bool) (string, error) {
	return ctxText(ctx, a) + b + itoa(len(c)+len(d)), nil
}

//toolgen:tool description="Flat parameters whose Go names clash once capitalised."
func Clash(x, X int) int { return x*10 + X }

//toolgen:tool description="No parameters at all."
func Nothing() string { return "nothing" }

//toolgen:tool description="Only an error."
func OnlyError(ctx context.Context, in Input) error {
	if in.N < 0 {
		return errors.New("negative")
	}
	return nil
}

//toolgen:tool description="No results."
func NoResult(in Input) {}

//toolgen:tool description="An anonymous struct is the struct form too."
func Anonymous(ctx context.Context, in struct {
	Name string `json:"name"`
}) (string, error) {
	return in.Name, nil
}

//toolgen:tool description="A single non-struct parameter is the flat form."
func Single(msg string) (string, error) { return msg, nil }

type ctxKey struct{}

func ctxText(ctx context.Context, n int) string {
	if v, ok := ctx.Value(ctxKey{}).(string); ok {
		return v + itoa(n)
	}
	return itoa(n)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

//toolgen:tool description="Capitalised names that clash with a fallback name."
func Fallback(p3, y, Y int) int { return p3 + y + Y }
