package runtime

import (
	"context"
	"encoding/json"
	"errors"
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
