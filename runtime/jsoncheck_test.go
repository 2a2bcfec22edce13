package runtime

import "testing"

// TestJSONCheck: a check answers from memory only for the bytes it
// scanned; any other bytes are scanned.
func TestJSONCheck(t *testing.T) {
	compact := []byte(`{"a":[1,2]}`)
	spaced := []byte(`{"a": [1,2]}`)
	var c jsonCheck
	for _, step := range []struct {
		b    []byte
		want bool
	}{
		{compact, true},
		{spaced, false},      // other bytes: scanned, not the answer remembered
		{compact[:5], false}, // the same first byte, another length
		{compact, true},
		{nil, false},
	} {
		if got := c.compactJSON(step.b); got != step.want {
			t.Errorf("compactJSON(%q) = %v, want %v", step.b, got, step.want)
		}
	}
	var none *jsonCheck // remembers nothing
	if !none.compactJSON(compact) || none.compactJSON(spaced) || none.compactJSON(nil) {
		t.Error("a nil jsonCheck does not answer as compactJSON")
	}
}
