package many

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type h struct{ UnimplementedHandlers }

func (h) Tool7(_ context.Context, in Tool7Input) (*runtime.Result, error) {
	return runtime.TextResult(fmt.Sprint(in.X * 2)), nil
}

// TestMany: Tools lists every tool, in the file's order, each with its own
// handler, across the functions that append them.
func TestMany(t *testing.T) {
	tools := Tools(h{})
	if len(tools) != 60 || cap(tools) != 60 {
		t.Fatalf("%d tools (capacity %d), want 60", len(tools), cap(tools))
	}
	for i, tool := range tools {
		if want := fmt.Sprintf("tool_%d", i+1); tool.Name != want {
			t.Errorf("tool %d is %s, want %s", i, tool.Name, want)
		}
	}
	res, err := tools[6].Handler(context.Background(), json.RawMessage(`{"x":21}`))
	if err != nil || res.Content[0].Text != "42" {
		t.Errorf("tool_7: %v %v", res, err)
	}
	if _, err := tools[59].Handler(context.Background(), json.RawMessage(`{"x":1}`)); err == nil {
		t.Error("tool_60 answered, want not implemented")
	}
}
