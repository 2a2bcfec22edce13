package suggest

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"minimum", "maximum", "exclusiveMinimum", "minLength", "tool", "toolkit", "enum"}
	for _, c := range []struct{ s, want string }{
		{"minimun", "minimum"},                   // one substitution
		{"minmum", "minimum"},                    // one deletion
		{"exclusiveminimum", "exclusiveMinimum"}, // case alone: the known spelling
		{"MinLenght", "minLength"},               // two edits, case ignored
		{"tol", "tool"},
		{"toolkits", "toolkit"},
		{"maxiumum", "maximum"},
		{"colour", ""}, // nothing near
		{"", ""},       // nothing written
		{"enumm", "enum"},
	} {
		if got := Closest(c.s, known); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"minimun", "minimum", 1}, {"flaw", "lawn", 2}, {"same", "same", 0},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}
