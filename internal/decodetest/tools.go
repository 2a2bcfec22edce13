// Package decodetest holds tools whose inputs use every kind of Go value a
// generated decoder reads (runtime/jsonread), so that decodetest_test.go
// can hold the decoders toolgen writes for them to runtime.DecodeArgs
// (encoding/json). Its tools_gen.go is generated and committed; .ci/run
// checks that it is current.
package decodetest

//go:generate go tool toolgen

import "context"

// Level is a named integer.
type Level int8

// Name is a named string.
type Name string

// Tags is a named slice.
type Tags []string

// Point is a point on a plane.
type Point struct {
	// X is across.
	X float64 `json:"x"`
	// Y is up.
	Y float64 `json:"y"`
}

// Inner is a struct within.
type Inner struct {
	// N is a small count.
	N uint16 `json:"n"`
	// On says whether it is on.
	On *bool `json:"on,omitempty"`
	// Where is a point.
	Where Point `json:"where"`
}

// Input has a field of every kind a decoder reads.
type Input struct {
	// S is a string.
	S string `json:"s"`
	// B is a bool.
	B bool `json:"b"`
	// I is an int.
	I int `json:"i"`
	// I8 is an int8.
	I8 int8 `json:"i8"`
	// I16 is an int16.
	I16 int16 `json:"i16"`
	// I32 is an int32.
	I32 int32 `json:"i32"`
	// I64 is an int64.
	I64 int64 `json:"i64"`
	// U is a uint.
	U uint `json:"u"`
	// U8 is a uint8.
	U8 uint8 `json:"u8"`
	// U32 is a uint32.
	U32 uint32 `json:"u32"`
	// U64 is a uint64.
	U64 uint64 `json:"u64"`
	// F32 is a float32.
	F32 float32 `json:"f32"`
	// F64 is a float64.
	F64 float64 `json:"f64"`
	// Level is a named integer.
	Level Level `json:"level"`
	// Name is a named string.
	Name Name `json:"name"`
	// Tags is a named slice.
	Tags Tags `json:"tags"`
	// PS points at a string.
	PS *string `json:"ps"`
	// PI points at an int.
	PI *int `json:"pi"`
	// PP points at a struct.
	PP *Point `json:"pp"`
	// Pt is a struct.
	Pt Point `json:"pt"`
	// Pts are structs.
	Pts []Point `json:"pts"`
	// PPts point at structs.
	PPts []*Point `json:"ppts"`
	// Grid is a slice of slices.
	Grid [][]int `json:"grid"`
	// In is a struct with a struct within.
	In Inner `json:"in"`
	// Untagged is named after its field.
	Untagged string
	// Skipped is not read.
	Skipped string `json:"-"`
	hidden  string
}

// Sparse has a field of every kind a decoder writes, each left out when
// empty.
type Sparse struct {
	// S is a string.
	S string `json:"s,omitempty"`
	// B is a bool.
	B bool `json:"b,omitempty"`
	// I is an int.
	I int `json:"i,omitempty"`
	// U8 is a uint8.
	U8 uint8 `json:"u8,omitempty"`
	// F32 is a float32.
	F32 float32 `json:"f32,omitempty"`
	// F64 is a float64.
	F64 float64 `json:"f64,omitempty"`
	// Tags is a named slice.
	Tags Tags `json:"tags,omitempty"`
	// PS points at a string.
	PS *string `json:"ps,omitempty"`
	// Pt is a struct, never left out.
	Pt Point `json:"pt,omitempty"`
	// PP points at a struct.
	PP *Point `json:"pp,omitempty"`
	// Last is always written.
	Last string `json:"last"`
}

// Thin returns a sparse result.
//
//toolgen:tool
func Thin(ctx context.Context, in Sparse) (*Sparse, error) {
	return &in, nil
}

// Every echoes its input.
//
//toolgen:tool
func Every(ctx context.Context, in Input) (Input, error) {
	_ = in.hidden
	return in, nil
}

// Flat takes its arguments as parameters.
//
//toolgen:tool
//toolgen:param word description="A word."
//toolgen:param times description="How often."
//toolgen:param weights description="Some weights."
//toolgen:param where description="A point."
func Flat(ctx context.Context, word string, times int, weights []float32, where *Point) (string, error) {
	return word, nil
}
