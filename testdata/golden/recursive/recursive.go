// Package recursive covers recursive types: only they use $defs and $ref,
// and a type that is the schema's root refers to itself as "#". List and
// Paths hold themselves with no struct between (the generator once walked
// them for ever).
package recursive

import "context"

// Node is a tree.
type Node struct {
	Name     string  `json:"name"`
	Children []*Node `json:"children,omitempty"`
}

// Expr and Term refer to each other.
type Expr struct {
	Terms []Term `json:"terms"`
}

type Term struct {
	Value float64 `json:"value,omitempty"`
	Sub   *Expr   `json:"sub,omitempty"`
}

type Input struct {
	Tree  Node  `json:"tree"`
	Other *Node `json:"other,omitempty"`
	Expr  Expr  `json:"expr"`
	// Nest is lists in lists.
	Nest List `json:"nest,omitempty"`
	// Paths are names in names.
	Paths Paths `json:"paths,omitempty"`
}

// List is a list of lists.
type List []List

// Paths is a tree of names.
type Paths map[string]Paths

// Walk counts nodes.
//
//toolgen:tool
func Walk(ctx context.Context, in Input) (int, error) {
	return count(&in.Tree), nil
}

func count(n *Node) int {
	c := 1
	for _, ch := range n.Children {
		c += count(ch)
	}
	return c
}

// Depth measures a tree of names, given as a parameter of its own.
//
//toolgen:tool
func Depth(ctx context.Context, paths Paths) (int, error) {
	d := 0
	for _, p := range paths {
		if n, _ := Depth(ctx, p); n+1 > d {
			d = n + 1
		}
	}
	return d, nil
}

// Grow returns a tree: the root of the output schema is recursive.
//
//toolgen:tool
func Grow(ctx context.Context, in Node) (Node, error) {
	return Node{Name: "root", Children: []*Node{&in}}, nil
}
