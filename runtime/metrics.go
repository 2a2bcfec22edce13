package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics, in Prometheus text at /metrics: invocations by tool, surface and
// outcome, their durations, HTTP requests by route and status, and history
// store errors. Each server has its own registry, so that two servers in
// one process (or in one test binary) do not share counters. The same
// metrics are JSON at /metrics/json (see [metrics.serveJSON]).

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

	// The series every call and request counts in, kept once made:
	// WithLabelValues hashes the labels and searches the vector under its
	// lock on every call. The keys are bounded as the label sets are
	// (tools, surfaces, outcomes; routes, status codes). requestSeries
	// holds a route's *seriesList of codes. A call's series are found with
	// its tool (toolSeries); the first two maps make them for that list,
	// and serve the outcomes that carry no tool looked up (a refusal
	// before validation, a middleware's own outcome).
	invocationSeries, durationSeries, requestSeries sync.Map
}

type invocationKey struct {
	tool, surface string
	status        Status
}

type durationKey struct{ tool, surface string }

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
		calls, took := m.callSeries(out, surface)
		calls.Inc()
		took.Observe(out.Duration.Seconds())
		return out
	}
}

// callSeries returns the series a call of out.Tool on surface that ended
// as out did counts in: from the tool's own list when the pipeline looked
// the tool up (see toolSeries), else from the server's maps.
func (m *metrics) callSeries(out *Outcome, surface string) (prometheus.Counter, prometheus.Observer) {
	ct := out.derived()
	if ct == nil {
		return m.invocation(out.Tool.Name, surface, out.Status), m.duration(out.Tool.Name, surface)
	}
	e := ct.series.get(callLabels{m, surface, out.Status}, func() callSeries {
		return callSeries{m.invocation(out.Tool.Name, surface, out.Status), m.duration(out.Tool.Name, surface)}
	})
	return e.calls, e.took
}

// toolSeries are the series one tool's calls count in, by surface and
// outcome, kept with the tool's derived schemas, which every call looks
// up anyway: the server's sync.Maps hash their struct keys through the
// key's type, about 400 instructions a lookup and two lookups a call
// (issue #27).
type toolSeries = seriesList[callLabels, callSeries]

// callLabels are a call's labels, and the metrics they are of: an
// outcome may come from another server's Invoke (a middleware that
// forwards calls), and its tool's list then holds that server's series
// too.
type callLabels struct {
	m       *metrics
	surface string
	status  Status
}

type callSeries struct {
	calls prometheus.Counter
	took  prometheus.Observer
}

// seriesList is a short list of metrics series by their labels: a tool's
// calls come on a few surfaces with a few outcomes, a route's requests
// end with a few status codes. It is read without a lock; a new entry
// copies it.
type seriesList[K comparable, V any] struct {
	mu      sync.Mutex // serialises adding
	entries atomic.Pointer[[]seriesItem[K, V]]
}

type seriesItem[K comparable, V any] struct {
	key K
	v   V
}

