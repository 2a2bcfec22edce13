package runtime

import (
	"net/http"
	"net/http/httptest"
)

// house is a server's whole house, every surface mounted as
// serve.NewHandler mounts them. This package's own tests cannot import
// runtime/serve (it imports this package), so house_test.go, an external
// test file of the same test binary, sets it from its init function.
var house func(*Server) http.Handler

// SetHouse sets house; house_test.go calls it.
func SetHouse(f func(*Server) http.Handler) { house = f }

// houseOf is h, or the house of h when h is a *Server: what the tests
// send their requests to.
func houseOf(h any) http.Handler {
	if s, ok := h.(*Server); ok {
		return house(s)
	}
	return h.(http.Handler)
}

// newHTTPTest is httptest.NewServer for houseOf(h).
func newHTTPTest(h any) *httptest.Server { return httptest.NewServer(houseOf(h)) }

// validateResponse is the body of the explorer's POST /tools/{name}/validate.
type validateResponse struct {
	Valid  bool              `json:"valid"`
	Errors []ValidationIssue `json:"errors,omitempty"`
}
