package typeschema

import (
	"encoding/json"
	"testing"
)

func TestInline(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"no refs", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`},
		{"defs", `{"$schema":"s","type":"object","properties":{"a":{"$ref":"#/$defs/A"},"b":{"type":"array","items":{"$ref":"#/$defs/A"}}},"$defs":{"A":{"type":"string","enum":["x"]}}}`,
			`{"$schema":"s","type":"object","properties":{"a":{"type":"string","enum":["x"]},"b":{"type":"array","items":{"type":"string","enum":["x"]}}}}`},
		{"siblings override", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A","description":"mine"}},"$defs":{"A":{"type":"string","description":"theirs"}}}`,
			`{"type":"object","properties":{"a":{"type":"string","description":"mine"}}}`},
		{"data keeps $ref", `{"type":"object","default":{"$ref":"#/$defs/A"},"properties":{"a":{"const":{"$ref":"#"}}},"$defs":{"A":{"type":"string"}}}`,
			`{"type":"object","default":{"$ref":"#/$defs/A"},"properties":{"a":{"const":{"$ref":"#"}}}}`},
		{"recursive root", `{"type":"object","properties":{"next":{"$ref":"#"}}}`,
			`{"type":"object","properties":{"next":{"type":"object","properties":{"next":{"description":"The structure repeats from here (a recursive type, unrolled 1 times)."}}}}}`},
		{"recursive def", `{"$ref":"#/$defs/N","$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}}`,
			`{"type":"object","properties":{"kids":{"type":"array","items":{"description":"The structure repeats from here (a recursive type, unrolled 1 times)."}}}}`},
		{"external ref kept", `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`, `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Inline(json.RawMessage(c.in), 1)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
	if _, err := Inline(json.RawMessage(`[1]`), 1); err == nil {
		t.Error("an array was inlined")
	}
}
