// Package parts is imported by the guards case: its struct types are
// guarded from the package that uses them, and one that cannot be written
// there (an unexported field) is left unguarded.
package parts

// Size is a size in pixels.
type Size int

// Meta is embedded from another package.
type Meta struct {
	// Author of the thing.
	Author string `json:"author"`
	Size   Size   `json:"size,omitempty"`
}

// Pair is generic.
type Pair[T any] struct {
	Low  T `json:"low"`
	High T `json:"high"`
}

// Stamp has an unexported field, which no other package can write.
type Stamp struct {
	Label string `json:"label"`
	seq   int
}

// Seq keeps seq used.
func (s Stamp) Seq() int { return s.seq }
