// Package ops serves the operational endpoints of a [runtime.Server]:
// GET /health, Prometheus metrics at GET /metrics (and the same as JSON at
// /metrics/json), and the OpenAPI 3.1 document of the REST surfaces at
// GET /openapi.json. Each is a handler of its own; serve.NewHandler
// mounts them at those paths.
//
// The metrics count every call of the server, on whatever surfaces are
// mounted: [MetricsHandler] attaches their middleware to the server
// (runtime.Server.AddMiddleware), once per server however many handlers
// are built, and [CountRequests] counts the HTTP requests of a handler by
// route.
package ops

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
)

// operational is the surface of these endpoints: errors are
// {"error": message}, as the explorer's.
var operational = &httpkit.Surface{Name: runtime.SurfaceExplorer, WriteError: func(w http.ResponseWriter, e *httpkit.Error) {
	httpkit.WriteError(w, e.Status, e.Msg)
}}

// get is a GET endpoint of srv that cannot fail, mounted alone.
func get(srv *runtime.Server, h http.HandlerFunc, optionalAuth bool) http.Handler {
	return surface.Wrap(srv, operational, surface.Kit(srv).Handle(httpkit.Endpoint{Surface: operational, Methods: httpkit.MethodsGet, OptionalAuth: optionalAuth, Serve: httpkit.Always(h)}))
}

// metricsKey keeps a server's metrics with it.
type metricsKey struct{}

// metricsOf returns srv's metrics, made (and their middleware attached
// to srv) the first time.
func metricsOf(srv *runtime.Server) *metrics {
	return srv.Extension(metricsKey{}, func() any {
		m := newMetrics(srv)
		srv.AddMiddleware(m.middleware)
		return m
	}).(*metrics)
}

// MetricsHandler serves srv's metrics in Prometheus's text format: the
// calls of every surface, from the moment the first handler of this
// package was built for srv, and the HTTP requests [CountRequests]
// counts.
func MetricsHandler(srv *runtime.Server) http.Handler {
	return get(srv, metricsOf(srv).handler().ServeHTTP, false)
}

// MetricsJSONHandler serves the metrics of [MetricsHandler] as JSON, in
// qmcp's shape (see metrics.serveJSON).
func MetricsJSONHandler(srv *runtime.Server) http.Handler {
	return get(srv, metricsOf(srv).serveJSON, false)
}

// MetricsJSONPath is where the JSON of the metrics at path p is served:
// "/metrics/json" for "/metrics".
func MetricsJSONPath(p string) string { return metricsJSONPath(p) }

// CountRequests counts each request h answers in srv's metrics, by the
// pattern that served it (the route, never the raw path, so that the
// label set stays small) and its status.
func CountRequests(srv *runtime.Server, h http.Handler) http.Handler {
	return metricsOf(srv).countRequests(h)
}

// HealthHandler serves GET /health: 200 {"status":"healthy","version"}
// when the history store answers and its last writes did not fail, else
// 503 {"status":"unhealthy", "version", "error", "store"}.
func HealthHandler(srv *runtime.Server) http.Handler {
	return get(srv, func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		version := srv.Version()
		if err := srv.Health(ctx); err != nil {
			srv.Logger().ErrorContext(ctx, "health check: the history store fails", "err", err)
			httpkit.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unhealthy", "version": version, "error": "history store unreachable or not writable", "store": srv.HistoryName()})
			return
		}
		httpkit.WriteJSON(w, http.StatusOK, map[string]string{"status": "healthy", "version": version})
	}, false)
}

// storeErrors reports the server's failed history store operations
// (runtime.Server.StoreErrors) as a counter by operation.
type storeErrors struct{ srv *runtime.Server }

var storeErrorsDesc = prometheus.NewDesc("toolgen_history_store_errors_total",
	"History store operations that failed, by operation (start, finish).", []string{"op"}, nil)

func (c storeErrors) Describe(ch chan<- *prometheus.Desc) { ch <- storeErrorsDesc }

func (c storeErrors) Collect(ch chan<- prometheus.Metric) {
	for op, n := range c.srv.StoreErrors() {
		ch <- prometheus.MustNewConstMetric(storeErrorsDesc, prometheus.CounterValue, float64(n), op)
	}
}
