// Package kinds is imported by the cross_package case: its types come from
// export data, and their docs and directives from source read on demand.
package kinds

// Color is a paint color.
//
//toolgen:enum
type Color string

const (
	Red   Color = "red"
	Green Color = "green"
)

// Swatch is a sample of a color.
type Swatch struct {
	// Color of the swatch.
	Color Color `json:"color"`
	// Size in millimetres.
	Size int `json:"size" jsonschema:"minimum=1"`
}
