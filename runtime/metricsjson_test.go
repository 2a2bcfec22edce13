package runtime_test

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

type metricsJSON map[string]struct {
	Type    string `json:"type"`
	Help    string `json:"help"`
	Samples []struct {
		Labels map[string]string `json:"labels"`
		Value  *float64          `json:"value"`
		Count  *uint64           `json:"count"`
		Sum    *float64          `json:"sum"`
	} `json:"samples"`
}

// GET /metrics/json has the counters of /metrics: after calls on /v1, the
// invocation counters and durations and the request counters are the same
// in both, and each family of /metrics is in the JSON with its type.
func TestMetricsJSON(t *testing.T) {
	srv := httptest.NewServer(runtime.NewServer(metricsJSONTools(), nil))
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

	var got metricsJSON
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("/metrics/json: %v\n%s", err, body)
	}
	for name, typ := range types {
		if got[name].Type != typ {
			t.Errorf("%s: type %q in /metrics/json, %q in /metrics", name, got[name].Type, typ)
		}
	}
	compared := 0
	for name, f := range got {
		if f.Help == "" || f.Samples == nil {
			t.Errorf("%s: no help or samples: %+v", name, f)
		}
		for _, s := range f.Samples {
			if s.Labels == nil {
				t.Errorf("%s: a sample without labels: %s", name, body)
			}
			if f.Type == "histogram" || f.Type == "summary" {
				if s.Count == nil || s.Sum == nil || s.Value != nil {
					t.Errorf("%s: not count and sum: %+v", name, s)
				}
			} else if s.Value == nil || s.Count != nil || s.Sum != nil {
				t.Errorf("%s: not a value: %+v", name, s)
			}
			// toolgen's own metrics stay put between the two requests
			// (the Go runtime's and the process's do not); the JSON
			// request itself was counted before /metrics was gathered.
			if !strings.HasPrefix(name, "toolgen_") {
				continue
			}
			check := func(key string, v float64) {
				if name == "toolgen_http_requests_total" && strings.HasSuffix(s.Labels["route"], "/metrics/json") {
					v++
				}
				if w, ok := want[key]; !ok || w != v {
					t.Errorf("%s = %v in /metrics/json, %v (present %v) in /metrics", key, v, w, ok)
				}
				compared++
			}
			if s.Count != nil {
				check(sampleKey(name+"_count", s.Labels), float64(*s.Count))
				check(sampleKey(name+"_sum", s.Labels), *s.Sum)
			} else {
				check(sampleKey(name, s.Labels), *s.Value)
			}
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

	// The calls themselves.
	for key, n := range map[string]float64{
		sampleKey("toolgen_invocations_total", map[string]string{"tool": "echo", "surface": "v1", "outcome": "ok"}): 2,
		sampleKey("toolgen_invocation_duration_seconds_count", map[string]string{"tool": "echo", "surface": "v1"}):  2,
		sampleKey("toolgen_invocation_duration_seconds_count", map[string]string{"tool": "fail", "surface": "v1"}):  1,
	} {
		if want[key] != n {
			t.Errorf("%s = %v, want %v", key, want[key], n)
		}
	}
	var echoOK float64
	for _, s := range got["toolgen_invocations_total"].Samples {
		if s.Labels["tool"] == "echo" && s.Labels["surface"] == "v1" && s.Labels["outcome"] == "ok" {
			echoOK = *s.Value
		}
	}
	if echoOK != 2 {
		t.Errorf("/metrics/json: echo's calls: %v, want 2\n%s", echoOK, body)
	}
	if s := got["go_goroutines"].Samples; len(s) != 1 || len(s[0].Labels) != 0 || s[0].Value == nil {
		t.Errorf("go_goroutines: %+v", s)
	}
}

// /metrics/json moves with /metrics, and goes with it.
func TestMetricsJSONPath(t *testing.T) {
	for _, c := range []struct {
		opts      runtime.EndpointOptions
		path      string
		status404 []string
	}{
		{runtime.EndpointOptions{Path: "/stats"}, "/stats/json", []string{"/metrics/json"}},
		{runtime.EndpointOptions{Path: "/stats/"}, "/stats/json", nil},
		{runtime.EndpointOptions{Disable: true}, "", []string{"/metrics", "/metrics/json"}},
	} {
		srv := httptest.NewServer(runtime.NewServer(metricsJSONTools(), &runtime.Options{Metrics: c.opts}))
		if c.path != "" {
			if _, body := getMetrics(t, srv.URL+c.path); !strings.Contains(body, `"go_goroutines":{"type":"gauge"`) {
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
