package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/ops"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// metricsJSONTools are a tool that answers and one that fails.
func metricsJSONTools() runtime.ToolList {
	type msg struct {
		Message string `json:"message"`
	}
	return runtime.ToolList{
		runtime.MustNewTool("echo", "Echoes.", func(_ context.Context, in msg) (string, error) { return in.Message, nil }),
		runtime.MustNewTool("fail", "Fails.", func(_ context.Context, in msg) (string, error) { return "", errors.New("no") }),
	}
}

func getMetrics(t *testing.T, url string) (string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s %v", url, resp.StatusCode, b, err)
	}
	// Like every response of the server.
	if resp.Header.Get("X-Request-ID") == "" || resp.Header.Get("X-Correlation-ID") == "" {
		t.Errorf("GET %s: no X-Request-ID or X-Correlation-ID: %v", url, resp.Header)
	}
	return resp.Header.Get("Content-Type"), string(b)
}

// A sample of the text format: name{labels} value (labels sorted, as the
// text format writes them).
var (
	promSample = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$`)
	promLabel  = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)
)

// sampleKey is how both formats' samples are compared: name{k="v",...}
// with the labels sorted by name.
func sampleKey(name string, labels map[string]string) string {
	var ls []string
	for k, v := range labels {
		ls = append(ls, k+"="+strconv.Quote(v))
	}
	sort.Strings(ls)
	return name + "{" + strings.Join(ls, ",") + "}"
}

// parseProm reads /metrics: the type of each family, and each sample's
// value (histograms' and summaries' _count and _sum; no buckets).
func parseProm(t *testing.T, text string) (types map[string]string, samples map[string]float64) {
	t.Helper()
	types, samples = map[string]string{}, map[string]float64{}
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if f, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(f, " ")
			types[name] = typ
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		m := promSample.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("/metrics: cannot read %q", line)
		}
		labels := map[string]string{}
		for _, l := range promLabel.FindAllStringSubmatch(m[2], -1) {
			v, err := strconv.Unquote(`"` + l[2] + `"`)
			if err != nil {
				t.Fatalf("/metrics: label in %q: %v", line, err)
			}
			labels[l[1]] = v
		}
		if _, bucket := labels["le"]; bucket && strings.HasSuffix(m[1], "_bucket") {
			continue
		}
		if _, quantile := labels["quantile"]; quantile {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("/metrics: value in %q: %v", line, err)
		}
		samples[sampleKey(m[1], labels)] = v
	}
	return types, samples
}

// metricsJSON is the body of /metrics/json, qmcp's get_stats() shape.
type metricsJSON struct {
	Counters   map[string]map[string]float64 `json:"counters"`
	Gauges     map[string]map[string]float64 `json:"gauges"`
	Histograms map[string]map[string]struct {
		Count *uint64  `json:"count"`
		Sum   *float64 `json:"sum"`
	} `json:"histograms"`
}

// parseLabelsKey reads a series' key in /metrics/json back into its
// labels, checking that it is qmcp's: k="v" pairs sorted by name, joined
// with ",", "" without labels.
func parseLabelsKey(t *testing.T, key string) map[string]string {
	t.Helper()
	labels := map[string]string{}
	var names []string
	for rest := key; rest != ""; {
		m := promLabel.FindStringSubmatchIndex(rest)
		if m == nil || m[0] != 0 {
			t.Fatalf("label key %q: not k=\"v\" at %q", key, rest)
		}
		name, value := rest[m[2]:m[3]], rest[m[4]:m[5]]
		v, err := strconv.Unquote(`"` + value + `"`)
		if err != nil {
			t.Fatalf("label key %q: %v", key, err)
		}
		labels[name] = v
		names = append(names, name)
		rest = rest[m[1]:]
		if rest != "" {
			if rest[0] != ',' || len(rest) == 1 {
				t.Fatalf("label key %q: pairs not joined with \",\"", key)
			}
			rest = rest[1:]
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("label key %q: labels not sorted by name", key)
	}
	return labels
}

// GET /metrics/json is qmcp's get_stats(): what qmcp's own
// test_metrics.py::TestMetricsEndpoint::test_metrics_json_endpoint asserts
// (200, JSON, "counters", "gauges" and "histograms" at the top), each
// series keyed by its labels as qmcp keys them, a histogram as its count
// and sum; and it has the samples of /metrics: after calls on /v1, the
// invocation counters and durations and the request counters are the same
// in both, each family under the kind its type says.
func TestMetricsJSON(t *testing.T) {
	srv := httptest.NewServer(serve.NewHandler(runtime.NewServer(metricsJSONTools(), nil), nil))
	defer srv.Close()
	for _, c := range []string{"echo", "echo", "fail"} {
		resp, err := http.Post(srv.URL+"/v1/tools/"+c, "application/json", strings.NewReader(`{"input":{"message":"hi"}}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}

	// The first request of /metrics/json makes its route's counter, so
	// that both answers below have the same samples.
	getMetrics(t, srv.URL+"/metrics/json")
	ct, body := getMetrics(t, srv.URL+"/metrics/json")
	if ct != "application/json" {
		t.Errorf("/metrics/json: Content-Type %q", ct)
	}
	_, text := getMetrics(t, srv.URL+"/metrics")
	types, want := parseProm(t, text)

	// qmcp's test: the three keys at the top, and nothing else.
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &top); err != nil {
		t.Fatalf("/metrics/json: %v\n%s", err, body)
	}
	for _, k := range []string{"counters", "gauges", "histograms"} {
		if _, ok := top[k]; !ok {
			t.Errorf("/metrics/json: no %q: %.300s", k, body)
		}
	}
	if len(top) != 3 {
		t.Errorf("/metrics/json: keys other than counters, gauges and histograms: %.300s", body)
	}
	var got metricsJSON
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("/metrics/json: %v\n%s", err, body)
	}

	// The exact keys and values qmcp's get_stats() would give.
	if v, ok := got.Counters["toolgen_invocations_total"][`outcome="ok",surface="v1",tool="echo"`]; !ok || v != 2 {
		t.Errorf(`counters.toolgen_invocations_total["outcome=\"ok\",surface=\"v1\",tool=\"echo\""] = %v (present %v), want 2: %v`, v, ok, got.Counters["toolgen_invocations_total"])
	}
	if v := got.Counters["toolgen_invocations_total"][`outcome="failed",surface="v1",tool="fail"`]; v != 1 {
		t.Errorf("fail's failed calls: %v, want 1: %v", v, got.Counters["toolgen_invocations_total"])
	}
	h, ok := got.Histograms["toolgen_invocation_duration_seconds"][`surface="v1",tool="echo"`]
	if !ok || h.Count == nil || *h.Count != 2 || h.Sum == nil || *h.Sum <= 0 {
		t.Errorf("echo's durations: %+v (present %v), want count 2 and a sum", h, ok)
	} else if wantSum := want[sampleKey("toolgen_invocation_duration_seconds_sum", map[string]string{"tool": "echo", "surface": "v1"})]; *h.Sum != wantSum {
		t.Errorf("echo's durations: sum %v, %v in /metrics", *h.Sum, wantSum)
	}
	if v, ok := got.Gauges["go_goroutines"][""]; !ok || v < 1 {
		t.Errorf(`gauges.go_goroutines[""] = %v (present %v): a metric without labels is keyed ""`, v, ok)
	}

	// Each family of /metrics is under the kind of its type, and
	// toolgen's own samples are the same in both.
	kindOf := map[string]string{"counter": "counters", "gauge": "gauges", "untyped": "gauges", "histogram": "histograms", "summary": "histograms"}
	kinds := map[string]map[string]bool{"counters": {}, "gauges": {}, "histograms": {}}
	for name := range got.Counters {
		kinds["counters"][name] = true
	}
	for name := range got.Gauges {
		kinds["gauges"][name] = true
	}
	for name := range got.Histograms {
		kinds["histograms"][name] = true
	}
	for name, typ := range types {
		if !kinds[kindOf[typ]][name] {
			t.Errorf("%s (a %s in /metrics) is not under %q in /metrics/json", name, typ, kindOf[typ])
		}
	}
	compared := 0
	check := func(name, key string, labels map[string]string, v float64) {
		if !strings.HasPrefix(name, "toolgen_") {
			return // the Go runtime's and the process's metrics move between the two requests
		}
		// The JSON request itself was counted before /metrics was
		// gathered.
		if name == "toolgen_http_requests_total" && strings.HasSuffix(labels["route"], "/metrics/json") {
			v++
		}
		if w, ok := want[key]; !ok || w != v {
			t.Errorf("%s = %v in /metrics/json, %v (present %v) in /metrics", key, v, w, ok)
		}
		compared++
	}
	for _, kind := range []map[string]map[string]float64{got.Counters, got.Gauges} {
		for name, series := range kind {
			for key, v := range series {
				labels := parseLabelsKey(t, key)
				check(name, sampleKey(name, labels), labels, v)
			}
		}
	}
	for name, series := range got.Histograms {
		for key, h := range series {
			labels := parseLabelsKey(t, key)
			if h.Count == nil || h.Sum == nil {
				t.Errorf("%s[%s]: not count and sum: %+v", name, key, h)
				continue
			}
			check(name+"_count", sampleKey(name+"_count", labels), labels, float64(*h.Count))
			check(name+"_sum", sampleKey(name+"_sum", labels), labels, *h.Sum)
		}
	}
	for key := range want {
		if strings.HasPrefix(key, "toolgen_") {
			compared--
		}
	}
	if compared != 0 {
		t.Errorf("/metrics has %d toolgen samples more than /metrics/json", -compared)
	}
}

// /metrics/json moves with /metrics, and goes with it.
func TestMetricsJSONPath(t *testing.T) {
	for _, c := range []struct {
		opts      ops.EndpointOptions
		path      string
		status404 []string
	}{
		{ops.EndpointOptions{Path: "/stats"}, "/stats/json", []string{"/metrics/json"}},
		{ops.EndpointOptions{Path: "/stats/"}, "/stats/json", nil},
		{ops.EndpointOptions{Disable: true}, "", []string{"/metrics", "/metrics/json"}},
	} {
		srv := httptest.NewServer(serve.NewHandler(runtime.NewServer(metricsJSONTools(), nil), &serve.Options{Metrics: c.opts}))
		if c.path != "" {
			if _, body := getMetrics(t, srv.URL+c.path); !strings.Contains(body, `"go_goroutines":{"":`) {
				t.Errorf("%+v: GET %s: %s", c.opts, c.path, body)
			}
		}
		for _, p := range c.status404 {
			resp, err := http.Get(srv.URL + p)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("%+v: GET %s: %d", c.opts, p, resp.StatusCode)
			}
		}
		srv.Close()
	}
}
