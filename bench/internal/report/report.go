// Package report turns the measurements of interleaved rounds into the
// peer tables of BENCHMARKS.md: it parses `go test -bench` output, takes
// the ratio of two impls within each round (both measured minutes apart
// on the same machine, so slow spells of a shared machine fall on both),
// summarises those ratios over the rounds, and renders Markdown.
package report

import (
	"bufio"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Bench is one benchmark result of one impl.
type Bench struct {
	NsPerOp, BytesPerOp, AllocsPerOp float64
}

// Round is what one round measured, by impl ID ("rest/handwritten").
type Round[T any] map[string]T

// benchLine is a result line: BenchmarkREST/impl=toolgen-2  300  30803 ns/op ...
// The -N after the name is GOMAXPROCS, absent when it is 1. methodLine is
// one of BenchmarkMCPMethods: BenchmarkMCPMethods/method=call/impl=mcpgo-2 ...
var (
	benchLine  = regexp.MustCompile(`^Benchmark(REST|MCP)/impl=([\w.-]+?)(?:-\d+)?\s+\d+\s+(.*)$`)
	methodLine = regexp.MustCompile(`^BenchmarkMCPMethods/method=([\w-]+)/impl=([\w.-]+?)(?:-\d+)?\s+\d+\s+(.*)$`)
)

// MethodID is the ID of a result of BenchmarkMCPMethods.
func MethodID(method, impl string) string { return "methods/" + method + "/" + impl }

// ParseBench reads the results of BenchmarkREST and BenchmarkMCP from
// `go test -bench` output, keyed "rest/NAME" and "mcp/NAME", and those of
// BenchmarkMCPMethods, keyed by MethodID. A result without ns/op is an
// error: it is what every result has.
func ParseBench(out string) (Round[Bench], error) {
	r := Round[Bench]{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var id string
		m := benchLine.FindStringSubmatch(sc.Text())
		if m != nil {
			id = strings.ToLower(m[1]) + "/" + m[2]
		} else if m = methodLine.FindStringSubmatch(sc.Text()); m != nil {
			id = MethodID(m[1], m[2])
		} else {
			continue
		}
		var b Bench
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q: %w", id, f[i], err)
			}
			switch f[i+1] {
			case "ns/op":
				b.NsPerOp = v
			case "B/op":
				b.BytesPerOp = v
			case "allocs/op":
				b.AllocsPerOp = v
			}
		}
		if b.NsPerOp == 0 {
			return nil, fmt.Errorf("%s: no ns/op in %q", id, sc.Text())
		}
		r[id] = b
	}
	return r, sc.Err()
}

// Summary is the middle and the range of a figure over the rounds.
type Summary struct {
	Median, Min, Max float64
	N                int
}

// Summarize summarises xs; the median of an even count is the mean of the
// two middle values.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Summary{Median: med, Min: s[0], Max: s[n-1], N: n}
}

// Of summarises one figure of one impl over the rounds that measured it.
func Of[T any](rounds []Round[T], id string, figure func(T) float64) Summary {
	var xs []float64
	for _, r := range rounds {
		if v, ok := r[id]; ok {
			xs = append(xs, figure(v))
		}
	}
	return Summarize(xs)
}

// Ratio compares two impls: Num's cost over Den's.
type Ratio struct {
	Label    string
	Num, Den string
}

// Ratios are the comparisons the report makes. A ratio above 1 means the
// first impl costs more than the second.
var Ratios = []Ratio{
	{"toolgen REST ÷ hand-written", "rest/toolgen", "rest/handwritten"},
	{"toolgen MCP stateful ÷ go-sdk raw (the SDK's floor)", "mcp/toolgen-stateful", "mcp/sdk-raw"},
	{"go-sdk typed ÷ go-sdk raw", "mcp/sdk-typed", "mcp/sdk-raw"},
	{"toolgen MCP stateless ÷ toolgen MCP stateful", "mcp/toolgen-stateless", "mcp/toolgen-stateful"},
	{"toolgen MCP stateful ÷ mcp-go validated", "mcp/toolgen-stateful", "mcp/mcpgo-validated"},
	{"toolgen MCP stateful ÷ mcp-go without validation", "mcp/toolgen-stateful", "mcp/mcpgo"},
	{"toolgen MCP 2026-07-28 ÷ mcp-go validated", "mcp/toolgen-2026", "mcp/mcpgo-validated"},
	{"toolgen MCP 2026-07-28 ÷ toolgen MCP stateful", "mcp/toolgen-2026", "mcp/toolgen-stateful"},
	{"toolgen 2026-07-28 tools/call with progress ÷ mcp-go validated", MethodID("call-progress", "toolgen-2026"), MethodID("call-progress", "mcpgo-validated")},
	{"toolgen 2026-07-28 tools/call with progress ÷ mcp-go", MethodID("call-progress", "toolgen-2026"), MethodID("call-progress", "mcpgo")},
	{"toolgen 2026-07-28 resources/read ÷ mcp-go", MethodID("resources-read", "toolgen-2026"), MethodID("resources-read", "mcpgo")},
	{"toolgen 2026-07-28 tools/call with progress ÷ its plain tools/call", MethodID("call-progress", "toolgen-2026"), MethodID("call", "toolgen-2026")},
	{"toolgen 2026-07-28 resources/read ÷ its plain tools/call", MethodID("resources-read", "toolgen-2026"), MethodID("call", "toolgen-2026")},
}

// PerRound summarises r's ratio over the rounds, each round's ratio taken
// from that round's two figures; cost gives an impl's cost in a round
// (time per call, or 1 ÷ throughput). Rounds missing either impl are
// left out.
func PerRound[T any](rounds []Round[T], r Ratio, cost func(T) float64) Summary {
	var xs []float64
	for _, round := range rounds {
		n, ok1 := round[r.Num]
		d, ok2 := round[r.Den]
		if ok1 && ok2 && cost(d) != 0 {
			xs = append(xs, cost(n)/cost(d))
		}
	}
	return Summarize(xs)
}
