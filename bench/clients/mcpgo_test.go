// Package clients tests toolgen's default MCP server with the clients of
// other projects, as their users run them: mark3labs/mcp-go here (its own
// module, so that mcp-go stays out of toolgen's go.mod), and the
// TypeScript SDK's clients in clients/ts (run by .ci/run).
package clients

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// startConformance builds examples/conformance and serves it with its
// default flags on a free port; it returns the server's URL.
func startConformance(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "conformance")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "..", "examples", "conformance")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-history", "memory")
	var logs bytes.Buffer
	cmd.Stderr = &logs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.Bytes())
		}
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if url, ok := strings.CutPrefix(sc.Text(), "Serving on "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return strings.TrimSuffix(url, "/")
		}
	}
	t.Fatalf("the server did not start: %v\n%s", sc.Err(), logs.Bytes())
	return ""
}

type sampler struct{}

func (sampler) CreateMessage(_ context.Context, r mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("4, said the model")},
		Model:           "test-model",
		StopReason:      "endTurn",
	}, nil
}

type eliciter struct{}

func (eliciter) Elicit(_ context.Context, r mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
		Action:  mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"username": "ada", "email": "ada@example.com"},
	}}, nil
}

// TestMCPGoClient runs mcp-go's client against the default server, as it
// comes (it speaks 2026-07-28, served statelessly) and pinned to
// 2025-11-25 (served in a session): connect, list, call, sampling,
// elicitation, progress, and a stream the server closes mid-call.
func TestMCPGoClient(t *testing.T) {
	url := startConformance(t)
	for _, tc := range []struct {
		name    string
		opts    []client.ClientOption
		version string
	}{
		{"default", nil, "2026-07-28"},
		{"2025-11-25", []client.ClientOption{client.WithProtocolVersion("2025-11-25")}, "2025-11-25"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tr, err := transport.NewStreamableHTTP(url + "/mcp")
			if err != nil {
				t.Fatal(err)
			}
			c := client.NewClient(tr, append([]client.ClientOption{
				client.WithSamplingHandler(sampler{}),
				client.WithElicitationHandler(eliciter{}),
			}, tc.opts...)...)
			var mu sync.Mutex
			var progress []float64
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == "notifications/progress" {
					mu.Lock()
					defer mu.Unlock()
					if p, ok := n.Params.AdditionalFields["progress"].(float64); ok {
						progress = append(progress, p)
					}
				}
			})
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			init, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
				ProtocolVersion: tc.version,
				ClientInfo:      mcp.Implementation{Name: "mcp-go-test", Version: "1"},
			}})
			if err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if v := c.ProtocolVersion(); v != tc.version {
				t.Errorf("protocol %q, want %q", v, tc.version)
			}
			if init.ServerInfo.Name != "toolgen-conformance" {
				t.Errorf("server info %+v", init.ServerInfo)
			}
			tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil || len(tools.Tools) < 10 {
				t.Fatalf("tools/list: %d tools, %v", len(tools.Tools), err)
			}

			call := func(name string, args map[string]any, meta *mcp.Meta) string {
				t.Helper()
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments, req.Params.Meta = name, args, meta
				res, err := c.CallTool(ctx, req)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if res.IsError || len(res.Content) == 0 {
					t.Fatalf("%s: %+v", name, res)
				}
				text, _ := mcp.AsTextContent(res.Content[0])
				if text == nil {
					t.Fatalf("%s: %+v", name, res.Content)
				}
				return text.Text
			}
			for _, c := range []struct {
				tool string
				args map[string]any
				want string
			}{
				{"test_simple_text", nil, "This is a simple text response for testing."},
				{"test_sampling", map[string]any{"prompt": "What is 2+2?"}, "LLM response: 4, said the model"},
				{"test_elicitation", map[string]any{"message": "Who are you?"}, `User response: action=accept, content={"email":"ada@example.com","username":"ada"}`},
				{"test_reconnection", nil, "Reconnection test completed successfully."},
			} {
				if got := call(c.tool, c.args, nil); got != c.want {
					t.Errorf("%s: %q, want %q", c.tool, got, c.want)
				}
			}
			if got := call("test_tool_with_progress", nil, &mcp.Meta{ProgressToken: "p1"}); got != "Progress tool completed" {
				t.Errorf("test_tool_with_progress: %q", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(progress) != 3 || progress[2] != 100 {
				t.Errorf("progress notifications %v, want 0, 50, 100", progress)
			}
		})
	}
}
