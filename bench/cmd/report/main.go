// Command report measures toolgen against its peers and writes the tables
// into BENCHMARKS.md, between its bench:peers markers. Run it from the
// bench module:
//
//	cd bench && go run ./cmd/report
//
// It builds the in-process benchmarks (package impls) and the server and
// load commands, then runs interleaved rounds: in each, every impl once
// in-process (each in a process of its own, so that no server's heap, a
// history store's records or an SDK's open sessions, weighs on the garbage
// collection of the impls measured after it), and every impl once under load
// over loopback TCP (the server pinned to one CPU, the load generator to
// another). The impls' order is rotated from round to round. Ratios are taken
// within a round and summarised over the rounds (median, min–max); the
// in-process results of all rounds also go to benchstat.
//
// A quick smoke run: go run ./cmd/report -rounds 2 -benchtime 100ms -d 1s -warmup 200ms
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/toolgen-go/toolgen/bench/impls"
	"github.com/toolgen-go/toolgen/bench/internal/report"
	"github.com/toolgen-go/toolgen/bench/load"
	"github.com/toolgen-go/toolgen/bench/wire"
)

// settings are the flags; the defaults are what the published tables are
// measured with.
type settings struct {
	Rounds    int
	BenchTime string
	Duration  time.Duration
	Warmup    time.Duration
	Conns     int
	ServerCPU string
	LoadCPU   string
	Pin       bool
	Out       string
	Raw       string
}

var defaults = settings{Rounds: 10, BenchTime: "1s", Duration: 5 * time.Second, Warmup: time.Second, Conns: 32, ServerCPU: "0", LoadCPU: "1", Pin: true, Out: "../BENCHMARKS.md"}

func main() {
	log.SetFlags(0)
	log.SetPrefix("report: ")
	s := defaults
	flag.IntVar(&s.Rounds, "rounds", s.Rounds, "interleaved rounds, of the in-process benchmarks and of the load runs")
	flag.StringVar(&s.BenchTime, "benchtime", s.BenchTime, "-test.benchtime of each in-process benchmark in a round")
	flag.DurationVar(&s.Duration, "d", s.Duration, "measured duration of each load run")
	flag.DurationVar(&s.Warmup, "warmup", s.Warmup, "unmeasured calls before each load run")
	flag.IntVar(&s.Conns, "c", s.Conns, "connections of each load run")
	flag.StringVar(&s.ServerCPU, "server-cpu", s.ServerCPU, "the CPU (taskset -c) the server runs on in the load runs")
	flag.StringVar(&s.LoadCPU, "load-cpu", s.LoadCPU, "the CPU (taskset -c) the load generator runs on")
	flag.BoolVar(&s.Pin, "pin", s.Pin, "pin the load runs' processes with taskset; without, the report says they were not")
	flag.StringVar(&s.Out, "o", s.Out, "the Markdown file to write the tables into, between its markers")
	flag.StringVar(&s.Raw, "raw", "", "keep the raw outputs (bench.txt, load.json) in this directory")
	flag.Parse()
	if s.Rounds < 1 || s.Conns < 1 {
		log.Fatal("-rounds and -c must be positive")
	}
	if err := run(s, commandLine()); err != nil {
		log.Fatal(err)
	}
}

// commandLine is how the report was asked for, to print with the tables.
func commandLine() string {
	cmd := "cd bench && go run ./cmd/report"
	flag.Visit(func(f *flag.Flag) {
		if f.Name != "o" && f.Name != "raw" {
			cmd += " -" + f.Name + "=" + f.Value.String()
		}
	})
	return cmd
}

