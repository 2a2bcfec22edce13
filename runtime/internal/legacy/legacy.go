// Package legacy hands runtime/serve the handler of the surfaces that
// still live in the core package, while issue #40 moves them out one at a
// time: the core cannot import serve, and is no longer an http.Handler
// itself. The core sets Handler from its init function. This package
// goes when the last surface has its own.
package legacy

import "net/http"

// Handler returns the core's own surfaces of a *runtime.Server.
var Handler func(srv any) http.Handler

// Patterns returns the patterns the core's own surfaces are mounted at.
var Patterns func(srv any) []string