// get returns the series of key k, made by newV the first time.
func (l *seriesList[K, V]) get(k K, newV func() V) V {
	if v, ok := l.find(k); ok {
		return v
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if v, ok := l.find(k); ok {
		return v // a concurrent request added it
	}
	var list []seriesItem[K, V]
	if p := l.entries.Load(); p != nil {
		list = append(list, *p...)
	}
	v := newV()
	list = append(list, seriesItem[K, V]{k, v})
	l.entries.Store(&list)
	return v
}

func (l *seriesList[K, V]) find(k K) (V, bool) {
	if p := l.entries.Load(); p != nil {
		for _, it := range *p {
			if it.key == k {
				return it.v, true
			}
		}
	}
	var zero V
	return zero, false
}

// invocation is the counter of calls of tool on surface that ended so.
func (m *metrics) invocation(tool, surface string, status Status) prometheus.Counter {
	k := invocationKey{tool, surface, status}
	if c, ok := m.invocationSeries.Load(k); ok {
		return c.(prometheus.Counter)
	}
	c := m.invocations.WithLabelValues(tool, surface, status.String())
	m.invocationSeries.Store(k, c)
	return c
}

// duration is the histogram of the durations of tool's calls on surface.
func (m *metrics) duration(tool, surface string) prometheus.Observer {
	k := durationKey{tool, surface}
	if o, ok := m.durationSeries.Load(k); ok {
		return o.(prometheus.Observer)
	}
	o := m.durations.WithLabelValues(tool, surface)
	m.durationSeries.Store(k, o)
	return o
}

// request is the counter of requests route answered with code: the
// route's own list of codes, found by the route alone (a string key
// hashes quickly; see toolSeries).
func (m *metrics) request(route string, code int) prometheus.Counter {
	v, ok := m.requestSeries.Load(route)
	if !ok {
		v, _ = m.requestSeries.LoadOrStore(route, new(seriesList[int, prometheus.Counter]))
	}
	return v.(*seriesList[int, prometheus.Counter]).get(code, func() prometheus.Counter {
		return m.requests.WithLabelValues(route, strconv.Itoa(code))
	})
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
		m.request(route, sw.code()).Inc()
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

// metricsJSONPath is where the JSON of the metrics at path p is served:
// "/metrics/json" for "/metrics".
func metricsJSONPath(p string) string {
	return strings.TrimSuffix(p, "/") + "/json"
}

// serveJSON is GET /metrics/json: every metric of /metrics, gathered from
// the same registry, as one JSON object keyed by metric name (the names of
// /metrics, without the _count, _sum and _bucket series), its keys sorted:
//
//	{
//	  "toolgen_invocations_total": {
//	    "type": "counter",
//	    "help": "Tool invocations, by tool, surface and outcome (ok, failed, invalid, timeout).",
//	    "samples": [
//	      {"labels": {"outcome": "ok", "surface": "v1", "tool": "echo"}, "value": 3}
//	    ]
//	  },
//	  "toolgen_invocation_duration_seconds": {
//	    "type": "histogram",
//	    "help": "How long tool invocations took, from lookup to result, by tool and surface.",
//	    "samples": [
//	      {"labels": {"surface": "v1", "tool": "echo"}, "count": 3, "sum": 0.000412}
//	    ]
//	  },
//	  "go_goroutines": {"type": "gauge", "help": "...", "samples": [{"labels": {}, "value": 12}]},
//	  ...
//	}
//
// "type" is "counter", "gauge", "untyped", "histogram", "summary" or
// "gauge_histogram". "labels" is always an object ({} for a metric without
// labels). A counter, gauge or untyped sample has "value"; a histogram or
// summary sample has "count" (the number of observations, an integer) and
// "sum" instead, without buckets or quantiles. Samples are in the order
// /metrics writes them (by label values). A value that is not a finite
// number is the string "NaN", "+Inf" or "-Inf", as in the text format.
// When gathering fails the answer is 500 {"error": ...}, as /metrics
// answers 500.
func (m *metrics) serveJSON(w http.ResponseWriter, _ *http.Request) {
	families, err := m.reg.Gather()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Failed to gather the metrics: "+err.Error())
		return
	}
	out := make(map[string]metricFamilyJSON, len(families))
	for _, f := range families {
		fj := metricFamilyJSON{Type: strings.ToLower(f.GetType().String()), Help: f.GetHelp(), Samples: make([]metricSampleJSON, 0, len(f.GetMetric()))}
		for _, mt := range f.GetMetric() {
			s := metricSampleJSON{Labels: make(map[string]string, len(mt.GetLabel()))}
			for _, l := range mt.GetLabel() {
				s.Labels[l.GetName()] = l.GetValue()
			}
			switch {
			case mt.GetCounter() != nil:
				s.Value = jsonFloatOf(mt.GetCounter().GetValue())
			case mt.GetGauge() != nil:
				s.Value = jsonFloatOf(mt.GetGauge().GetValue())
			case mt.GetUntyped() != nil:
				s.Value = jsonFloatOf(mt.GetUntyped().GetValue())
			case mt.GetHistogram() != nil:
				n := mt.GetHistogram().GetSampleCount()
				s.Count, s.Sum = &n, jsonFloatOf(mt.GetHistogram().GetSampleSum())
			case mt.GetSummary() != nil:
				n := mt.GetSummary().GetSampleCount()
				s.Count, s.Sum = &n, jsonFloatOf(mt.GetSummary().GetSampleSum())
			}
			fj.Samples = append(fj.Samples, s)
		}
		out[f.GetName()] = fj
	}
	writeJSON(w, http.StatusOK, out)
}

// metricFamilyJSON is one metric of /metrics/json.
type metricFamilyJSON struct {
	Type    string             `json:"type"`
	Help    string             `json:"help"`
	Samples []metricSampleJSON `json:"samples"`
}

// metricSampleJSON is one sample: Value, or Count and Sum.
type metricSampleJSON struct {
	Labels map[string]string `json:"labels"`
	Value  *jsonFloat        `json:"value,omitempty"`
	Count  *uint64           `json:"count,omitempty"`
	Sum    *jsonFloat        `json:"sum,omitempty"`
}

// jsonFloat is a number in JSON, or "NaN", "+Inf" or "-Inf", which JSON
// has no numbers for.
type jsonFloat float64

func jsonFloatOf(v float64) *jsonFloat {
	f := jsonFloat(v)
	return &f
}

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	}
	return json.Marshal(v)
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
