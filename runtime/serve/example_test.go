package serve_test

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

type greetInput struct {
	Name string `json:"name"`
}

func greet(_ context.Context, in greetInput) (string, error) { return "Hello, " + in.Name, nil }

// Main is the whole main of a server: it parses -addr, -allow-execute,
// -stdio, -stateless and -history, prints "Serving on http://HOST:PORT/",
// and serves every surface until SIGINT or SIGTERM. A generated package's
// Tools() (or (&T{...}).Tools() for methods) is what it serves.
func ExampleMain() {
	tools := runtime.ToolList{runtime.MustNewTool("greet", "Greets someone.", greet)}
	serve.Main(tools, &runtime.Options{
		Name:    "greeter",
		Title:   "Greeter",
		Version: "1.0.0",
	})
}
