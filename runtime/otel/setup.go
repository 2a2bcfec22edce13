package otel

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"

	"go.opentelemetry.io/contrib/exporters/autoexport"
	gotel "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func init() {
	serve.Register(setupServer)
}

// setupServer is what serve.Main runs: tracing from the environment, when
// it asks for any, on the server's options.
func setupServer(ctx context.Context, o *runtime.Options) (func(context.Context) error, error) {
	if !Enabled() {
		return nil, nil
	}
	shutdown, err := Setup(ctx)
	if err != nil {
		return nil, err
	}
	if o.Tracer == nil {
		o.Tracer = NewTracer(&Options{Redact: o.RedactHistory})
	}
	if o.Logger != nil {
		o.Logger = slog.New(LogHandler(o.Logger.Handler()))
	}
	return shutdown, nil
}

// Enabled reports whether the environment asks for telemetry: an
// OTEL_TRACES_EXPORTER or OTEL_METRICS_EXPORTER other than "none", or an
// OTLP endpoint, and not OTEL_SDK_DISABLED=true. A server that imports
// this package and sets none of them exports nothing (there is no
// collector to send to).
func Enabled() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	for _, k := range []string{"OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER"} {
		if v := os.Getenv(k); v != "" && v != "none" {
			return true
		}
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// metricsAsked reports whether the environment asks for metrics: an
// OTEL_METRICS_EXPORTER other than "none", or an OTLP endpoint for them.
func metricsAsked() bool {
	if v := os.Getenv("OTEL_METRICS_EXPORTER"); v != "" {
		return v != "none"
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT") != ""
}

// Setup configures OpenTelemetry from the standard environment variables,
// through go.opentelemetry.io/contrib/exporters/autoexport: the trace
// exporter (OTEL_TRACES_EXPORTER=otlp|console|none, default otlp;
// OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, ...), the
// metric reader (OTEL_METRICS_EXPORTER, likewise; "none" unless set, or
// an OTLP endpoint is), the resource (OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES). It sets the global tracer and meter
// providers and the W3C trace-context and baggage propagator, and returns
// what flushes and stops them.
func Setup(ctx context.Context) (shutdown func(context.Context) error, err error) {
	res, err := resource.New(ctx, resource.WithFromEnv(), resource.WithTelemetrySDK(), resource.WithHost())
	if err != nil {
		return nil, err
	}
	spans, err := autoexport.NewSpanExporter(ctx)
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(spans), sdktrace.WithResource(res))
	gotel.SetTracerProvider(tp)
	gotel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if !metricsAsked() {
		return tp.Shutdown, nil
	}
	reader, err := autoexport.NewMetricReader(ctx)
	if err != nil {
		return nil, errors.Join(err, tp.Shutdown(ctx))
	}
	mp := metric.NewMeterProvider(metric.WithReader(reader), metric.WithResource(res))
	gotel.SetMeterProvider(mp)
	return func(ctx context.Context) error {
		return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
	}, nil
}
