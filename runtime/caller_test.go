package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

type pointInput struct {
	X int `json:"x" jsonschema:"maximum=100"`
	Y int `json:"y"`
}

type point struct {
	X, Y int
}

// callerTools are what the Caller tests call: text, an object, a scalar
// (wrapped as {"result": n}), a tool error, a plain error.
func callerTools() runtime.ToolList {
	return runtime.ToolList{
		runtime.MustNewTool("greet", "Greets someone.", greet),
		runtime.MustNewTool("point", "Makes a point.", func(_ context.Context, in pointInput) (point, error) {
			return point(in), nil
		}),
		runtime.MustNewTool("sum", "Adds.", func(_ context.Context, in pointInput) (int, error) {
			return in.X + in.Y, nil
		}),
		runtime.MustNewTool("refuse", "Refuses.", func(_ context.Context, in pointInput) (string, error) {
			return "", &runtime.ToolError{Message: "No point at all.", DeveloperMessage: "refused", CanRetry: true}
		}),
		runtime.MustNewTool("crash", "Fails.", func(_ context.Context, in pointInput) (string, error) {
			return "", errors.New("disk full")
		}),
	}
}

// callers starts a server of the tools and returns a Caller of each kind
// on it.
func callers(t *testing.T) map[string]runtime.Caller {
	t.Helper()
	s := runtime.NewServer(callerTools(), &runtime.Options{AllowExecute: true, Logger: discardLogger()})
	hs := httptest.NewServer(house(s))
	t.Cleanup(hs.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "caller-test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return map[string]runtime.Caller{
		"in-process": runtime.InProcess(s),
		"mcp":        runtime.MCPCaller(cs),
		"rest":       runtime.RESTCaller(hs.URL, nil),
	}
}

func TestCallerResults(t *testing.T) {
	ctx := context.Background()
	for name, c := range callers(t) {
		t.Run(name, func(t *testing.T) {
			r, err := c.Call(ctx, "greet", json.RawMessage(`{"name":"Ada"}`))
			if err != nil {
				t.Fatal(err)
			}
			if got := runtime.ResultText(r); got != "Hello, Ada (x1)" {
				t.Errorf("greet: %q", got)
			}

			r, err = c.Call(ctx, "point", json.RawMessage(`{"x":1,"y":2}`))
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := r.StructuredContent.(json.RawMessage); !ok {
				t.Errorf("structured content is %T, want json.RawMessage", r.StructuredContent)
			}
			var p point
			if err := runtime.DecodeResult(r, false, &p); err != nil || p != (point{1, 2}) {
				t.Errorf("point: %+v, %v", p, err)
			}

			r, err = c.Call(ctx, "sum", json.RawMessage(`{"x":1,"y":2}`))
			if err != nil {
				t.Fatal(err)
			}
			var n int
			if err := runtime.DecodeResult(r, true, &n); err != nil || n != 3 {
				t.Errorf("sum: %d, %v (%s)", n, err, r.StructuredContent)
			}
		})
	}
}

func TestCallerErrors(t *testing.T) {
	ctx := context.Background()
	for name, c := range callers(t) {
		t.Run(name, func(t *testing.T) {
			_, err := c.Call(ctx, "refuse", json.RawMessage(`{"x":1,"y":2}`))
			var te *runtime.ToolError
			if !errors.As(err, &te) || te.Message != "No point at all." {
				t.Errorf("refuse: %#v", err)
			}
			_, err = c.Call(ctx, "crash", json.RawMessage(`{"x":1,"y":2}`))
			if !errors.As(err, &te) || te.Message == "" {
				t.Errorf("crash: %#v", err)
			}

			_, err = c.Call(ctx, "point", json.RawMessage(`{"x":101}`))
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("invalid arguments: %#v", err)
			}
			want := []runtime.ValidationIssue{
				{Path: "/x", Message: "must be <= 100 but found 101", Keyword: "maximum"},
				{Path: "/y", Message: "missing required property", Keyword: "required"},
			}
			if fmt.Sprint(ve.Issues) != fmt.Sprint(want) {
				t.Errorf("issues:\n got %v\nwant %v", ve.Issues, want)
			}

			_, err = c.Call(ctx, "point", json.RawMessage(`{"x":`))
			if !errors.As(err, &ve) || len(ve.Issues) != 1 {
				t.Errorf("malformed arguments: %#v", err)
			}

			_, err = c.Call(ctx, "nope", nil)
			if !errors.Is(err, runtime.ErrToolNotFound) {
				t.Errorf("unknown tool: %v", err)
			}
		})
	}
}

