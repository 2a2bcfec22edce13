package tags

import "context"

type UnknownKey struct {
	A string `json:"a" jsonschema:"minimun=1"`
}

type BadNumber struct {
	A int `json:"a" jsonschema:"minimum=abc"`
}

type BadDefault struct {
	A int `json:"a" jsonschema:"default=ten"`
}

type WrongTarget struct {
	A string `json:"a" jsonschema:"minItems=1"`
}

type Malformed struct {
	A string `json:"a" jsonschema:"description=a\, b"`
}

type BadPattern struct {
	A string `json:"a" jsonschema:"pattern=([a-z]"`
}

type Contradiction struct {
	A string `json:"a" jsonschema:"required,optional"`
}

type NoValue struct {
	A string `json:"a" jsonschema:"maxLength"`
}

type Impossible struct {
	A int `json:"a" jsonschema:"minimum=5,maximum=1"`
}

type ImpossibleLength struct {
	A string `json:"a" jsonschema:"minLength=5,maxLength=2"`
}

type ImpossibleConst struct {
	A string `json:"a" jsonschema:"const=a,enum=b"`
}

type OutOfRange struct {
	A int8  `json:"a" jsonschema:"minimum=1000"`
	B uint8 `json:"b" jsonschema:"maximum=-1"`
}

//toolgen:tool
func T1(ctx context.Context, in UnknownKey) error { return nil }

//toolgen:tool
func T2(ctx context.Context, in BadNumber) error { return nil }

//toolgen:tool
func T3(ctx context.Context, in BadDefault) error { return nil }

//toolgen:tool
func T4(ctx context.Context, in WrongTarget) error { return nil }

//toolgen:tool
func T5(ctx context.Context, in Malformed) error { return nil }

//toolgen:tool
func T6(ctx context.Context, in BadPattern) error { return nil }

//toolgen:tool
func T7(ctx context.Context, in Contradiction) error { return nil }

//toolgen:tool
func T8(ctx context.Context, in NoValue) error { return nil }

//toolgen:tool
func T9(ctx context.Context, in OutOfRange) error { return nil }

//toolgen:tool
func T10(ctx context.Context, in Impossible) error { return nil }

//toolgen:tool
func T11(ctx context.Context, in ImpossibleLength) error { return nil }

//toolgen:tool
func T12(ctx context.Context, in ImpossibleConst) error { return nil }
