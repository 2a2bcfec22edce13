package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The call-path benchmark: the full POST /tools/{name}/call handler for a
// three-argument tool against a hand-written net/http handler that decodes
// the same arguments into a struct, calls the same function and encodes the
// same result, without validation. See BENCHMARKS.md.

type forecastIn struct {
	City  string `json:"city"`
	Days  int    `json:"days"`
	Units string `json:"units"`
}

type forecastOut struct {
	City    string  `json:"city"`
	Days    int     `json:"days"`
	High    float64 `json:"high"`
	Summary string  `json:"summary"`
}

func forecast(_ context.Context, in forecastIn) (forecastOut, error) {
	return forecastOut{City: in.City, Days: in.Days, High: 21.5, Summary: "sunny in " + in.Units}, nil
}

const forecastSchema = `{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,"maximum":14},"units":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","days","units"],"additionalProperties":false}`

const forecastBody = `{"city":"Paris","days":3,"units":"celsius"}`

// forecastTool is what toolgen generates for forecast.
func forecastTool() Tool {
	return Tool{
		Name:        "forecast",
		InputSchema: json.RawMessage(forecastSchema),
		Handler: func(ctx context.Context, args json.RawMessage) (*Result, error) {
			var in forecastIn
			if err := DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			out, err := forecast(ctx, in)
			if err != nil {
				return nil, err
			}
			return StructuredResult(out)
		},
	}
}

// handWritten is the baseline: what a developer writes with net/http alone.
func handWritten(w http.ResponseWriter, r *http.Request) {
	var in forecastIn
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	out, err := forecast(r.Context(), in)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	res, err := StructuredResult(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(res)
}

func benchHandler(b *testing.B, h http.Handler, path string) {
	b.ReportAllocs()
	body := strings.NewReader(forecastBody)
	for b.Loop() {
		body.Reset(forecastBody)
		req := httptest.NewRequest(http.MethodPost, path, body)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

func BenchmarkCall(b *testing.B) {
	b.Run("impl=handwritten", func(b *testing.B) {
		benchHandler(b, http.HandlerFunc(handWritten), "/forecast")
	})
	b.Run("impl=toolgen", func(b *testing.B) {
		s := NewServer(ToolList{forecastTool()}, &Options{AllowExecute: true})
		benchHandler(b, houseOf(s), "/tools/forecast/call")
	})
}

// The two handlers answer the same request with the same result.
func TestBenchmarkHandlersAgree(t *testing.T) {
	s := NewServer(ToolList{forecastTool()}, &Options{AllowExecute: true})
	a := do(t, s, "POST", "/tools/forecast/call", forecastBody)
	hw := do(t, http.HandlerFunc(handWritten), "POST", "/forecast", forecastBody)
	var ra, rh map[string]any
	a.decode(t, &ra)
	hw.decode(t, &rh)
	if a.status != 200 || hw.status != 200 || !jsonEqual(ra, rh) {
		t.Fatalf("toolgen %d %s\nhand-written %d %s", a.status, a.body, hw.status, hw.body)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
