package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

type greetInput struct {
	Name  string `json:"name" jsonschema:"minLength=1"`
	Times int    `json:"times,omitempty" jsonschema:"minimum=1,maximum=3"`
}

func greet(_ context.Context, in greetInput) (string, error) {
	return fmt.Sprintf("Hello, %s (x%d)", in.Name, max(in.Times, 1)), nil
}

// NewServer serves a tool list on every surface at once: the explorer's
// REST protocol and page, MCP at /mcp, OXP under /oxp, /v1, /health,
// /metrics and /openapi.json. Every response carries X-Request-ID and
// X-Correlation-ID.
func ExampleNewServer() {
	s := runtime.NewServer(runtime.ToolList{runtime.MustNewTool("greet", "Greets someone.", greet)}, &runtime.Options{
		Title:        "Greeter",
		AllowExecute: true, // the explorer's /call; the protocol surfaces run behind AuthHook
	})
	hs := httptest.NewServer(house(s))
	defer hs.Close()

	resp, err := http.Post(hs.URL+"/tools/greet/call", "application/json", strings.NewReader(`{"name":"Ada"}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	fmt.Println(resp.Header.Get("X-Request-ID") != "", resp.Header.Get("X-Correlation-ID") != "")

	resp, err = http.Post(hs.URL+"/tools/greet/call", "application/json", strings.NewReader(`{"name":"Ada","name":"Bob"}`))
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ = io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	// Output:
	// 200 {"content":[{"type":"text","text":"Hello, Ada (x1)"}],"isError":false}
	// true true
	// 400 {"content":[{"type":"text","text":"invalid arguments:\n- /name: duplicate key \"name\" (format)"}],"isError":true}
}

// Invoke runs a tool through the same pipeline as every surface: a test
// can check what a client would get without HTTP or MCP.
func ExampleServer_Invoke() {
	s := runtime.NewServer(runtime.ToolList{runtime.MustNewTool("greet", "Greets someone.", greet)}, nil)
	ctx := context.Background()

	out := s.Invoke(ctx, &runtime.Call{Tool: "greet", Arguments: json.RawMessage(`{"name":"Ada","times":2}`)})
	fmt.Println(out.Status, out.Result.Content[0].Text)

	out = s.Invoke(ctx, &runtime.Call{Tool: "greet", Arguments: json.RawMessage(`{"name":"","times":9}`)})
	fmt.Println(out.Status)
	for _, is := range out.Issues() {
		fmt.Printf("%s: %s (%s)\n", is.Path, is.Message, is.Keyword)
	}

	out = s.Invoke(ctx, &runtime.Call{Tool: "greet", Arguments: json.RawMessage(`{"name":"Ada"}`), ValidateOnly: true})
	fmt.Println(out.Status, out.Result == nil)
	// Output:
	// ok Hello, Ada (x2)
	// invalid
	// /name: length must be >= 1, but got 0 (minLength)
	// /times: must be <= 3 but found 9 (maximum)
	// ok true
}

// Middleware wraps every call on every surface: here, a log line per call.
// Recording and metrics are middleware too.
func ExampleMiddleware() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		// Drop the time so that the output is the same on every run.
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
	logCalls := func(next runtime.InvokeFunc) runtime.InvokeFunc {
		return func(ctx context.Context, c *runtime.Call) *runtime.Outcome {
			out := next(ctx, c)
			logger.InfoContext(ctx, "tool call", "tool", c.Tool, "surface", c.Surface, "status", out.Status, "duration", out.Duration)
			return out
		}
	}
	s := runtime.NewServer(runtime.ToolList{runtime.MustNewTool("greet", "Greets someone.", greet)}, &runtime.Options{
		Middleware: []runtime.Middleware{logCalls},
	})
	s.Invoke(context.Background(), &runtime.Call{Tool: "greet", Arguments: json.RawMessage(`{"name":"Ada"}`), Surface: "test"})
	s.Invoke(context.Background(), &runtime.Call{Tool: "nope", Surface: "test"})
	// Output:
	// level=INFO msg="tool call" tool=greet surface=test status=ok
	// level=INFO msg="tool call" tool=nope surface=test status=not_found
}
