package gen

import "testing"

// Go's rule for internal packages, as the guards apply it: a type of a
// package that the generating package may not import gets no guard.
func TestImportable(t *testing.T) {
	for _, c := range []struct {
		from, path string
		want       bool
	}{
		{"example.com/a", "example.com/b", true},
		{"example.com/a", "example.com/internal/x", true},
		{"example.com/a/b", "example.com/a/internal", true},
		{"example.com/a", "example.com/a/internal/x/y", true},
		{"example.com/a/b", "example.com/a/internal/x", true},
		{"example.com/c", "example.com/a/internal/x", false},
		{"example.com/ab", "example.com/a/internal/x", false},
		{"example.com/a", "example.com/a/internal/x/internal/y", false},
		{"example.com/a/internal/x", "example.com/a/internal/x/internal/y", true},
		{"example.com/a", "internal/poll", false},
		{"example.com/a", "net/http/internal", false},
		{"example.com/a", "example.com/internals/x", true},
	} {
		if got := importable(c.from, c.path); got != c.want {
			t.Errorf("importable(%q, %q) = %v, want %v", c.from, c.path, got, c.want)
		}
	}
}
