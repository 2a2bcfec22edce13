// Package collections covers slices, arrays and maps.
package collections

import "context"

type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type Input struct {
	Tags      []string           `json:"tags"`
	Matrix    [][]int            `json:"matrix"`
	Triple    [3]int             `json:"triple"`
	ByteArray [2]byte            `json:"byte_array"`
	Points    []Point            `json:"points"`
	Scores    map[string]float64 `json:"scores"`
	ByID      map[int]string     `json:"by_id"`
	ByCode    map[uint16]Point   `json:"by_code"`
	Nested    map[string][]bool  `json:"nested"`
	Anything  map[string]any     `json:"anything"`
	PtrSlice  []*Point           `json:"ptr_slice"`
}

// Summarize counts what it was given.
//
//toolgen:tool
func Summarize(ctx context.Context, in Input) (map[string]int, error) {
	return map[string]int{"tags": len(in.Tags), "points": len(in.Points), "by_code": len(in.ByCode)}, nil
}

// Corners returns the corners of a box: an array result.
//
//toolgen:tool
func Corners(ctx context.Context, in Point) ([]Point, error) {
	return []Point{{0, 0}, in}, nil
}
