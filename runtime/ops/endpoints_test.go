package ops_test

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
	"github.com/toolgen-go/toolgen/runtime/internal/testtools"
	"github.com/toolgen-go/toolgen/runtime/ops"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// Each endpoint can be switched off or moved on its own, and is served
// alone by its handler.
func TestEndpointsMovedAndOff(t *testing.T) {
	srv := runtime.NewServer(testtools.QMCP(), &runtime.Options{Logger: servertest.Discard(), Version: "1.2.3"})
	h := serve.NewHandler(srv, &serve.Options{Health: ops.EndpointOptions{Disable: true}, Metrics: ops.EndpointOptions{Path: "/internal/metrics"}})
	if r := servertest.Do(t, h, "GET", "/health", ""); r.Status != 404 {
		t.Errorf("health switched off: %d", r.Status)
	}
	if r := servertest.Do(t, h, "GET", "/internal/metrics", ""); r.Status != 200 || !strings.Contains(r.Body, "toolgen_http_requests_total") {
		t.Errorf("moved metrics: %d", r.Status)
	}
	if r := servertest.Do(t, h, "GET", "/internal/metrics/json", ""); r.Status != 200 || !strings.Contains(r.Body, `"counters"`) {
		t.Errorf("moved metrics JSON: %d", r.Status)
	}
	servertest.Do(t, ops.HealthHandler(srv), "GET", "/", "").Is(t, 200, `{"status":"healthy","version":"1.2.3"}`)
	if r := servertest.Do(t, ops.HealthHandler(srv), "POST", "/", ""); r.Status != 405 {
		t.Errorf("POST /health: %d", r.Status)
	}
}
