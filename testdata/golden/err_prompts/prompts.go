package prompts

import "context"

type NumberArgs struct {
	N int `json:"n"`
}

//toolgen:prompt
func Number(ctx context.Context, in NumberArgs) (string, error) { return "", nil }

//toolgen:prompt
func TwoArgs(ctx context.Context, a, b string) (string, error) { return "", nil }

//toolgen:prompt
func BadResult(ctx context.Context, in struct{}) (int, error) { return 0, nil }

//toolgen:tool
//toolgen:prompt
func Both(ctx context.Context, in struct{}) (string, error) { return "", nil }

//toolgen:prompt name=same
func First(ctx context.Context, in struct{}) (string, error) { return "", nil }

//toolgen:prompt name=same
func Second(ctx context.Context, in struct{}) (string, error) { return "", nil }

//toolgen:prompt color=red
func Unknown(ctx context.Context, in struct{}) (string, error) { return "", nil }
