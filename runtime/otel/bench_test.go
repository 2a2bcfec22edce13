package otel_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/otel"
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
