// Package load drives a server over loopback TCP with a fixed number of
// connections, each calling as fast as its answers come (a closed loop),
// and measures the throughput and the latency of the calls.
package load

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/bench/wire"
)

// Config is one run.
type Config struct {
	// URL is the server's base, for example "http://127.0.0.1:8080".
	URL      string
	Protocol wire.Protocol
	// Conns is how many connections call at once; each has its own MCP
	// session.
	Conns int
	// Warmup is run first and not measured: connections are set up and
	// the server's pools and heap reach their working size.
	Warmup time.Duration
	// Duration is how long calls are measured.
	Duration time.Duration
}

// Result is what a run measured. Latencies are of whole calls as the
// client sees them: write, the server's work, read.
type Result struct {
	Requests  int           `json:"requests"`
	Seconds   float64       `json:"seconds"`
	ReqPerSec float64       `json:"req_per_sec"`
	P50       time.Duration `json:"p50_ns"`
	P99       time.Duration `json:"p99_ns"`
}

// Run runs cfg against a server. Any failed call, or an answer that is not
// the right result, fails the run: a wrong answer must not count as a
// fast one.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Conns < 1 || cfg.Duration <= 0 {
		return Result{}, errors.New("load: Conns and Duration must be positive")
	}
	// Set every connection (and session) up before any is timed.
	callers := make([]*wire.Caller, cfg.Conns)
	for i := range callers {
		c, err := wire.NewCaller(wire.Client(oneConnClient()), cfg.URL, cfg.Protocol)
		if err != nil {
			return Result{}, fmt.Errorf("connection %d: %w", i, err)
		}
		callers[i] = c
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	start := time.Now()
	measureFrom := start.Add(cfg.Warmup)
	end := measureFrom.Add(cfg.Duration)

	lat := make([][]time.Duration, cfg.Conns)
	var wg sync.WaitGroup
	for i, c := range callers {
		wg.Go(func() {
			for ctx.Err() == nil {
				t0 := time.Now()
				if t0.After(end) {
					return
				}
				if err := c.Call(); err != nil {
					cancel(fmt.Errorf("connection %d: %w", i, err))
					return
				}
				if t0.After(measureFrom) {
					lat[i] = append(lat[i], time.Since(t0))
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return Result{}, err
	}
	all := slices.Concat(lat...)
	if len(all) == 0 {
		return Result{}, errors.New("load: no call was measured")
	}
	slices.Sort(all)
	secs := cfg.Duration.Seconds()
	return Result{
		Requests:  len(all),
		Seconds:   secs,
		ReqPerSec: float64(len(all)) / secs,
		P50:       Percentile(all, 50),
		P99:       Percentile(all, 99),
	}, nil
}

// Percentile returns the p-th percentile of sorted durations, by the
// nearest rank.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(rank, len(sorted)-1))]
}

// oneConnClient is a client that keeps exactly one connection: the load's
// connections are its callers, each with its own client.
func oneConnClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 1,
		MaxConnsPerHost:     1,
		DisableCompression:  true,
	}}
}
