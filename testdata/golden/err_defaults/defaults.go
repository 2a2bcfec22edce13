package defaults

import "context"

type In struct {
	// Small does not hold 300.
	Small int8 `json:"small,omitempty" jsonschema:"default=300"`
	// Bounded has a default below its minimum.
	Bounded int `json:"bounded,omitempty" jsonschema:"minimum=1,default=0"`
	// Names is a list of strings, not of numbers.
	Names []string `json:"names,omitempty" jsonschema:"default=[1]"`
	// Mode is one of two.
	Mode string `json:"mode,omitempty" jsonschema:"enum=a,enum=b,default=c"`
	// Fine is fine.
	Fine int `json:"fine,omitempty" jsonschema:"default=3"`
}

// Bad has bad defaults.
//
//toolgen:tool
func Bad(ctx context.Context, in In) error { return nil }
