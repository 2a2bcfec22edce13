// Package shapes is imported under another name by the import_names case.
package shapes

// Circle is a circle.
type Circle struct {
	Radius float64 `json:"radius"`
}
