// Package tags covers every key of the jsonschema tag.
package tags

import "context"

type Input struct {
	Title       string   `json:"title" jsonschema:"title=The title,description=What it is called"`
	Enum        string   `json:"enum" jsonschema:"enum=a,enum=b,enum=c"`
	IntEnum     int      `json:"int_enum" jsonschema:"enum=1,enum=2"`
	Default     string   `json:"default,omitempty" jsonschema:"default=hello"`
	NumDefault  float64  `json:"num_default,omitempty" jsonschema:"default=0.5"`
	BoolDefault bool     `json:"bool_default,omitempty" jsonschema:"default=true"`
	Examples    string   `json:"examples" jsonschema:"example=one,examples=two"`
	Bounds      int      `json:"bounds" jsonschema:"minimum=0,maximum=100,multipleOf=5"`
	Exclusive   float64  `json:"exclusive" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
	Big         uint64   `json:"big" jsonschema:"maximum=1e3"`
	Wide        int8     `json:"wide" jsonschema:"minimum=-1000,maximum=1000"`
	Unsigned    uint8    `json:"unsigned" jsonschema:"minimum=-5,maximum=200"`
	Single      float32  `json:"single" jsonschema:"maximum=1e300"`
	Length      string   `json:"length" jsonschema:"minLength=2,maxLength=8,pattern=^[a-z]+$"`
	Format      string   `json:"format" jsonschema:"format=email"`
	Items       []string `json:"items" jsonschema:"minItems=1,maxItems=3,uniqueItems"`
	ItemEnum    []string `json:"item_enum" jsonschema:"enum=x,enum=y,maxLength=1"`
	ItemBounds  []int    `json:"item_bounds" jsonschema:"minimum=1,uniqueItems=true"`
	Const       string   `json:"const" jsonschema:"const=fixed"`
	Deprecated  string   `json:"deprecated,omitempty" jsonschema:"deprecated"`
	Nullable    int      `json:"nullable" jsonschema:"nullable"`
	NullEnum    string   `json:"null_enum" jsonschema:"enum=on,enum=off,nullable"`
	Required    string   `json:"required,omitempty" jsonschema:"required"`
	Optional    string   `json:"optional" jsonschema:"optional=true"`
	NotOptional string   `json:"not_optional,omitempty" jsonschema:"optional=false"`
	Any         any      `json:"any,omitempty" jsonschema:"default={\"a\":[1]}"`
	Skipped     string   `json:"skipped" jsonschema:"-"`
}

// Tagged takes every tag.
//
//toolgen:tool
func Tagged(ctx context.Context, in Input) (string, error) {
	return in.Title, nil
}
