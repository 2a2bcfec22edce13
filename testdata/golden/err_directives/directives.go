// Package directives is full of malformed directives.
//
//toolgen:toolkit
package directives

import "context"

type In struct {
	N int `json:"n" jsonschema:"minimum=1"`
}

// toolgen:tool
func Spaced(ctx context.Context, in In) error { return nil }

//toolgen:tool readonly=yes
func FlagValue(ctx context.Context, in In) error { return nil }

//toolgen:tool name= title="x"
func MissingValue(ctx context.Context, in In) error { return nil }

//toolgen:tool title="unterminated
func Unterminated(ctx context.Context, in In) error { return nil }

//toolgen:tool fast
func UnknownArg(ctx context.Context, in In) error { return nil }

//toolgen:tool openworld closedworld
func Contradiction(ctx context.Context, in In) error { return nil }

//toolgen:tool name="has space"
func BadName(ctx context.Context, in In) error { return nil }

//toolgen:tool name=twice name=again
func Twice(ctx context.Context, in In) error { return nil }

//toolgen:example {"n":1}
func ExampleWithoutTool(ctx context.Context, in In) error { return nil }

//toolgen:tool
//toolgen:example [1,2]
//toolgen:example {"n":0}
//toolgen:example {"n":
func BadExamples(ctx context.Context, in In) error { return nil }

//toolgen:tool
//toolgen:tool
func TwoTools(ctx context.Context, in In) error { return nil }

//toolgen:tools
func UnknownDirective(ctx context.Context, in In) error { return nil }

//toolgen:tool
func Generic[X any](ctx context.Context, in In) error { return nil }

//toolgen:enum
func EnumOnFunc(ctx context.Context, in In) error { return nil }
