// Package suggest finds the likely intended word for a misspelt one: the
// "did you mean" of the generator's errors, for directives
// (//toolgen:tol) and jsonschema tag keys (minimun) alike. It is a leaf
// package, so that the type rules (internal/typeschema), which the runtime
// shares, can use it as well as the generator.
package suggest

import "strings"

// maxEdits is how far a suggestion may be from what was written: at most
// two edits, so that a typo gets one and an unrelated word none.
const maxEdits = 2

// Closest returns the word of known closest to s, compared ignoring case,
// when it is at most two edits away (the first such word on a tie), and
// "" when none is.
func Closest(s string, known []string) string {
	s = strings.ToLower(s)
	best, dist := "", maxEdits+1
	for _, k := range known {
		if n := Distance(s, strings.ToLower(k)); n < dist {
			best, dist = k, n
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
