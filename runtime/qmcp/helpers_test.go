package qmcp_test

import (
	"net/http"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// house is s with every surface mounted, as serve.Main serves it: the
// tests send their requests to /v1 there.
func house(s *runtime.Server) http.Handler { return serve.NewHandler(s, nil) }
