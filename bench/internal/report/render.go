package report

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Markers delimit the generated section in BENCHMARKS.md.
const (
	Begin = "<!-- bench:peers:begin -->"
	End   = "<!-- bench:peers:end -->"
)

// Splice replaces what stands between the markers in doc with section.
func Splice(doc, section string) (string, error) {
	before, rest, ok := strings.Cut(doc, Begin)
	if !ok {
		return "", errors.New("no " + Begin + " marker")
	}
	_, after, ok := strings.Cut(rest, End)
	if !ok {
		return "", errors.New("no " + End + " marker after " + Begin)
	}
	return before + Begin + "\n" + strings.TrimSpace(section) + "\n" + End + after, nil
}

// Table is a Markdown table.
type Table struct {
	Head []string
	Rows [][]string
}

func (t Table) String() string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Head)
	sep := make([]string, len(t.Head))
	for i := range sep {
		sep[i] = "---"
	}
	row(sep)
	for _, r := range t.Rows {
		row(r)
	}
	return b.String()
}

// RatioTable renders each ratio's median and range over the rounds.
func RatioTable[T any](rounds []Round[T], cost func(T) float64) Table {
	t := Table{Head: []string{"ratio", "median", "min–max", "rounds"}}
	for _, r := range Ratios {
		s := PerRound(rounds, r, cost)
		if s.N == 0 {
			continue
		}
		t.Rows = append(t.Rows, []string{r.Label, "**" + FormatRatio(s.Median) + "**", FormatRatio(s.Min) + "–" + FormatRatio(s.Max), strconv.Itoa(s.N)})
	}
	return t
}

// BenchTable renders each impl's in-process figures: the median over the
// rounds, with the range of time/op.
func BenchTable(rounds []Round[Bench], ids []string) Table {
	t := Table{Head: []string{"impl", "time/op (median)", "min–max", "B/op", "allocs/op"}}
	for _, id := range ids {
		ns := Of(rounds, id, func(b Bench) float64 { return b.NsPerOp })
		if ns.N == 0 {
			continue
		}
		bytes := Of(rounds, id, func(b Bench) float64 { return b.BytesPerOp })
		allocs := Of(rounds, id, func(b Bench) float64 { return b.AllocsPerOp })
		t.Rows = append(t.Rows, []string{"`" + id + "`", FormatNs(ns.Median), FormatNs(ns.Min) + "–" + FormatNs(ns.Max), FormatBytes(bytes.Median), FormatCount(allocs.Median)})
	}
	return t
}

// Load is what one load run measured: the load generator's figures, and
// the CPU time the server and the load generator used over the run's wall
// time (from start to exit, setup and warm-up included), as a fraction of
// one CPU. A server well below 1 was not the bottleneck: the load
// generator (or the network stack) was.
type Load struct {
	ReqPerSec            float64
	P50, P99             time.Duration
	ServerCPU, ClientCPU float64
}

// LoadTable renders each impl's load figures: medians over the rounds,
// with the range of req/s.
func LoadTable(rounds []Round[Load], ids []string) Table {
	t := Table{Head: []string{"impl", "req/s (median)", "min–max", "p50", "p99", "server CPU", "load gen CPU"}}
	for _, id := range ids {
		rps := Of(rounds, id, func(l Load) float64 { return l.ReqPerSec })
		if rps.N == 0 {
			continue
		}
		p50 := Of(rounds, id, func(l Load) float64 { return float64(l.P50) })
		p99 := Of(rounds, id, func(l Load) float64 { return float64(l.P99) })
		srv := Of(rounds, id, func(l Load) float64 { return l.ServerCPU })
		cli := Of(rounds, id, func(l Load) float64 { return l.ClientCPU })
		t.Rows = append(t.Rows, []string{"`" + id + "`", FormatCount(rps.Median), FormatCount(rps.Min) + "–" + FormatCount(rps.Max),
			FormatNs(p50.Median), FormatNs(p99.Median), FormatCount(100*srv.Median) + "%", FormatCount(100*cli.Median) + "%"})
	}
	return t
}

// FormatRatio writes a ratio as "2.67x".
func FormatRatio(x float64) string { return fmt.Sprintf("%.2fx", x) }

// FormatNs writes nanoseconds with a unit that keeps 3 or 4 significant
// figures: "950 ns", "7.57 µs", "338.6 µs", "1.23 ms".
func FormatNs(ns float64) string {
	switch {
	case ns >= 1e9:
		return sig(ns/1e9) + " s"
	case ns >= 1e6:
		return sig(ns/1e6) + " ms"
	case ns >= 1e3:
		return sig(ns/1e3) + " µs"
	}
	return FormatCount(ns) + " ns"
}

// FormatBytes writes a size in B, KiB or MiB.
func FormatBytes(b float64) string {
	switch {
	case b >= 1<<20:
		return sig(b/(1<<20)) + " MiB"
	case b >= 1<<10:
		return sig(b/(1<<10)) + " KiB"
	}
	return FormatCount(b) + " B"
}

// FormatCount writes a count rounded to a whole number, with thousands
// separated: "12,345".
func FormatCount(x float64) string {
	s := strconv.FormatInt(int64(math.Round(x)), 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// sig writes x (below 1000) with one decimal from 100 up, two below.
func sig(x float64) string {
	if x >= 100 {
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}
