// A program that mounts the OXP surface alone: TestOneSurfaceLinksNoOther
// lists what it links.
package main

import (
	"net/http"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/oxp"
)

func main() {
	srv := runtime.NewServer(runtime.ToolList{}, nil)
	_ = http.ListenAndServe("127.0.0.1:8080", oxp.NewHandler(srv, nil))
}