func run(s settings, cmdline string) error {
	if _, err := os.Stat("go.mod"); err != nil || !isBenchModule() {
		return errors.New("run it in the bench module's directory: cd bench && go run ./cmd/report")
	}
	doc, err := os.ReadFile(s.Out)
	if err != nil {
		return err
	}
	if _, err := report.Splice(string(doc), ""); err != nil {
		return fmt.Errorf("%s: %w", s.Out, err)
	}
	if s.Pin {
		if _, err := exec.LookPath("taskset"); err != nil {
			return errors.New("taskset is not installed (util-linux): install it, or run with -pin=false")
		}
	}
	raw := s.Raw
	if raw == "" {
		if raw, err = os.MkdirTemp("", "toolgen-bench"); err != nil {
			return err
		}
		defer os.RemoveAll(raw)
	} else if err := os.MkdirAll(raw, 0o755); err != nil {
		return err
	}

	m := machineNow()
	log.Printf("building into %s", raw)
	bins, err := build(raw)
	if err != nil {
		return err
	}
	m.LoadBefore = loadAvg()

	var benchRounds []report.Round[report.Bench]
	var allBench bytes.Buffer
	var loadRounds []report.Round[report.Load]
	ids := implIDs()
	for r := range s.Rounds {
		log.Printf("round %d/%d: in-process benchmarks", r+1, s.Rounds)
		out, err := runBench(bins, s.BenchTime, ids, r)
		if err != nil {
			return err
		}
		methods, err := runMethods(bins, s.BenchTime, r)
		if err != nil {
			return err
		}
		out += methods
		allBench.WriteString(out)
		round, err := report.ParseBench(out)
		if err != nil {
			return err
		}
		if want := len(ids) + len(methodIDs()); len(round) != want {
			return fmt.Errorf("round %d: %d results, want %d:\n%s", r+1, len(round), want, out)
		}
		benchRounds = append(benchRounds, round)

		lr := report.Round[report.Load]{}
		for i := range ids {
			// Rotate the order so that no impl always runs first (on a
			// cold machine) or right after the same neighbour.
			id := ids[(i+r)%len(ids)]
			log.Printf("round %d/%d: load %s", r+1, s.Rounds, id)
			l, err := runLoad(bins, s, id)
			if err != nil {
				return fmt.Errorf("load %s: %w", id, err)
			}
			lr[id] = l
		}
		loadRounds = append(loadRounds, lr)
	}
	m.LoadAfter = loadAvg()
	benchFile := filepath.Join(raw, "bench.txt")
	if err := os.WriteFile(benchFile, allBench.Bytes(), 0o644); err != nil {
		return err
	}
	if j, err := json.MarshalIndent(loadRounds, "", "  "); err == nil {
		_ = os.WriteFile(filepath.Join(raw, "load.json"), j, 0o644)
	}
	stat := map[string]string{}
	for _, name := range []string{"REST", "MCP"} {
		if stat[name], err = benchstat(benchFile, name); err != nil {
			return err
		}
	}

	section := render(s, cmdline, m, benchRounds, stat, loadRounds)
	updated, err := report.Splice(string(doc), section)
	if err != nil {
		return err
	}
	if err := os.WriteFile(s.Out, []byte(updated), 0o644); err != nil {
		return err
	}
	fmt.Print(section)
	log.Printf("wrote %s", s.Out)
	return nil
}

func isBenchModule() bool {
	out, err := exec.Command("go", "list", "-m").Output()
	return err == nil && strings.TrimSpace(string(out)) == "github.com/toolgen-go/toolgen/bench"
}

func implIDs() []string {
	var ids []string
	for _, i := range impls.All() {
		ids = append(ids, i.ID())
	}
	return ids
}

// methodIDs are the results of BenchmarkMCPMethods, by report.MethodID.
func methodIDs() []string {
	var ids []string
	for _, m := range impls.Methods {
		for _, i := range impls.MethodImpls() {
			ids = append(ids, report.MethodID(m, i.Name))
		}
	}
	return ids
}

// binaries are the programs a report runs.
type binaries struct{ bench, server, load string }

func build(dir string) (binaries, error) {
	b := binaries{filepath.Join(dir, "impls.test"), filepath.Join(dir, "server"), filepath.Join(dir, "load")}
	for _, args := range [][]string{
		{"test", "-c", "-o", b.bench, "./impls"},
		{"build", "-o", b.server, "./cmd/server"},
		{"build", "-o", b.load, "./cmd/load"},
	} {
		cmd := exec.Command("go", args...)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return b, fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
		}
	}
	return b, nil
}

// runBench runs every impl's in-process benchmark once, each in a run of
// the test binary of its own, in the order rotated by round.
func runBench(b binaries, benchtime string, ids []string, round int) (string, error) {
	var all strings.Builder
	for i := range ids {
		impl, err := impls.Lookup(ids[(i+round)%len(ids)])
		if err != nil {
			return "", err
		}
		bench := "^BenchmarkREST$/^impl=" + impl.Name + "$"
		if impl.Protocol.Family() != wire.REST {
			bench = "^BenchmarkMCP$/^impl=" + impl.Name + "$"
		}
		cmd := exec.Command(b.bench, "-test.run", "^$", "-test.bench", bench, "-test.benchmem", "-test.count", "1", "-test.benchtime", benchtime)
		cmd.Dir = "impls"
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("the in-process benchmark of %s: %w\n%s", impl.ID(), err, out)
		}
		all.Write(out)
	}
	return all.String(), nil
}

