package typeschema

import "testing"

// An output that references an object schema of its own $defs is an
// object schema: served as the definition, never wrapped as {"result":
// ...}; a reference to anything else is wrapped.
func TestObjectOutputRef(t *testing.T) {
	for _, c := range []struct {
		src, want string
		wrapped   bool
	}{
		{`{"$ref":"#/$defs/a","$defs":{"a":{"type":"object","properties":{"c":{"$ref":"#/$defs/c"}}},"c":{"type":"string"},"u":{"type":"integer"}}}`,
			`{"type":"object","properties":{"c":{"$ref":"#/$defs/c"}},"$defs":{"c":{"type":"string"}}}`, false},
		{`{"$ref":"#/$defs/a","description":"D","$defs":{"a":{"type":"object","description":"A","properties":{"n":{"$ref":"#/$defs/a"}}}}}`,
			`{"type":"object","description":"D","properties":{"n":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"object","description":"A","properties":{"n":{"$ref":"#/$defs/a"}}}}}`, false},
		{`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"type":"object"}}}`, `{"type":"object"}`, false},
		{`{"$ref":"#/$defs/c","$defs":{"c":{"type":"string"}}}`,
			`{"type":"object","properties":{"result":{"$ref":"#/$defs/c"}},"required":["result"],"$defs":{"c":{"type":"string"}}}`, true},
		{`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}}`,
			`{"type":"object","properties":{"result":{"$ref":"#/$defs/a"}},"required":["result"],"$defs":{"a":{"$ref":"#/$defs/a"}}}`, true},
		{`{"$ref":"#/$defs/a","minProperties":1,"$defs":{"a":{"type":"object"}}}`,
			`{"type":"object","properties":{"result":{"$ref":"#/$defs/a","minProperties":1}},"required":["result"],"$defs":{"a":{"type":"object"}}}`, true},
	} {
		got, wrapped := ObjectOutput([]byte(c.src))
		if string(got) != c.want || wrapped != c.wrapped {
			t.Errorf("ObjectOutput(%s) = %s, %v; want %s, %v", c.src, got, wrapped, c.want, c.wrapped)
		}
	}
}
