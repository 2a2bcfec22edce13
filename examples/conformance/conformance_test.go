package main

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

// The full suite runs in CI (.ci/conformance); this checks in process that
// the server offers what the scenarios name, with the SDK's client.
func TestConformanceServer(t *testing.T) {
	s := runtime.NewServer(tools(), options())
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.Connect(ctx, s, nil, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"username": "testuser", "email": "test@example.com"}}, nil
		},
	}).Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.Description == "" {
			t.Errorf("%s has no description", tl.Name)
		}
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "confirm_delete failing_job greet json_schema_2020_12_tool multi_input protocol_error_job slow_compute test_audio_content test_elicitation test_elicitation_sep1034_defaults test_elicitation_sep1330_enums test_embedded_resource test_error_handling test_image_content "+
		"test_input_required_result_capabilities test_input_required_result_elicitation test_input_required_result_list_roots test_input_required_result_multi_round test_input_required_result_multiple_inputs "+
		"test_input_required_result_request_state test_input_required_result_sampling test_input_required_result_tampered_state test_logging_tool test_missing_capability test_multiple_content_types "+
		"test_reconnection test_sampling test_simple_text test_streaming_elicitation test_tool_with_logging test_tool_with_progress test_tool_with_task test_trigger_prompt_change test_trigger_tool_change test_x_mcp_header" {
		t.Errorf("tools: %s", got)
	}
	for name, want := range map[string]string{
		"test_simple_text":    `[{"type":"text","text":"This is a simple text response for testing."}]`,
		"test_audio_content":  `[{"type":"audio","mimeType":"audio/wav","data":"UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="}]`,
		"test_error_handling": `[{"type":"text","text":"This tool intentionally returns an error for testing"}]`,
		"test_elicitation":    `[{"type":"text","text":"User response: action=accept, content={\"email\":\"test@example.com\",\"username\":\"testuser\"}"}]`,
		"test_sampling":       `[{"type":"text","text":"runtime: the client does not support this: sampling"}]`,
	} {
		args := map[string]any{}
		if name == "test_elicitation" {
			args["message"] = "Who?"
		}
		if name == "test_sampling" {
			args["prompt"] = "Hi"
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := json.Marshal(res.Content); string(got) != want {
			t.Errorf("%s: %s\nwant %s", name, got, want)
		}
	}
	p, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "a", "arg2": "b"}})
	if err != nil || !strings.Contains(mustJSON(p), "arg1='a', arg2='b'") {
		t.Errorf("prompt: %v %v", mustJSON(p), err)
	}
	r, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "test://template/123/data"})
	if err != nil || r.Contents[0].Text != `{"data":"Data for ID: 123","id":"123","templateTest":true}` {
		t.Errorf("template: %v %v", mustJSON(r), err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
