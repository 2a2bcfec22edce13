package toolname

import (
	"regexp"
	"strings"
	"testing"
)

// Valid is Pattern, written as a loop: the two agree on every edge.
func TestValidIsPattern(t *testing.T) {
	re := regexp.MustCompile(Pattern)
	for _, name := range []string{
		"", "a", "get_weather", "A.b-c_9", "has space", "é", "a/b", "a\n", "tab\t", "x$",
		strings.Repeat("a", 128), strings.Repeat("a", 129), "ok\x00",
	} {
		if got, want := Valid(name), re.MatchString(name); got != want {
			t.Errorf("Valid(%q) = %v, the pattern says %v", name, got, want)
		}
	}
	if !Valid(strings.Repeat("z", 128)) || Valid(strings.Repeat("z", 129)) {
		t.Error("the length bound is not 128")
	}
}