// The in-process caller gives the pipeline's own ToolError, with what
// only the server sees.
func TestInProcessToolError(t *testing.T) {
	c := runtime.InProcess(runtime.NewServer(callerTools(), &runtime.Options{Logger: discardLogger()}))
	_, err := c.Call(context.Background(), "refuse", json.RawMessage(`{"x":1,"y":2}`))
	var te *runtime.ToolError
	if !errors.As(err, &te) || te.DeveloperMessage != "refused" || !te.CanRetry {
		t.Errorf("%#v", err)
	}
}

func TestRESTCallerRefusals(t *testing.T) {
	ctx := context.Background()
	args := json.RawMessage(`{"name":"Ada"}`)

	// Execution off: a 403, not a tool's failure.
	hs := httptest.NewServer(house(runtime.NewServer(callerTools(), &runtime.Options{Logger: discardLogger()})))
	defer hs.Close()
	_, err := runtime.RESTCaller(hs.URL, nil).Call(ctx, "greet", args)
	var se *runtime.StatusError
	if !errors.As(err, &se) || se.StatusCode != 403 {
		t.Errorf("execution disabled: %#v", err)
	}

	// Behind bearer tokens: 401 without one, a result with it.
	hs2 := httptest.NewServer(house(runtime.NewServer(callerTools(), &runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens("s3cret"), Logger: discardLogger()})))
	defer hs2.Close()
	_, err = runtime.RESTCaller(hs2.URL, nil).Call(ctx, "greet", args)
	if !errors.As(err, &se) || se.StatusCode != 401 {
		t.Errorf("no token: %#v", err)
	}
	r, err := runtime.RESTCaller(hs2.URL+"/", runtime.BearerClient("s3cret", nil)).Call(ctx, "greet", args)
	if err != nil || runtime.ResultText(r) != "Hello, Ada (x1)" {
		t.Errorf("with a token: %v", err)
	}
}

func TestDecodeResultFromText(t *testing.T) {
	// A result without structured content (a client that reads only
	// text): its text is the value's JSON, or a string's own text.
	var p point
	if err := runtime.DecodeResult(runtime.TextResult(`{"X":3,"Y":4}`), true, &p); err != nil || p != (point{3, 4}) {
		t.Errorf("%+v %v", p, err)
	}
	var tm time.Time
	if err := runtime.DecodeResult(runtime.TextResult("2026-01-02T03:04:05Z"), false, &tm); err != nil || tm.Year() != 2026 {
		t.Errorf("%v %v", tm, err)
	}
	if err := runtime.DecodeResult(runtime.TextResult("not json"), false, &p); err == nil {
		t.Error("decoded text that is not JSON into a struct")
	}
}

// A Caller runs a tool of a *Server in this process, as a test would.
// A generated Client (toolgen -client) wraps one with typed methods.
func ExampleInProcess() {
	s := runtime.NewServer(runtime.ToolList{runtime.MustNewTool("greet", "Greets someone.", greet)}, nil)
	c := runtime.InProcess(s)
	r, err := c.Call(context.Background(), "greet", json.RawMessage(`{"name":"Ada","times":2}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(runtime.ResultText(r))

	_, err = c.Call(context.Background(), "greet", json.RawMessage(`{"times":5}`))
	var ve *runtime.ValidationError
	if errors.As(err, &ve) {
		for _, is := range ve.Issues {
			fmt.Println(is.Path, is.Keyword)
		}
	}
	// Output:
	// Hello, Ada (x2)
	// /name required
	// /times maximum
}

// MCPCaller calls tools over a go-sdk client session, here over
// Streamable HTTP.
func ExampleMCPCaller() {
	s := runtime.NewServer(runtime.ToolList{runtime.MustNewTool("greet", "Greets someone.", greet)}, nil)
	hs := httptest.NewServer(house(s))
	defer hs.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	r, err := runtime.MCPCaller(cs).Call(ctx, "greet", json.RawMessage(`{"name":"Ada"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(runtime.ResultText(r))
	// Output: Hello, Ada (x1)
}

// RESTCaller calls tools over the explorer's REST protocol, which needs
// AllowExecute; BearerClient sends a token to a server behind an auth
// hook.
func ExampleRESTCaller() {
	s := runtime.NewServer(runtime.ToolList{runtime.MustNewTool("greet", "Greets someone.", greet)},
		&runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens("s3cret")})
	hs := httptest.NewServer(house(s))
	defer hs.Close()

	c := runtime.RESTCaller(hs.URL, runtime.BearerClient("s3cret", nil))
	r, err := c.Call(context.Background(), "greet", json.RawMessage(`{"name":"Ada"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(runtime.ResultText(r))

	_, err = c.Call(context.Background(), "greet", json.RawMessage(`{"name":""}`))
	fmt.Println(err)
	// Output:
	// Hello, Ada (x1)
	// invalid arguments:
	// - /name: length must be >= 1, but got 0 (minLength)
}
