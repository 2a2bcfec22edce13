package impls

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"

	"github.com/toolgen-go/toolgen/bench/forecast"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// toolgenREST is the whole house (serve.NewHandler) with its defaults,
// as a user gets it: the explorer's call path with validation, invocation history
// (in memory) and metrics. Only execution is allowed (it is off by
// default) and the log silenced.
func toolgenREST() http.Handler {
	return serve.NewHandler(runtime.NewServer(forecast.Tools(), &runtime.Options{AllowExecute: true, Logger: quiet}), nil)
}

// quiet drops the servers' logs: a log line per call would be measured.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// restResult is the explorer's answer to a call, written out by hand.
type restResult struct {
	Content           []textContent   `json:"content"`
	StructuredContent forecast.Result `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// handWritten is what a developer writes with net/http alone: decode the
// arguments into the struct, call the function, encode the same answer
// toolgen gives. No validation, no routing.
func handWritten() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in forecast.Input
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, err := forecast.Forecast(r.Context(), in)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		text, err := json.Marshal(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(restResult{Content: []textContent{{"text", string(text)}}, StructuredContent: out})
	})
}
