package ops

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// Metrics, in Prometheus text at /metrics: invocations by tool, surface and
// outcome, their durations, HTTP requests by route and status, and history
// store errors. Each server has its own registry, so that two servers in
// one process (or in one test binary) do not share counters. The same
// metrics are JSON at /metrics/json (see [metrics.serveJSON]).

// DefaultMetricsPath and DefaultHealthPath are where serve.NewHandler
// serves /metrics and /health unless their options move them.
const (
	DefaultMetricsPath = "/metrics"
	DefaultHealthPath  = "/health"
)

// EndpointOptions switches off or moves a single endpoint: /health,
// /metrics or /openapi.json (serve.Options.Health, Metrics, OpenAPI).
type EndpointOptions struct {
	// Disable turns the endpoint off.
	Disable bool
	// Path moves it. Default: "/health", "/metrics", "/openapi.json".
	Path string
}

// metrics are one server's metrics, kept with it (Server.Extension), so
// that every handler mounted for it counts in the same registry.
type metrics struct {
	reg         *prometheus.Registry
	invocations *prometheus.CounterVec
	durations   *prometheus.HistogramVec
	requests    *prometheus.CounterVec

	// The series every call and request counts in, kept once made:
	// WithLabelValues hashes the labels and searches the vector under its
	// lock on every call. The keys are bounded as the label sets are
	// (tools, surfaces, outcomes; routes, status codes). requestSeries
	// holds a route's *seriesList of codes. A call's series are found with
	// its tool (Outcome.ToolValue); the first two maps make them for that list,
	// and serve the outcomes that carry no tool looked up (a refusal
	// before validation, a middleware's own outcome).
	invocationSeries, durationSeries, requestSeries sync.Map
	// slot is where the series of each tool's calls are kept with it.
	slot runtime.ToolSlot
}

type invocationKey struct {
	tool, surface string
	status        runtime.Status
}

type durationKey struct{ tool, surface string }

