// A program that mounts the Tool Explorer alone: TestOneSurfaceLinksNoOther
// lists what it links.
package main

import (
	"net/http"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
)

func main() {
	srv := runtime.NewServer(runtime.ToolList{}, nil)
	_ = http.ListenAndServe("127.0.0.1:8080", explorer.NewHandler(srv, nil))
}
