package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A ToolError is a failure the caller sees on every surface, with its
// message only.
func TestToolErrorOnEverySurface(t *testing.T) {
	tools := ToolList{{Name: "city", Toolkit: "K", Handler: func(context.Context, json.RawMessage) (*Result, error) {
		return nil, &ToolError{Message: "No such city.", DeveloperMessage: "geo lookup: 0 rows"}
	}}}
	s := NewServer(tools, &Options{AllowExecute: true, Logger: discard()})
	do(t, s, "POST", "/tools/city/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"No such city."}],"isError":true}`)
	res, err := connect(t, s, nil).CallTool(context.Background(), &mcp.CallToolParams{Name: "city"})
	if err != nil || !res.IsError || mustJSON(t, res.Content) != `[{"type":"text","text":"No such city."}]` {
		t.Errorf("MCP: %v %v", mustJSON(t, res), err)
	}
	var oxp struct {
		Result struct{ Error struct{ Message string } }
	}
	do(t, s, "POST", "/oxp/tools/call", `{"request":{"tool_id":"K.City","input":{}}}`).decode(t, &oxp)
	if oxp.Result.Error.Message != "No such city." {
		t.Errorf("OXP: %+v", oxp.Result.Error)
	}
	out := s.Invoke(context.Background(), &Call{Tool: "city"})
	var te *ToolError
	if !errors.As(out.Err, &te) || te.DeveloperMessage != "geo lookup: 0 rows" || out.Status != StatusFailed {
		t.Errorf("Invoke: %v %v", out.Status, out.Err)
	}
}

// A result JSON cannot hold fails the call with a message for the caller
// on every surface: what JSON cannot hold, and no encoding/json text
// (json: unsupported value) or Go type name. The log keeps
// encoding/json's error.
func TestUnencodableResultOnEverySurface(t *testing.T) {
	tools := ToolList{
		{Name: "sum", Toolkit: "K", Handler: func(context.Context, json.RawMessage) (*Result, error) {
			return StructuredResult(map[string]float64{"sum": math.Inf(1)})
		}},
		{Name: "pipe", Toolkit: "K", Handler: func(context.Context, json.RawMessage) (*Result, error) {
			return StructuredResult(map[string]any{"c": make(chan int)})
		}},
	}
	var logs logBuffer
	s := NewServer(tools, &Options{AllowExecute: true, Logger: logs.Logger()})
	for tool, want := range map[string]string{
		"sum":  "The tool's result could not be encoded as JSON: it holds +Inf, which JSON cannot represent.",
		"pipe": "The tool's result could not be encoded as JSON.",
	} {
		do(t, s, "POST", "/tools/"+tool+"/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"`+want+`"}],"isError":true}`)
		res, err := connect(t, s, nil).CallTool(context.Background(), &mcp.CallToolParams{Name: tool})
		if err != nil || !res.IsError || mustJSON(t, res.Content) != `[{"type":"text","text":"`+want+`"}]` {
			t.Errorf("MCP %s: %v %v", tool, mustJSON(t, res), err)
		}
		var oxp struct {
			Result struct{ Error struct{ Message string } }
		}
		do(t, s, "POST", "/oxp/tools/call", `{"request":{"tool_id":"K.`+strings.ToUpper(tool[:1])+tool[1:]+`","input":{}}}`).decode(t, &oxp)
		if oxp.Result.Error.Message != want {
			t.Errorf("OXP %s: %+v", tool, oxp.Result.Error)
		}
		var v1 struct{ Error string }
		do(t, s, "POST", "/v1/tools/"+tool, `{"input":{}}`).decode(t, &v1)
		if v1.Error != "Tool execution failed: "+want {
			t.Errorf("/v1 %s: %q", tool, v1.Error)
		}
	}
	if l := logs.String(); !strings.Contains(l, "tool result could not be encoded") || !strings.Contains(l, "json: unsupported value: +Inf") || !strings.Contains(l, "json: unsupported type: chan int") {
		t.Errorf("the log does not keep encoding/json's errors:\n%s", l)
	}
}
