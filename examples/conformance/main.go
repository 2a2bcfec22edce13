package main

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	_ "github.com/toolgen-go/toolgen/runtime/history/sqlite" // -history records into a SQLite file by default
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func main() {
	serve.Main(tools(), options())
}

// tools are the generated tools; test_tool_with_task becomes a task only
// once it has asked for its input (see TestToolWithTask).
func tools() runtime.ToolList {
	ts := Tools()
	for i := range ts {
		if ts[i].Name == "test_tool_with_task" {
			ts[i].TaskDeferred = true
		}
	}
	return ts
}

// options adds the conformance suite's resources and a completion handler
// to the generated tools and prompts.
func options() *runtime.Options {
	static := func(text string, blob []byte) runtime.ResourceHandler {
		return func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{{Text: text, Blob: blob}}, nil
		}
	}
	return &runtime.Options{
		Name:    "toolgen-conformance",
		Title:   "MCP conformance",
		Version: "1.0.0",
		Prompts: Prompts(),
		Resources: []runtime.Resource{
			{URI: "test://static-text", Name: "static-text", Description: "A static text resource.", MIMEType: "text/plain",
				Read: static("This is the content of the static text resource.", nil)},
			{URI: "test://static-binary", Name: "static-binary", Description: "A static binary resource (a PNG image).", MIMEType: "image/png",
				Read: static("", png)},
			{URI: "test://watched-resource", Name: "watched-resource", Description: "A resource to subscribe to.", MIMEType: "text/plain",
				Read: static("Watched resource content.", nil)},
		},
		ResourceTemplates: []runtime.ResourceTemplate{{
			URITemplate: "test://template/{id}/data", Name: "template", Description: "Data for an id.", MIMEType: "application/json",
			Read: func(_ context.Context, _ string, vars map[string]string) ([]runtime.ResourceContents, error) {
				b, err := json.Marshal(map[string]any{"id": vars["id"], "templateTest": true, "data": "Data for ID: " + vars["id"]})
				return []runtime.ResourceContents{{Text: string(b)}}, err
			},
		}},
		Complete: func(_ context.Context, req runtime.CompletionRequest) ([]string, error) {
			var out []string
			for _, v := range []string{"test", "testValue1", "testValue2"} {
				if strings.HasPrefix(v, req.Value) {
					out = append(out, v)
				}
			}
			return out, nil
		},
	}
}
