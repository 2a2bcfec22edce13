package main

//lint:file-ignore SA1019 sampling and roots are deprecated in MCP 2026-07-28 but tested

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// The same tools answer a client of either protocol revision, with the
// SDK's client doing what a client does: over a stateful session
// (2025-11-25) the ctx helpers ask the client during the call; over
// stateless HTTP (2026-07-28) they make input-required results, which the
// client answers before it calls again.
func TestToolsInBothModes(t *testing.T) {
	for _, mode := range []struct {
		stateless bool
		client    string // the client's revision; "" for the SDK's newest
		version   string
	}{{false, "2025-11-25", "2025-11-25"}, {false, "", "2026-07-28"}, {true, "", "2026-07-28"}} {
		t.Run(fmt.Sprintf("%s stateless=%v", mode.version, mode.stateless), func(t *testing.T) {
			hs := httptest.NewServer(serve.NewHandler(runtime.NewServer(Tools(), options()), &serve.Options{MCP: mcp.Options{Stateless: mode.stateless}}))
			defer hs.Close()

			var mu sync.Mutex
			asked := map[string]int{}
			note := func(what string) {
				mu.Lock()
				defer mu.Unlock()
				asked[what]++
			}
			client := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, &sdk.ClientOptions{
				ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					note("elicit " + r.Params.Message)
					content := map[string]any{}
					switch {
					case strings.Contains(r.Params.Message, "color"):
						content["color"] = "blue"
					case strings.Contains(r.Params.Message, "confirm"):
						content["ok"] = true
					case strings.Contains(r.Params.Message, "context"):
						content["context"] = "the tests"
					case r.Params.Message == "Who?":
						content["username"], content["email"] = "ada", "ada@example.com"
					default:
						content["name"] = "Ada"
					}
					return &sdk.ElicitResult{Action: "accept", Content: content}, nil
				},
				CreateMessageHandler: func(_ context.Context, r *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
					note("sample")
					answer := "Paris"
					if strings.Contains(r.Params.Messages[0].Content.(*sdk.TextContent).Text, "greeting") {
						answer = "Hi"
					}
					return &sdk.CreateMessageResult{Model: "m", Role: "assistant", Content: &sdk.TextContent{Text: answer}}, nil
				},
			})
			client.AddRoots(&sdk.Root{URI: "file:///work", Name: "work"})
			ctx := context.Background()
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, &sdk.ClientSessionOptions{ProtocolVersion: mode.client})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if v := cs.InitializeResult().ProtocolVersion; v != mode.version {
				t.Fatalf("protocol %s, want %s", v, mode.version)
			}
			for name, want := range map[string]string{
				"test_input_required_result_elicitation":     "Hello, Ada!",
				"test_input_required_result_sampling":        "Sampling response: Paris",
				"test_input_required_result_list_roots":      "Client exposed 1 root(s): file:///work",
				"test_input_required_result_multi_round":     "Multi-round complete: Ada likes blue",
				"test_input_required_result_multiple_inputs": "Hi Ada — 1 root(s) visible",
				"test_input_required_result_request_state":   "state-ok: requestState verified, confirmed=true",
				"test_elicitation":                           `User response: action=accept, content={"email":"ada@example.com","username":"ada"}`,
			} {
				args := map[string]any{}
				if name == "test_elicitation" {
					args["message"] = "Who?"
				}
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if got := res.Content[0].(*sdk.TextContent).Text; res.IsError || got != want {
					t.Errorf("%s: %q (isError %v), want %q", name, got, res.IsError, want)
				}
			}
			p, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "test_input_required_result_prompt"})
			if err != nil || p.Messages[0].Content.(*sdk.TextContent).Text != "Context: the tests" {
				t.Errorf("prompt: %v %v", p, err)
			}
			// Each question reached the client once per call: a round that
			// waits for answers does not ask again what it has.
			mu.Lock()
			defer mu.Unlock()
			for what, n := range map[string]int{"elicit Step 1: What is your name?": 1, "elicit Step 2: What is your favorite color?": 1, "sample": 2, "elicit What is your name?": 2} {
				if asked[what] != n {
					t.Errorf("%q asked %d times, want %d (all: %v)", what, asked[what], n, asked)
				}
			}
		})
	}
}
