// Package recursive covers recursive types: only they use $defs and $ref,
// and a type that is the schema's root refers to itself as "#".
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
}

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

// Grow returns a tree: the root of the output schema is recursive.
//
//toolgen:tool
func Grow(ctx context.Context, in Node) (Node, error) {
	return Node{Name: "root", Children: []*Node{&in}}, nil
}
