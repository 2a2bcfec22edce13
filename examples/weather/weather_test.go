package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

func call(t *testing.T, srv http.Handler, tool, args string) (int, runtime.Result, map[string]any) {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("POST", "/tools/"+tool+"/call", strings.NewReader(args)))
	var res struct {
		runtime.Result
		Structured map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
		t.Fatalf("%s: %v: %s", tool, err, rec.Body)
	}
	return rec.Code, res.Result, res.Structured
}

// The generated tools serve the functions of weather.go, with descriptions
// from their doc comments.
func TestWeatherTools(t *testing.T) {
	srv := serve.NewHandler(runtime.NewServer(AllTools(), &runtime.Options{AllowExecute: true}), nil)

	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "/tools/get_weather", nil))
	var detail struct {
		Description string
		InputSchema struct {
			Properties map[string]struct{ Description string }
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &detail); err != nil {
		t.Fatal(err)
	}
	if detail.Description != "Looks up the current weather and a forecast for a city." || detail.InputSchema.Properties["city"].Description != `City name, for example "Paris".` {
		t.Errorf("get_weather detail: %s", rec.Body)
	}

	code, _, a := call(t, srv, "get_weather", `{"city":"Oslo","days":3}`)
	_, _, b := call(t, srv, "get_weather", `{"city":"Oslo","days":3}`)
	if code != 200 || len(a["forecast"].([]any)) != 3 {
		t.Fatalf("get_weather: %d %v", code, a)
	}
	if x, y := mustJSON(a), mustJSON(b); x != y {
		t.Errorf("the same city gave different weather:\n%s\n%s", x, y)
	}
	if code, _, _ := call(t, srv, "get_weather", `{"city":"Oslo","days":15}`); code != 400 {
		t.Errorf("days=15 passed validation: %d", code)
	}

	if _, res, _ := call(t, srv, "convert_temperature", `{"value":21.5,"from":"celsius","to":"fahrenheit"}`); res.Content[0].Text != "21.5 celsius = 70.7 fahrenheit" {
		t.Errorf("convert: %+v", res)
	}

	code, _, del := call(t, srv, "delete_alert", `{"id":"al-2"}`)
	if code != 200 || del["deleted"] != true {
		t.Errorf("delete_alert: %d %v", code, del)
	}
	if code, res, _ := call(t, srv, "delete_alert", `{"id":"al-2"}`); code != 500 || !res.IsError || !strings.Contains(res.Content[0].Text, `no alert "al-2"`) {
		t.Errorf("second delete: %d %+v", code, res)
	}

	code, res, _ := call(t, srv, "weather_map", `{"city":"Lisbon","size":32}`)
	if code != 200 || res.Content[0].Type != "image" || res.Content[0].MIMEType != "image/png" {
		t.Fatalf("weather_map: %d %+v", code, res)
	}
	img, err := png.Decode(bytes.NewReader(res.Content[0].Data))
	if err != nil || img.Bounds().Dx() != 32 {
		t.Errorf("weather_map image: %v %v", err, img)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The defaults of the schema are what the functions get for what a call
// leaves out: weather.go has no fallbacks of its own.
func TestWeatherDefaults(t *testing.T) {
	srv := serve.NewHandler(runtime.NewServer(AllTools(), &runtime.Options{AllowExecute: true}), nil)
	code, _, r := call(t, srv, "get_weather", `{"city":"Oslo"}`)
	if code != 200 || r["units"] != "celsius" || len(r["forecast"].([]any)) != 1 {
		t.Errorf("get_weather without units and days: %d %v", code, r)
	}
	code, res, _ := call(t, srv, "weather_map", `{"city":"Lisbon"}`)
	if code != 200 {
		t.Fatalf("weather_map without size: %d %+v", code, res)
	}
	img, err := png.Decode(bytes.NewReader(res.Content[0].Data))
	if err != nil || img.Bounds().Dx() != 128 {
		t.Errorf("weather_map without size: %v %v", err, img.Bounds())
	}
}

// get_weather reports an unknown city and the service's rate limit as
// ToolErrors: an isError result on the explorer and MCP, OXP's hints.
func TestWeatherToolErrors(t *testing.T) {
	s := serve.NewHandler(runtime.NewServer(AllTools(), &runtime.Options{AllowExecute: true}), nil)
	call := func(city string) (int, string) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("POST", "/oxp/tools/call", strings.NewReader(`{"request":{"tool_id":"Weather.GetWeather","input":{"city":"`+city+`"}}}`)))
		return rec.Code, rec.Body.String()
	}
	if code, body := call("Atlantis"); code != 200 || !strings.Contains(body, `"success":false,"error":{"message":"No weather for \"Atlantis\": the weather service does not know that city.","can_retry":false,"additional_prompt_content":"Ask the user for a real city name."}`) {
		t.Errorf("unknown city: %d %s", code, body)
	}
	city := fmt.Sprintf("Quota-%d", time.Now().UnixNano())
	for i := range 5 {
		if _, body := call(city); !strings.Contains(body, `"success":true`) {
			t.Fatalf("lookup %d: %s", i, body)
		}
	}
	if _, body := call(city); !strings.Contains(body, `"can_retry":true`) || !strings.Contains(body, `"retry_after_ms":1000`) {
		t.Errorf("over the quota: %s", body)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("POST", "/tools/get_weather/call", strings.NewReader(`{"city":"Gotham"}`)))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"isError":true`) || strings.Contains(rec.Body.String(), "fictional") {
		t.Errorf("explorer: %d %s", rec.Code, rec.Body.String())
	}
}
