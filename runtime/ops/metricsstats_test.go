package ops

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/toolgen-go/toolgen/runtime"
)

// The keys and kinds of /metrics/json beyond toolgen's own metrics: labels
// sorted by name (a before a1, which a plain sort of the k="v" strings
// gets wrong), values escaped as the text format escapes them, an untyped
// metric among the gauges, a summary among the histograms, and a value
// that is not a number as a string.
func TestMetricsJSONKinds(t *testing.T) {
	m := newMetrics(runtime.NewServer(runtime.ToolList{}, nil))
	odd := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "t_odd_total", Help: "h"}, []string{"a1", "a", "b"})
	odd.WithLabelValues("2", `x"y\z`+"\n", "").Add(3)
	sum := prometheus.NewSummary(prometheus.SummaryOpts{Name: "t_summary", Help: "h"})
	sum.Observe(1.5)
	sum.Observe(2)
	hist := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "t_hist", Help: "h", ConstLabels: prometheus.Labels{"k": "v"}})
	hist.Observe(0.25)
	m.reg.MustRegister(odd, sum, hist,
		prometheus.NewUntypedFunc(prometheus.UntypedOpts{Name: "t_untyped", Help: "h"}, func() float64 { return 7 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "t_nan", Help: "h"}, math.NaN),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "t_inf", Help: "h"}, func() float64 { return math.Inf(-1) }))

	w := httptest.NewRecorder()
	m.serveJSON(w, httptest.NewRequest("GET", "/metrics/json", nil))
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %v %s", w.Code, w.Header(), w.Body)
	}
	var got struct {
		Counters, Gauges map[string]map[string]any
		Histograms       map[string]map[string]map[string]any
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, w.Body)
	}
	if v := got.Counters["t_odd_total"][`a="x\"y\\z\n",a1="2",b=""`]; v != 3.0 {
		t.Errorf("t_odd_total: %v, want 3 under a=...,a1=...,b=\"\"", got.Counters["t_odd_total"])
	}
	if v := got.Gauges["t_untyped"][""]; v != 7.0 {
		t.Errorf("t_untyped among the gauges: %v", got.Gauges["t_untyped"])
	}
	if v := got.Gauges["t_nan"][""]; v != "NaN" {
		t.Errorf("t_nan: %v", got.Gauges["t_nan"])
	}
	if v := got.Gauges["t_inf"][""]; v != "-Inf" {
		t.Errorf("t_inf: %v", got.Gauges["t_inf"])
	}
	if s := got.Histograms["t_summary"][""]; s["count"] != 2.0 || s["sum"] != 3.5 || len(s) != 2 {
		t.Errorf("t_summary: %v, want count 2 and sum 3.5 alone", got.Histograms["t_summary"])
	}
	if s := got.Histograms["t_hist"][`k="v"`]; s["count"] != 1.0 || s["sum"] != 0.25 || len(s) != 2 {
		t.Errorf("t_hist: %v, want count 1 and sum 0.25 alone", got.Histograms["t_hist"])
	}
	for _, name := range []string{"t_summary", "t_hist"} {
		if _, ok := got.Counters[name]; ok {
			t.Errorf("%s among the counters", name)
		}
	}
	if !strings.Contains(w.Body.String(), `"count":2,`) {
		t.Errorf("a count is not an integer: %s", w.Body)
	}
}

// brokenCollector's metric cannot be gathered.
type brokenCollector struct{ desc *prometheus.Desc }

func (c brokenCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }
func (c brokenCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.NewInvalidMetric(c.desc, errors.New("collector internals: boom"))
}

// When the registry cannot be gathered, /metrics/json answers 500 with a
// JSON error that carries none of the gatherer's text.
func TestMetricsJSONGatherFails(t *testing.T) {
	m := newMetrics(runtime.NewServer(runtime.ToolList{}, nil))
	m.reg.MustRegister(brokenCollector{prometheus.NewDesc("t_broken", "h", nil, nil)})
	w := httptest.NewRecorder()
	m.serveJSON(w, httptest.NewRequest("GET", "/metrics/json", nil))
	if w.Code != http.StatusInternalServerError || w.Header().Get("Content-Type") != "application/json" ||
		strings.TrimSpace(w.Body.String()) != `{"error":"Failed to gather the metrics."}` {
		t.Errorf("%d %v %s", w.Code, w.Header(), w.Body)
	}
}