// runMethods runs each result of BenchmarkMCPMethods once, each in a run
// of the test binary of its own, in an order rotated by round.
func runMethods(b binaries, benchtime string, round int) (string, error) {
	var all strings.Builder
	var runs [][2]string
	for _, m := range impls.Methods {
		for _, i := range impls.MethodImpls() {
			runs = append(runs, [2]string{m, i.Name})
		}
	}
	for k := range runs {
		m, impl := runs[(k+round)%len(runs)][0], runs[(k+round)%len(runs)][1]
		cmd := exec.Command(b.bench, "-test.run", "^$", "-test.bench", "^BenchmarkMCPMethods$/^method="+m+"$/^impl="+impl+"$",
			"-test.benchmem", "-test.count", "1", "-test.benchtime", benchtime)
		cmd.Dir = "impls"
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("the methods benchmark of %s, %s: %w\n%s", impl, m, err, out)
		}
		all.Write(out)
	}
	return all.String(), nil
}

func benchstat(file, name string) (string, error) {
	cmd := exec.Command("go", "tool", "benchstat", "-col", "/impl", "-filter", ".name:"+name, file)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("benchstat: %w", err)
	}
	return string(out), nil
}

// pinned runs a program on cpu with taskset, when pinning.
func pinned(s settings, cpu string, name string, args ...string) *exec.Cmd {
	if !s.Pin {
		return exec.Command(name, args...)
	}
	return exec.Command("taskset", append([]string{"-c", cpu, name}, args...)...)
}

// runLoad starts the server of impl id, drives it with the load
// generator, and stops it.
func runLoad(b binaries, s settings, id string) (report.Load, error) {
	impl, err := impls.Lookup(id)
	if err != nil {
		return report.Load{}, err
	}
	srv := pinned(s, s.ServerCPU, b.server, "-impl", id)
	srv.Stderr = os.Stderr
	stdout, err := srv.StdoutPipe()
	if err != nil {
		return report.Load{}, err
	}
	if err := srv.Start(); err != nil {
		return report.Load{}, err
	}
	srvStart := time.Now()
	defer func() {
		if srv.ProcessState == nil {
			srv.Process.Kill()
			srv.Wait()
		}
	}()
	url, err := firstLine(stdout, 10*time.Second)
	if err != nil {
		return report.Load{}, fmt.Errorf("the server's address: %w", err)
	}

	ld := pinned(s, s.LoadCPU, b.load, "-url", url, "-protocol", string(impl.Protocol),
		"-c", fmt.Sprint(s.Conns), "-d", s.Duration.String(), "-warmup", s.Warmup.String())
	ld.Stderr = os.Stderr
	ldStart := time.Now()
	out, err := ld.Output()
	if err != nil {
		return report.Load{}, err
	}
	ldWall := time.Since(ldStart)
	var res load.Result
	if err := json.Unmarshal(out, &res); err != nil {
		return report.Load{}, fmt.Errorf("the load generator's result %q: %w", out, err)
	}

	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		return report.Load{}, err
	}
	if err := srv.Wait(); err != nil {
		return report.Load{}, fmt.Errorf("the server: %w", err)
	}
	return report.Load{
		ReqPerSec: res.ReqPerSec, P50: res.P50, P99: res.P99,
		ServerCPU: cpuTime(srv.ProcessState) / time.Since(srvStart).Seconds(),
		ClientCPU: cpuTime(ld.ProcessState) / ldWall.Seconds(),
	}, nil
}

// cpuTime is a process's user and system time in seconds. Under taskset it
// is the program's (taskset execs it).
func cpuTime(ps *os.ProcessState) float64 {
	return (ps.UserTime() + ps.SystemTime()).Seconds()
}

// firstLine reads the first line r gives within timeout, and discards the
// rest in the background so that the writer never blocks on a full pipe.
func firstLine(r io.Reader, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case l, ok := <-line:
		if !ok || !strings.HasPrefix(l, "http://") {
			return "", fmt.Errorf("the server printed %q", l)
		}
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
