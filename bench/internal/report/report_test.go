package report

import (
	"strings"
	"testing"
	"time"
)

// Two rounds of `go test -bench` output, the second with GOMAXPROCS 1 (no
// suffix on the names).
var outputs = []string{`goos: linux
BenchmarkREST/impl=handwritten-2         	     300	      8000 ns/op	    3328 B/op	      31 allocs/op
BenchmarkREST/impl=toolgen-2             	     300	     24000 ns/op	    9859 B/op	     153 allocs/op
BenchmarkMCP/impl=sdk-raw-2              	     300	    400000 ns/op	  204140 B/op	     106 allocs/op
BenchmarkMCP/impl=toolgen-stateful-2     	     300	    440000 ns/op	  213313 B/op	     261 allocs/op
PASS
`, `BenchmarkREST/impl=handwritten         	     300	      10000 ns/op	    3328 B/op	      31 allocs/op
BenchmarkREST/impl=toolgen             	     300	     20000 ns/op	    9861 B/op	     153 allocs/op
BenchmarkMCP/impl=sdk-raw              	     300	    500000 ns/op	  204140 B/op	     106 allocs/op
BenchmarkMCP/impl=toolgen-stateful     	     300	    600000 ns/op	  213313 B/op	     261 allocs/op
`}

func parseAll(t *testing.T) []Round[Bench] {
	var rounds []Round[Bench]
	for _, o := range outputs {
		r, err := ParseBench(o)
		if err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, r)
	}
	return rounds
}

func TestParseBench(t *testing.T) {
	rounds := parseAll(t)
	want := Bench{NsPerOp: 24000, BytesPerOp: 9859, AllocsPerOp: 153}
	if got := rounds[0]["rest/toolgen"]; got != want {
		t.Errorf("rest/toolgen = %+v, want %+v", got, want)
	}
	if got := rounds[1]["mcp/toolgen-stateful"].NsPerOp; got != 600000 {
		t.Errorf("mcp/toolgen-stateful without a GOMAXPROCS suffix: %v ns/op", got)
	}
	if len(rounds[0]) != 4 || len(rounds[1]) != 4 {
		t.Errorf("rounds %v", rounds)
	}
	if _, err := ParseBench("BenchmarkREST/impl=x-2 \t 3 \t 12 B/op\n"); err == nil {
		t.Error("a result without ns/op parsed")
	}
	r, err := ParseBench("BenchmarkMCPMethods/method=call-progress/impl=mcpgo-validated-2 \t 100 \t 85651 ns/op \t 20857 B/op \t 317 allocs/op\n")
	if want := (Bench{NsPerOp: 85651, BytesPerOp: 20857, AllocsPerOp: 317}); err != nil || len(r) != 1 || r[MethodID("call-progress", "mcpgo-validated")] != want {
		t.Errorf("a result of BenchmarkMCPMethods: %v %v", r, err)
	}
}

// The ratios are taken within each round, then summarised: the rounds'
// ratios here are 3 and 2 (REST), 1.1 and 1.2 (MCP).
func TestRatioTable(t *testing.T) {
	got := RatioTable(parseAll(t), func(b Bench) float64 { return b.NsPerOp }).String()
	want := `| ratio | median | min–max | rounds |
| --- | --- | --- | --- |
| toolgen REST ÷ hand-written | **2.50x** | 2.00x–3.00x | 2 |
| toolgen MCP stateful ÷ go-sdk raw (the SDK's floor) | **1.15x** | 1.10x–1.20x | 2 |
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBenchTable(t *testing.T) {
	got := BenchTable(parseAll(t), []string{"rest/handwritten", "rest/toolgen", "mcp/mcpgo"}).String()
	want := "| impl | time/op (median) | min–max | B/op | allocs/op |\n| --- | --- | --- | --- | --- |\n" +
		"| `rest/handwritten` | 9.00 µs | 8.00 µs–10.00 µs | 3.25 KiB | 31 |\n" +
		"| `rest/toolgen` | 22.00 µs | 20.00 µs–24.00 µs | 9.63 KiB | 153 |\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Load ratios are of cost, 1 ÷ req/s: a server with half the throughput
// costs 2x.
func TestLoadRatios(t *testing.T) {
	rounds := []Round[Load]{
		{"rest/handwritten": {ReqPerSec: 10000, P50: time.Millisecond, P99: 5 * time.Millisecond}, "rest/toolgen": {ReqPerSec: 5000, P50: 2 * time.Millisecond, P99: 9 * time.Millisecond, ServerCPU: 0.97, ClientCPU: 0.5}},
		{"rest/handwritten": {ReqPerSec: 9000, P50: time.Millisecond, P99: 6 * time.Millisecond}, "rest/toolgen": {ReqPerSec: 3000, P50: 3 * time.Millisecond, P99: 10 * time.Millisecond, ServerCPU: 0.99, ClientCPU: 0.4}},
	}
	got := RatioTable(rounds, func(l Load) float64 { return 1 / l.ReqPerSec }).String()
	if !strings.Contains(got, "| toolgen REST ÷ hand-written | **2.50x** | 2.00x–3.00x | 2 |") {
		t.Errorf("got\n%s", got)
	}
	lt := LoadTable(rounds, []string{"rest/toolgen"}).String()
	if !strings.Contains(lt, "| `rest/toolgen` | 4,000 | 3,000–5,000 | 2.50 ms | 9.50 ms | 98% | 45% |") {
		t.Errorf("got\n%s", lt)
	}
}

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want Summary
	}{
		{[]float64{3, 1, 2}, Summary{2, 1, 3, 3}},
		{[]float64{4, 1, 3, 2}, Summary{2.5, 1, 4, 4}},
		{nil, Summary{}},
	} {
		if got := Summarize(c.xs); got != c.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", c.xs, got, c.want)
		}
	}
}

func TestSplice(t *testing.T) {
	doc := "# B\n\nintro\n\n" + Begin + "\nold\n" + End + "\n\n## Next\n"
	got, err := Splice(doc, "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# B\n\nintro\n\n" + Begin + "\nnew\n" + End + "\n\n## Next\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := Splice("no markers", "x"); err == nil {
		t.Error("Splice without markers did not fail")
	}
	if _, err := Splice(End+" "+Begin, "x"); err == nil {
		t.Error("Splice with the markers reversed did not fail")
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FormatNs(7568), "7.57 µs"},
		{FormatNs(338569), "338.6 µs"},
		{FormatNs(1234567), "1.23 ms"},
		{FormatNs(950), "950 ns"},
		{FormatBytes(512), "512 B"},
		{FormatBytes(213313), "208.3 KiB"},
		{FormatCount(1234567.4), "1,234,567"},
		{FormatCount(999), "999"},
		{FormatRatio(2.666), "2.67x"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
