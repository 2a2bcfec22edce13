package main

import (
	"github.com/toolgen-go/toolgen/runtime"
	_ "github.com/toolgen-go/toolgen/runtime/history/sqlite" // -history records into a SQLite file by default
	_ "github.com/toolgen-go/toolgen/runtime/otel"           // OpenTelemetry from OTEL_* (OTEL_TRACES_EXPORTER=console, ...)
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func main() {
	serve.Main(AllTools(), &runtime.Options{Title: "Weather tools"}, func(o *serve.Options) {
		o.Explorer.ProjectName, o.Explorer.ProjectURL = "toolgen", "https://github.com/toolgen-go/toolgen"
	})
}
