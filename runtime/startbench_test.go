package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// Start-up: NewServer for a thousand generated tools (each with its own
// input schema, as generated code has), and NewServer then the first use
// of every tool (a call that validates its arguments), which is where
// deriving each tool's schemas went. See BENCHMARKS.md.

func manyTools(n int) ToolList {
	tools := make(ToolList, n)
	for i := range tools {
		tools[i] = Tool{
			Name:         fmt.Sprintf("forecast_%04d", i),
			Description:  "Forecast the weather for a city.",
			InputSchema:  json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"city":{"type":"string","minLength":1,"description":"City %d."},"days":{"type":"integer","minimum":1,"maximum":%d},"units":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","days","units"],"additionalProperties":false}`, i, 14+i)),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},"high":{"type":"number"},"summary":{"type":"string"}},"required":["city","days","high","summary"]}`),
			Handler:      func(context.Context, json.RawMessage) (*Result, error) { return TextResult("ok"), nil },
		}
	}
	return tools
}

func BenchmarkNewServer(b *testing.B) {
	args := json.RawMessage(`{"city":"Oslo","days":2,"units":"celsius"}`)
	for _, n := range []int{1, 1000} {
		tools := manyTools(n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewServer(tools, nil)
			}
		})
		b.Run(fmt.Sprintf("tools=%d/first-use", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := NewServer(tools, nil)
				for i := range tools {
					out := s.Invoke(context.Background(), &Call{Tool: tools[i].Name, Arguments: args, ValidateOnly: true})
					if out.Status != StatusOK {
						b.Fatal(out.Err)
					}
				}
			}
		})
	}
}
