package gen

import (
	"strconv"
	"testing"
)

// No function of the generated file grows with the number of tools: a
// Tools function of more than toolsPerFunc tools calls at most
// toolsPerFunc functions, each appending at most toolsPerChunk tools or
// calling at most toolsPerFunc functions, which together append every
// tool once, in order, under names of their own.
func TestToolsChunks(t *testing.T) {
	u := &unit{handlers: true}
	for _, n := range []int{0, 1, toolsPerFunc, toolsPerFunc + 1, 2 * toolsPerFunc, toolsPerFunc * toolsPerFunc, toolsPerFunc*toolsPerFunc + 1, 3*toolsPerFunc*toolsPerFunc + 7, 130_000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			tools := make([]*tool, n)
			c := newToolsChunks(u, nil, tools)
			if n <= toolsPerFunc {
				if c != nil {
					t.Fatalf("%d tools are cut into functions", n)
				}
				return
			}
			if c == nil {
				t.Fatalf("%d tools in one function", n)
			}
			if len(c.top) > toolsPerFunc {
				t.Errorf("Tools makes %d calls", len(c.top))
			}
			next := 0 // the next tool a leaf must append
			var walk func(ns []*toolsNode, depth int)
			walk = func(ns []*toolsNode, depth int) {
				for _, nd := range ns {
					if nd.kids == nil {
						if nd.from != next || nd.to-nd.from > toolsPerChunk || nd.to <= nd.from {
							t.Fatalf("a leaf appends tools %d to %d, after %d", nd.from, nd.to, next)
						}
						next = nd.to
						continue
					}
					if len(nd.kids) > toolsPerFunc {
						t.Errorf("%s makes %d calls", c.name(nd), len(nd.kids))
					}
					if nd.kids[0].from != nd.from || nd.kids[len(nd.kids)-1].to != nd.to {
						t.Errorf("%s's calls cover %d to %d", c.name(nd), nd.kids[0].from, nd.kids[len(nd.kids)-1].to)
					}
					walk(nd.kids, depth+1)
				}
			}
			walk(c.top, 0)
			if next != n {
				t.Errorf("the functions append %d tools, want %d", next, n)
			}
			seen := map[string]bool{}
			for _, name := range c.names() {
				if seen[name] {
					t.Errorf("%s is declared twice", name)
				}
				seen[name] = true
			}
		})
	}
}
