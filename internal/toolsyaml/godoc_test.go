package toolsyaml

import "testing"

func TestGoDoc(t *testing.T) {
	for _, c := range []struct{ name, desc, want string }{
		{"BookmarkVisibility", "Who can see a bookmark.", "BookmarkVisibility says who can see a bookmark."},
		{"Address", "A postal address.", "Address is a postal address."},
		{"Country", "An ISO country code", "Country is an ISO country code."},
		{"Code", "ISO 3166 code.", "Code is ISO 3166 code."},
		{"Tag", "Represents a label.", "Tag represents a label."},
		{"Tag", "Tag is a label.", "Tag is a label."},
		{"Mode", "How to travel?", "Mode says how to travel?"},
		{"X", "", "X is the fallback."},
		{"X", "  ", "X is the fallback."},
	} {
		if got := goDoc(c.name, c.desc, "X is the fallback."); got != c.want {
			t.Errorf("goDoc(%q, %q) = %q, want %q", c.name, c.desc, got, c.want)
		}
	}
}
