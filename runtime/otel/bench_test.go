package otel_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/testtools"
	"github.com/toolgen-go/toolgen/runtime/otel"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// BenchmarkInvoke is the cost tracing adds to a call: the same call
// through Server.Invoke untraced and traced (every span sampled, handed to
// a batch processor whose exporter discards them), side by side.
//
//	go test ./runtime/otel -run '^$' -bench Invoke -count 10 | benchstat -col /tracing -
func BenchmarkInvoke(b *testing.B) {
	tool := runtime.MustNewTool("get_weather", "The weather.", func(_ context.Context, in weatherIn) (string, error) {
		return "sunny in " + in.City, nil
	})
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { tp.Shutdown(context.Background()) })
	args := json.RawMessage(`{"city":"Oslo"}`)
	for _, bc := range []struct {
		name   string
		tracer runtime.Tracer
	}{
		{"tracing=off", nil},
		{"tracing=on", otel.NewTracer(&otel.Options{TracerProvider: tp})},
	} {
		s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{Tracer: bc.tracer, Logger: slog.New(slog.DiscardHandler)})
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if out := s.Invoke(context.Background(), &runtime.Call{Tool: "get_weather", Arguments: args, Surface: runtime.SurfaceV1}); out.Status != runtime.StatusOK {
					b.Fatal(out.Err)
				}
			}
		})
	}
}

// BenchmarkRESTCall is the cost tracing adds to a whole REST call: POST
// /tools/forecast/call through Server.ServeHTTP (the default memory
// history), untraced and traced (every span sampled, handed to a batch
// processor whose exporter discards them), side by side; steps is traced
// with Options.StepSpans. The aim is on ÷ off ≤ 1.10. It reports the process's CPU time a call as well
// (cpu-ns/op), which a loaded machine disturbs less than the wall time.
//
//	go test ./runtime/otel -run '^$' -bench RESTCall -count 8 | benchstat -col /tracing -
func BenchmarkRESTCall(b *testing.B) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { tp.Shutdown(context.Background()) })
	const body = `{"city":"Paris","days":3,"units":"celsius"}`
	for _, bc := range []struct {
		name   string
		tracer runtime.Tracer
	}{
		{"tracing=off", nil},
		{"tracing=on", otel.NewTracer(&otel.Options{TracerProvider: tp})},
		{"tracing=steps", otel.NewTracer(&otel.Options{TracerProvider: tp, StepSpans: true})},
	} {
		h := serve.NewHandler(runtime.NewServer(runtime.ToolList{testtools.ForecastTool()}, &runtime.Options{AllowExecute: true, Tracer: bc.tracer, Logger: slog.New(slog.DiscardHandler)}), nil)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			r := strings.NewReader(body)
			cpu := cpuTime()
			for b.Loop() {
				r.Reset(body)
				req := httptest.NewRequest(http.MethodPost, "/tools/forecast/call", r)
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
			// The CPU the calls took, beside the wall time: on a shared,
			// loaded machine the wall time also holds the waits for a
			// core, which this does not.
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
