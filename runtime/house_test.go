package runtime_test

import (
	"net/http"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func init() {
	runtime.SetHouse(house)
}

// house is s with every surface mounted, as a program that calls
// serve.Main serves it.
func house(s *runtime.Server) http.Handler { return serve.NewHandler(s, nil) }
