package impls

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/toolgen-go/toolgen/bench/forecast"
	"github.com/toolgen-go/toolgen/bench/wire"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
)

// BenchmarkRESTParts takes toolgen's REST call apart, to show where its
// distance from the hand-written handler goes (BENCHMARKS.md, "Where a
// REST call's time goes"): the whole server as users get it; the same
// with history kept nowhere (history.Discard: the recording middleware
// runs, the store does nothing); and, run straight through
// Server.Invoke with no HTTP at all, the pipeline with and without a
// store. The hand-written handler is the baseline.
//
//	go test -run '^$' -bench BenchmarkRESTParts -benchmem -count 6 ./impls > parts.txt
//	go tool benchstat -col /part parts.txt
func BenchmarkRESTParts(b *testing.B) {
	server := func(o runtime.Options) func() http.Handler {
		return func() http.Handler {
			o.AllowExecute, o.Logger = true, quiet
			return runtime.NewServer(forecast.Tools(), &o)
		}
	}
	for _, p := range []struct {
		name string
		new  func() http.Handler
	}{
		{"handwritten", handWritten},
		{"toolgen", server(runtime.Options{})},
		{"toolgen-history-discard", server(runtime.Options{History: history.Discard})},
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
