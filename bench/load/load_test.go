package load

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/bench/impls"
	"github.com/toolgen-go/toolgen/bench/wire"
)

// A short run against one server of each protocol over loopback TCP: the
// MCP one is toolgen's stateful server, so every connection sets up its
// own session.
func TestRun(t *testing.T) {
	for _, id := range []string{"rest/handwritten", "mcp/toolgen-stateful"} {
		t.Run(id, func(t *testing.T) {
			impl, err := impls.Lookup(id)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(impl.New())
			defer srv.Close()
			res, err := Run(context.Background(), Config{URL: srv.URL, Protocol: impl.Protocol, Conns: 4, Warmup: 50 * time.Millisecond, Duration: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			if res.Requests == 0 || res.ReqPerSec <= 0 || res.P50 <= 0 || res.P99 < res.P50 {
				t.Errorf("%+v", res)
			}
		})
	}
}

// A server that answers wrongly fails the run.
func TestRunWrongAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"structuredContent":{"city":"Oslo"}}`))
	}))
	defer srv.Close()
	_, err := Run(context.Background(), Config{URL: srv.URL, Protocol: wire.REST, Conns: 2, Duration: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "Oslo") {
		t.Fatalf("err = %v, want the wrong answer", err)
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	slices.Sort(d)
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 50}, {99, 99}, {100, 100}, {1, 1}, {0, 1}} {
		if got := Percentile(d, c.p); got != c.want {
			t.Errorf("Percentile(1..100, %v) = %v, want %v", c.p, got, c.want)
		}
	}
	if got := Percentile([]time.Duration{7}, 99); got != 7 {
		t.Errorf("Percentile of one = %v", got)
	}
}
