package toolsyaml

import (
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// stringBomb is the file: 4.5 KB whose aliases expand a
// 2,000-character string 90,000 times (180 MB) in only 90,000 nodes,
// within the node limit.
func stringBomb() string {
	var b strings.Builder
	b.WriteString("tools:\n  - name: a\n    input:\n      type: object\n      default:\n")
	b.WriteString("        s: &s " + strings.Repeat("x", 2000) + "\n")
	b.WriteString("        a: &a [" + strings.TrimSuffix(strings.Repeat("*s, ", 300), ", ") + "]\n")
	b.WriteString("        b: [" + strings.TrimSuffix(strings.Repeat("*a, ", 300), ", ") + "]\n")
	return b.String()
}

// The alias limit counts bytes as well as nodes: the string bomb is
// refused at the value that expands past it, with its position, before
// anything is expanded.
func TestStringAliasBomb(t *testing.T) {
	src := stringBomb()
	if n := len(src); n > 5000 {
		t.Fatalf("the bomb is %d bytes, the issue's is 4.5 KB", n)
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	_, err := Parse("t.yaml", []byte(src))
	goruntime.ReadMemStats(&after)
	want := fmt.Sprintf("t.yaml:8:12: this value expands to more than %d MiB through aliases (180090301 bytes with each alias replaced by its value)", maxExpandedBytes>>20)
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d MiB", alloc>>20)
	}
}

// expanded counts what doc amounts to with every alias replaced by its
// value, by doing it (the limits' own check never expands anything): the
// nodes, the bytes (each node's text and one more) and the depth. It stops
// once past the node limit, so that the bytes and the depth are exact
// unless the nodes are past it.
func expanded(doc *yaml.Node) (nodes, bytes, depth int) {
	var walk func(n *yaml.Node, d int)
	walk = func(n *yaml.Node, d int) {
		if nodes > maxExpandedNodes {
			return
		}
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		nodes++
		bytes += 1 + len(n.Value)
		depth = max(depth, d)
		for _, c := range n.Content {
			walk(c, d+1)
		}
	}
	walk(doc, 1)
	return nodes, bytes, depth
}

// aliasFile is a random tools.yaml of a chain of anchored values, each
// made of aliases of the ones before (and strings, and nested lists),
// around the limits.
func aliasFile(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("tools:\n  - name: a\n    input:\n      type: object\n      default:\n")
	// Short strings, to reach the node limit before the byte limit, or
	// long ones; nesting or none.
	strLen := []int{4, 6000}[r.IntN(2)]
	deep := []int{0, 3}[r.IntN(2)]
	levels := 1 + r.IntN(6)
	for i := range levels {
		fmt.Fprintf(&b, "        l%d: &l%d [", i, i)
		for j := range 1 + r.IntN(60) {
			if j > 0 {
				b.WriteString(", ")
			}
			switch k := r.IntN(100); {
			case i > 0 && k < 80:
				fmt.Fprintf(&b, "*l%d", i-1-r.IntN(min(i, 2)))
			case k < 100-deep:
				b.WriteString(strings.Repeat("y", 1+r.IntN(strLen)))
			default:
				d := maxDepth - 20 + r.IntN(30)
				b.WriteString(strings.Repeat("[", d) + "z" + strings.Repeat("]", d))
			}
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// Property: a file is refused by the limits exactly when, with its aliases
// expanded, it has more nodes, more bytes or a greater depth than the
// limits allow, and the error names a limit it passes.
func TestLimitsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	refused := map[string]int{}
	for i := range 150 {
		src := aliasFile(r)
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		nodes, bytes, depth := expanded(&doc)
		over := map[string]bool{
			"nodes through aliases": nodes > maxExpandedNodes,
			"MiB through aliases":   bytes > maxExpandedBytes,
			"levels":                depth > maxDepth,
		}
		err := checkLimits(&doc)
		if (err != nil) != (over["nodes through aliases"] || over["MiB through aliases"] || over["levels"]) {
			t.Fatalf("case %d: %d nodes, %d bytes, depth %d: checkLimits says %v", i, nodes, bytes, depth, err)
		}
		if err == nil {
			refused["none"]++
			continue
		}
		named := ""
		for what := range over {
			if strings.Contains(err.Msg, what) {
				named = what
			}
		}
		if !over[named] && !over["nodes through aliases"] {
			t.Fatalf("case %d: %d nodes, %d bytes, depth %d: checkLimits says %v", i, nodes, bytes, depth, err)
		}
		refused[named]++
		if _, perr := Parse("t.yaml", []byte(src)); perr == nil || !strings.Contains(perr.Error(), fmt.Sprintf("t.yaml:%d:%d: ", err.Line, err.Col)) {
			t.Fatalf("case %d: Parse says %v, checkLimits %v", i, perr, err)
		}
	}
	t.Logf("outcomes: %v", refused)
	// The cases reach every outcome, so that the property says something.
	for _, what := range []string{"none", "nodes through aliases", "MiB through aliases", "levels"} {
		if refused[what] == 0 {
			t.Errorf("no case refused for %q: %v", what, refused)
		}
	}
}
