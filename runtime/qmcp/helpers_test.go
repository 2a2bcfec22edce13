package qmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// qmcpTools are two tools shaped like qmcp's example server's.
func qmcpTools() runtime.ToolList {
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

// house is s with every surface mounted, as serve.Main serves it: the
// tests send their requests to /v1 there.
func house(s *runtime.Server) http.Handler { return serve.NewHandler(s, nil) }
