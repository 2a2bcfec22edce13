// Package testtools holds tools the runtime's surface packages test
// with.
package testtools

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/toolgen-go/toolgen/runtime"
)

// QMCP are two tools shaped like qmcp's example server's: echo,
// with a string output schema, and planner, which fails for the goal
// "fail".
func QMCP() runtime.ToolList {
	return runtime.ToolList{{
		Name: "echo", Description: "Echo the input message back. Useful for testing.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"The message to echo back"}},"required":["message"]}`),
		OutputSchema: json.RawMessage(`{"type":"string"}`),
		Handler: func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct{ Message string }
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return runtime.StructuredResult(in.Message)
		},
	}, {
		Name: "planner", Description: "Create a step-by-step execution plan from a goal.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"goal":{"type":"string","description":"The goal to create a plan for"},"context":{"type":"string","description":"Optional context to inform planning"}},"required":["goal"]}`),
		Handler: func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct{ Goal string }
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			if in.Goal == "fail" {
				return nil, errors.New("cannot plan that")
			}
			return runtime.StructuredResult(map[string]any{"goal": in.Goal, "estimated_steps": 4})
		},
	}}
}
