package toolsyaml

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Limits on what a tools.yaml may make the generator do. A file is small;
// what it expands to through aliases need not be: ten levels of ten
// aliases each is ten billion nodes from a few hundred bytes, and a few
// aliases of a long string are gigabytes in a few nodes. Each node's
// expanded nodes, bytes and depth are computed once (aliases share their
// target's figures), so the check itself is linear in the file.
const (
	// MaxFileBytes bounds the size of a tools.yaml: room for a catalog of
	// 10,000 tools with real descriptions and schemas (14 MB, about 1.4
	// million nodes, in the scale test's synthetic catalog), twice over.
	MaxFileBytes = 32 << 20
	// maxExpandedNodes bounds the nodes the document amounts to with every
	// alias expanded.
	maxExpandedNodes = 8_000_000
	// maxExpandedBytes bounds the bytes the document amounts to with every
	// alias expanded: its scalars' text, and a byte for each node. A file
	// within MaxFileBytes and without aliases is always within it.
	maxExpandedBytes = 4 * MaxFileBytes
	// maxDepth bounds how deeply the expanded document nests.
	maxDepth = 128
)

// checkLimits reports the first node (in document order, innermost first)
// whose expansion passes a limit or never ends.
func checkLimits(doc *yaml.Node) *posError {
	type figures struct{ size, bytes, depth int }
	memo := map[*yaml.Node]figures{}
	active := map[*yaml.Node]bool{} // the nodes being walked
	var bad *posError
	var walk func(n *yaml.Node) figures
	walk = func(n *yaml.Node) figures {
		if f, ok := memo[n]; ok {
			return f
		}
		if active[n] {
			// An alias inside the value of its own anchor: yaml.v3 keeps
			// it in the node tree, and expanding it would never end.
			if bad == nil {
				bad = errorf(n, "this value contains an alias to itself")
			}
			return figures{1, 1, 1}
		}
		active[n] = true
		defer delete(active, n)
		f := figures{1, 1 + len(n.Value), 1}
		switch {
		case n.Kind == yaml.AliasNode && n.Alias != nil:
			f = walk(n.Alias)
		default:
			for _, c := range n.Content {
				cf := walk(c)
				if bad != nil {
					return f
				}
				// No sum overflows: each term is within its limit, and
				// there are fewer terms than bytes in the file.
				f.size += cf.size
				f.bytes += cf.bytes
				f.depth = max(f.depth, cf.depth+1)
			}
		}
		if bad == nil {
			switch {
			case f.size > maxExpandedNodes:
				bad = errorf(n, "this value expands to more than %d nodes through aliases", maxExpandedNodes)
			case f.bytes > maxExpandedBytes:
				bad = errorf(n, "this value expands to more than %d MiB through aliases (%d bytes with each alias replaced by its value)", maxExpandedBytes>>20, f.bytes)
			case f.depth > maxDepth:
				bad = errorf(n, "this value nests deeper than %d levels", maxDepth)
			}
		}
		memo[n] = f
		return f
	}
	walk(doc)
	return bad
}

// tooLarge is the error for a file past MaxFileBytes.
func tooLarge(n int) string {
	return fmt.Sprintf("the file is %d bytes; a tools.yaml may be at most %d", n, MaxFileBytes)
}
