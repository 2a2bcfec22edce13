package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics, in Prometheus text at /metrics: invocations by tool, surface and
// outcome, their durations, HTTP requests by route and status, and history
// store errors. Each server has its own registry, so that two servers in
// one process (or in one test binary) do not share counters.

// defaultMetricsPath and defaultHealthPath are where /metrics and /health
// are served by default.
const (
	defaultMetricsPath = "/metrics"
	defaultHealthPath  = "/health"
)

// EndpointOptions switches off or moves a single endpoint: /health,
// /metrics or /openapi.json (Options.Health, Metrics, OpenAPI).
type EndpointOptions struct {
	// Disable turns the endpoint off.
	Disable bool
	// Path moves it. Default: "/health", "/metrics", "/openapi.json".
	Path string
}

type metrics struct {
	reg         *prometheus.Registry
	invocations *prometheus.CounterVec
	durations   *prometheus.HistogramVec
	requests    *prometheus.CounterVec
	storeErrors *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		invocations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolgen_invocations_total",
			Help: "Tool invocations, by tool, surface and outcome (ok, failed, invalid, timeout).",
		}, []string{"tool", "surface", "outcome"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "toolgen_invocation_duration_seconds",
			Help:    "How long tool invocations took, from lookup to result, by tool and surface.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10), // 100µs to 26s
		}, []string{"tool", "surface"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolgen_http_requests_total",
			Help: "HTTP requests, by route (the pattern that served them) and status code.",
		}, []string{"route", "code"}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolgen_history_store_errors_total",
			Help: "History store operations that failed, by operation (start, finish).",
		}, []string{"op"}),
	}
	m.reg.MustRegister(m.invocations, m.durations, m.requests, m.storeErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// middleware counts every call that reached a tool (a ValidateOnly call
// runs nothing and is not counted).
func (m *metrics) middleware(next InvokeFunc) InvokeFunc {
	return func(ctx context.Context, c *Call) *Outcome {
		out := next(ctx, c)
		if c.ValidateOnly || out.Tool == nil {
			return out
		}
		surface := c.Surface
		if surface == "" {
			surface = "direct"
		}
		m.invocations.WithLabelValues(out.Tool.Name, surface, out.Status.String()).Inc()
		m.durations.WithLabelValues(out.Tool.Name, surface).Observe(out.Duration.Seconds())
		return out
	}
}

func (m *metrics) storeError(op string) {
	if m != nil {
		m.storeErrors.WithLabelValues(op).Inc()
	}
}

// countRequests counts each request by the pattern that served it (the
// route, never the raw path, so that the label set stays small) and its
// status.
func (m *metrics) countRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		route := r.Pattern
		if route == "" {
			route = "other"
		}
		m.requests.WithLabelValues(route, strconv.Itoa(sw.code())).Inc()
	})
}

// statusWriter notes the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// version is the server's version, as MCP's serverInfo gives it.
func (s *Server) version() string {
	if s.opts.Version != "" {
		return s.opts.Version
	}
	_, v := buildIdentity()
	return v
}

// serveHealth is GET /health: healthy when the history store answers.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	version := s.version()
	err := s.history.Ping(ctx)
	if err == nil && s.writes.failing(time.Now()) {
		err = errors.New("the last writes of records failed")
	}
	if err != nil {
		s.log.ErrorContext(ctx, "health check: the history store fails", "err", err)
		store := "custom"
		if n, ok := s.history.(fmt.Stringer); ok {
			store = n.String()
		}
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unhealthy", "version": version, "error": "history store unreachable or not writable", "store": store})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "healthy", "version": version})
}
