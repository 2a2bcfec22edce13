package results

import (
	"context"
	"encoding/json"
	"testing"
)

func TestResults(t *testing.T) {
	want := map[string]string{
		"text":     `{"content":[{"type":"text","text":"plain text"}],"isError":false}`,
		"named":    `{"content":[{"type":"text","text":"happy"}],"isError":false}`,
		"image":    `{"content":[{"type":"image","data":"iVBORw==","mimeType":"image/png"}],"isError":false}`,
		"blocks":   `{"content":[{"type":"text","text":"a"},{"type":"resource_link","uri":"file:///b","name":"b"}],"isError":false}`,
		"whole":    `{"content":[{"type":"text","text":"traced"}],"isError":false}`,
		"struct":   `{"content":[{"type":"text","text":"{\"ok\":true}"}],"structuredContent":{"ok":true},"isError":false}`,
		"pointer":  `{"content":[{"type":"text","text":"{\"ok\":false}"}],"structuredContent":{"ok":false},"isError":false}`,
		"number":   `{"content":[{"type":"text","text":"3.5"}],"structuredContent":3.5,"isError":false}`,
		"map":      `{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1},"isError":false}`,
		"anything": `{"content":[{"type":"text","text":"[1,\"two\"]"}],"structuredContent":[1,"two"],"isError":false}`,
	}
	tools := Tools()
	if len(tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		res, err := tool.Handler(context.Background(), json.RawMessage(`{}`))
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		got, _ := json.Marshal(res)
		if string(got) != want[tool.Name] {
			t.Errorf("%s:\n got %s\nwant %s", tool.Name, got, want[tool.Name])
		}
		if tool.Name == "whole" && res.TraceID != "t-1" {
			t.Errorf("whole: trace id %q", res.TraceID)
		}
		if (tool.OutputSchema != nil) != (res.StructuredContent != nil) {
			t.Errorf("%s: output schema %s but structured content %v", tool.Name, tool.OutputSchema, res.StructuredContent)
		}
	}
}