func newMetrics(srv *runtime.Server) *metrics {
	m := &metrics{
		slot: runtime.NewToolSlot(),
		reg:  prometheus.NewRegistry(),
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
	}
	m.reg.MustRegister(m.invocations, m.durations, m.requests, storeErrors{srv},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// middleware counts every call that reached a tool (a ValidateOnly call
// runs nothing and is not counted).
func (m *metrics) middleware(next runtime.InvokeFunc) runtime.InvokeFunc {
	return func(ctx context.Context, c *runtime.Call) *runtime.Outcome {
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
// the tool up (see Outcome.ToolValue), else from the server's maps.
func (m *metrics) callSeries(out *runtime.Outcome, surface string) (prometheus.Counter, prometheus.Observer) {
	v := out.ToolValue(m.slot, func() any { return new(toolSeries) })
	if v == nil {
		return m.invocation(out.Tool.Name, surface, out.Status), m.duration(out.Tool.Name, surface)
	}
	e := v.(*toolSeries).get(callLabels{surface, out.Status}, func() callSeries {
		return callSeries{m.invocation(out.Tool.Name, surface, out.Status), m.duration(out.Tool.Name, surface)}
	})
	return e.calls, e.took
}

// toolSeries are the series one tool's calls count in, by surface and
// outcome, kept with the tool (Outcome.ToolValue, in the metrics' slot),
// found with what every call looks up anyway: the server's sync.Maps hash
// their struct keys through the key's type, about 400 instructions a
// lookup and two lookups a call (issue #27).
type toolSeries = seriesList[callLabels, callSeries]

// callLabels are a call's labels. (An outcome from another server's
// Invoke, a middleware that forwards calls, keeps each server's series in
// that server's metrics' own slot.)
type callLabels struct {
	surface string
	status  runtime.Status
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
func (m *metrics) invocation(tool, surface string, status runtime.Status) prometheus.Counter {
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
// hashes quickly; see callSeries).
func (m *metrics) request(route string, code int) prometheus.Counter {
	v, ok := m.requestSeries.Load(route)
	if !ok {
		v, _ = m.requestSeries.LoadOrStore(route, new(seriesList[int, prometheus.Counter]))
	}
	return v.(*seriesList[int, prometheus.Counter]).get(code, func() prometheus.Counter {
		return m.requests.WithLabelValues(route, strconv.Itoa(code))
	})
}

// countRequests counts each request by the pattern that served it (the
// route, never the raw path, so that the label set stays small) and its
// status.
func (m *metrics) countRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		route := r.Pattern
		if st := httpkit.StateFrom(r.Context()); st != nil && st.Route != "" {
			route = st.Route // the endpoint's, under the handlers it is mounted in
		}
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
// the same registry, in qmcp's shape (its MetricsRegistry.get_stats(), which
// qmcp's own tests and clients read):
//
//	{
//	  "counters": {
//	    "toolgen_invocations_total": {
//	      "outcome=\"ok\",surface=\"v1\",tool=\"echo\"": 3
//	    }
//	  },
//	  "gauges": {
//	    "go_goroutines": {"": 12}
//	  },
//	  "histograms": {
//	    "toolgen_invocation_duration_seconds": {
//	      "surface=\"v1\",tool=\"echo\"": {"count": 3, "sum": 0.000412}
//	    }
//	  }
//	}
//
// The three keys are always there ({} when there is nothing of a kind).
// Under each is the metric's name as /metrics writes it (without the
// _count, _sum and _bucket series), then one entry per series, keyed by
// its labels as qmcp keys them (see [labelsKey]). Counters and gauges map
// to their value; an untyped metric counts as a gauge. Histograms, and
// summaries with them, map to {"count": n, "sum": s} (count an integer; no
// buckets or quantiles). A value that is not a finite number is the string
// "NaN", "+Inf" or "-Inf", as in the text format. When gathering fails the
// answer is 500 {"error": "Failed to gather the metrics."}; /metrics
// then answers 500 too, saying why.
func (m *metrics) serveJSON(w http.ResponseWriter, _ *http.Request) {
	stats, err := statsOf(m.reg)
	if err != nil {
		httpkit.WriteError(w, http.StatusInternalServerError, "Failed to gather the metrics.")
		return
	}
	httpkit.WriteJSON(w, http.StatusOK, stats)
}

// metricsStats is the body of /metrics/json.
type metricsStats struct {
	Counters   map[string]map[string]*jsonFloat     `json:"counters"`
	Gauges     map[string]map[string]*jsonFloat     `json:"gauges"`
	Histograms map[string]map[string]histogramStats `json:"histograms"`
}

// histogramStats is a histogram's (or a summary's) series in
// /metrics/json.
type histogramStats struct {
	Count uint64     `json:"count"`
	Sum   *jsonFloat `json:"sum"`
}

// statsOf gathers g's metrics and sorts them into qmcp's three kinds.
func statsOf(g prometheus.Gatherer) (metricsStats, error) {
	families, err := g.Gather()
	if err != nil {
		return metricsStats{}, err
	}
	out := metricsStats{
		Counters:   map[string]map[string]*jsonFloat{},
		Gauges:     map[string]map[string]*jsonFloat{},
		Histograms: map[string]map[string]histogramStats{},
	}
	values := func(kind map[string]map[string]*jsonFloat, name string) map[string]*jsonFloat {
		if kind[name] == nil {
			kind[name] = map[string]*jsonFloat{}
		}
		return kind[name]
	}
	for _, f := range families {
		name := f.GetName()
		for _, mt := range f.GetMetric() {
			key := labelsKey(mt.GetLabel())
			switch {
			case mt.GetCounter() != nil:
				values(out.Counters, name)[key] = jsonFloatOf(mt.GetCounter().GetValue())
			case mt.GetGauge() != nil:
				values(out.Gauges, name)[key] = jsonFloatOf(mt.GetGauge().GetValue())
			case mt.GetUntyped() != nil:
				values(out.Gauges, name)[key] = jsonFloatOf(mt.GetUntyped().GetValue())
			case mt.GetHistogram() != nil, mt.GetSummary() != nil:
				var h histogramStats
				if hg := mt.GetHistogram(); hg != nil {
					h = histogramStats{hg.GetSampleCount(), jsonFloatOf(hg.GetSampleSum())}
				} else {
					sm := mt.GetSummary()
					h = histogramStats{sm.GetSampleCount(), jsonFloatOf(sm.GetSampleSum())}
				}
				if out.Histograms[name] == nil {
					out.Histograms[name] = map[string]histogramStats{}
				}
				out.Histograms[name][key] = h
			}
		}
	}
	return out, nil
}

// labelsKey is a series' key in /metrics/json, as qmcp's registry makes
// it: the labels' k="v" pairs sorted by name and joined with ",", or ""
// for a series without labels. A value is escaped as the text format
// escapes it (\\, \" and \n), so that a key always reads back into its
// labels; the values toolgen's own metrics have need no escaping, and
// their keys are exactly qmcp's.
func labelsKey[L interface {
	GetName() string
	GetValue() string
}](labels []L) string {
	if len(labels) == 0 {
		return ""
	}
	sorted := slices.Clone(labels) // client_golang sorts them already; a Gatherer need not
	slices.SortFunc(sorted, func(a, b L) int { return strings.Compare(a.GetName(), b.GetName()) })
	var b strings.Builder
	for i, l := range sorted {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.GetName() + `="` + labelValueEscaper.Replace(l.GetValue()) + `"`)
	}
	return b.String()
}

var labelValueEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

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
