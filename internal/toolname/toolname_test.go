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

// ValidSecret is SecretPattern, written as a loop.
func TestValidSecretIsPattern(t *testing.T) {
	re := regexp.MustCompile(SecretPattern)
	for _, id := range []string{
		"", "A", "_", "WEATHER_API_KEY", "key2", "9KEY", "has-dash", "a.b", "é", "SP ACE", "x\n",
		strings.Repeat("K", 128), strings.Repeat("K", 129),
	} {
		if got, want := ValidSecret(id), re.MatchString(id); got != want {
			t.Errorf("ValidSecret(%q) = %v, the pattern says %v", id, got, want)
		}
	}
	if !ValidSecret("WEATHER_API_KEY") || ValidSecret("9KEY") || ValidSecret("a-b") {
		t.Error("the rule is not an identifier")
	}
}
