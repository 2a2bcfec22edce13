package runtime

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
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

// SetLimiterClock makes s's rate limits read the time from now: a test
// whose calls go over a real socket moves the windows on by hand rather
// than waiting them out.
func SetLimiterClock(s *Server, now func() time.Time) { s.limiter.now = now }

// FakeClock is a clock a test moves on by hand.
type FakeClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewFakeClock returns a clock at a fixed instant.
func NewFakeClock() *FakeClock { return &FakeClock{t: time.Unix(1_700_000_000, 0)} }

// Now is the clock's time.
func (c *FakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Advance moves the clock on by d.
func (c *FakeClock) Advance(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }
