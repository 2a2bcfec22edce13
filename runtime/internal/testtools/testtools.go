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

// ForecastIn and ForecastOut are the arguments and result of
// ForecastTool: a three-argument tool as toolgen generates it (a schema,
// a handler that decodes into a struct), for the benchmarks of the
// surfaces and of tracing, as runtime's own BenchmarkCall has it.
type ForecastIn struct {
	City  string `json:"city"`
	Days  int    `json:"days"`
	Units string `json:"units"`
}

type ForecastOut struct {
	City    string  `json:"city"`
	Days    int     `json:"days"`
	High    float64 `json:"high"`
	Summary string  `json:"summary"`
}

// Forecast is the tool's function.
func Forecast(_ context.Context, in ForecastIn) (ForecastOut, error) {
	return ForecastOut{City: in.City, Days: in.Days, High: 21.5, Summary: "sunny in " + in.Units}, nil
}

// ForecastSchema is the tool's input schema, and ForecastBody good
// arguments for it.
const (
	ForecastSchema = `{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,"maximum":14},"units":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","days","units"],"additionalProperties":false}`
	ForecastBody   = `{"city":"Paris","days":3,"units":"celsius"}`
)

// ForecastTool is the tool.
func ForecastTool() runtime.Tool {
	return runtime.Tool{
		Name:        "forecast",
		InputSchema: json.RawMessage(ForecastSchema),
		Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in ForecastIn
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			out, err := Forecast(ctx, in)
			if err != nil {
				return nil, err
			}
			return runtime.StructuredResult(out)
		},
	}
}
