package many

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestMany: Tools and (*Counter).Tools list every tool in order, each
// handler calling its own function or method.
func TestMany(t *testing.T) {
	funcs := Tools()
	c := &Counter{}
	methods := c.Tools()
	if len(funcs) != 60 || len(methods) != 60 {
		t.Fatalf("%d and %d tools, want 60 and 60", len(funcs), len(methods))
	}
	for i := range 60 {
		if want := fmt.Sprintf("f%d", i+1); funcs[i].Name != want {
			t.Errorf("function tool %d is %s, want %s", i, funcs[i].Name, want)
		}
		if want := fmt.Sprintf("m%d", i+1); methods[i].Name != want {
			t.Errorf("method tool %d is %s, want %s", i, methods[i].Name, want)
		}
	}
	res, err := funcs[54].Handler(context.Background(), json.RawMessage(`{"x":4}`))
	if err != nil || string(res.StructuredContent.(json.RawMessage)) != "8" {
		t.Errorf("f55: %v %v", res, err)
	}
	if _, err := methods[51].Handler(context.Background(), json.RawMessage(`{"x":1}`)); err != nil || c.N != 52 {
		t.Errorf("m52: N = %d, %v", c.N, err)
	}
}
