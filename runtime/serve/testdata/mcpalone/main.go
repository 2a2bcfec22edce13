// A program that mounts MCP alone: TestOneSurfaceLinksNoOther lists what
// it links.
package main

import (
	"net/http"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

func main() {
	srv := runtime.NewServer(runtime.ToolList{}, nil)
	http.Handle("/mcp", mcp.NewHandler(srv, nil))
	_ = http.ListenAndServe("127.0.0.1:8080", nil)
}
