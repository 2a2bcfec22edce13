package impls

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/toolgen-go/toolgen/bench/forecast"
	"github.com/toolgen-go/toolgen/bench/wire"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/history"
	tgmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// BenchmarkRESTParts takes toolgen's REST call apart, to show where its
// distance from the hand-written handler goes (BENCHMARKS.md, "The aims
// of issue #27"): the whole server as users get it; the same
// with history kept nowhere (history.Discard: the recording middleware
// runs, the store does nothing); the explorer mounted alone
// (explorer.NewHandler, so no metrics) with history kept nowhere, the
// floor of toolgen's REST path with the optional work taken out (what
// is left: routing, the request and correlation ids, the body limit,
// validation, the pipeline's policy steps); and, run straight through
// Server.Invoke with no HTTP at all, the pipeline with and without a
// store. The hand-written handler is the baseline.
//
//	go test -run '^$' -bench BenchmarkRESTParts -benchmem -count 6 ./impls > parts.txt
//	go tool benchstat -col /part parts.txt
func BenchmarkRESTParts(b *testing.B) {
	server := func(o runtime.Options) func() http.Handler {
		return func() http.Handler {
			o.AllowExecute, o.Logger = true, quiet
			return serve.NewHandler(runtime.NewServer(forecast.Tools(), &o), nil)
		}
	}
	for _, p := range []struct {
		name string
		new  func() http.Handler
	}{
		{"handwritten", handWritten},
		{"toolgen", server(runtime.Options{})},
		{"toolgen-history-discard", server(runtime.Options{History: history.Discard})},
		{"explorer-alone-history-discard", func() http.Handler {
			return explorer.NewHandler(runtime.NewServer(forecast.Tools(), &runtime.Options{AllowExecute: true, Logger: quiet, History: history.Discard}), nil)
		}},
	} {
		b.Run("part="+p.name, func(b *testing.B) {
			callLoop(b, caller(b, Impl{Name: p.name, Protocol: wire.REST, New: p.new}))
		})
	}
	for _, p := range []struct {
		name  string
		store history.Store
	}{
		{"invoke", nil},
		{"invoke-history-discard", history.Discard},
	} {
		b.Run("part="+p.name, func(b *testing.B) {
			s := runtime.NewServer(forecast.Tools(), &runtime.Options{AllowExecute: true, Logger: quiet, History: p.store})
			args := json.RawMessage(wire.Args)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				out := s.Invoke(ctx, &runtime.Call{Tool: "forecast", Arguments: args, Surface: runtime.SurfaceExplorer})
				if out.Status != runtime.StatusOK {
					b.Fatal(out.Err)
				}
			}
		})
	}
}

// BenchmarkSessionParts is toolgen's MCP session path (2025-11-25, JSON
// responses) beside the go-sdk's raw floor, with toolgen's history in the
// default memory store and kept nowhere (history.Discard): what the
// store's live records cost the garbage collection of a server whose SDK
// makes about 200 KiB of garbage a call. Run each part in a process of
// its own, on one CPU as the load runs' server is (BENCHMARKS.md, "The
// aims of issue #27"):
//
//	go test -c -o impls.test ./impls && cd impls
//	for i in $(seq 6); do for p in sdk-raw toolgen toolgen-history-discard; do
//	  GOMAXPROCS=1 ../impls.test -test.run '^$' -test.bench "BenchmarkSessionParts/part=$p\$" -test.benchmem
//	done; done > sessions.txt
//	go tool benchstat -col /part sessions.txt
func BenchmarkSessionParts(b *testing.B) {
	for _, p := range []struct {
		name string
		new  func() http.Handler
	}{
		{"sdk-raw", sdkRaw},
		{"toolgen", toolgenMCP(false)},
		{"toolgen-history-discard", func() http.Handler {
			return serve.NewHandler(runtime.NewServer(forecast.Tools(), &runtime.Options{
				Logger:  quiet,
				History: history.Discard,
			}), &serve.Options{MCP: tgmcp.Options{JSONResponse: true}})
		}},
	} {
		b.Run("part="+p.name, func(b *testing.B) {
			callLoop(b, caller(b, Impl{Name: p.name, Protocol: wire.MCP, New: p.new}))
		})
	}
}
