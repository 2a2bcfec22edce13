package web_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/toolgen-go/toolgen/runtime"
)

// TestScreenshot writes the screenshot of the explorer used in the README:
// light mode, get_weather expanded and called from the form. It runs only
// when TOOLGEN_SCREENSHOT names the PNG file to write, for example
//
//	TOOLGEN_SCREENSHOT=$PWD/docs/explorer.png go test ./web/ -run TestScreenshot
func TestScreenshot(t *testing.T) {
	out := os.Getenv("TOOLGEN_SCREENSHOT")
	if out == "" {
		t.Skip("set TOOLGEN_SCREENSHOT to the PNG file to write")
	}
	p := openTab(t, newScreenshotServer(t))
	if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: 1100, Height: 900, DeviceScaleFactor: 1,
	}); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	p.expand("get_weather")
	card := tool("get_weather")
	p.typeInto(card+` [data-field="city"]`, "Paris")
	p.typeInto(card+` [data-field="days"]`, "2")
	p.waitTextContains(card+" .validation", "Arguments are valid")
	p.run("get_weather")
	p.waitVisible(card + " .result-view .result-text")
	// Park the mouse away from the buttons so that no hover state shows.
	if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(1090, 890)); err != nil {
		t.Fatalf("move the mouse: %v", err)
	}
	evalJS[chromedp.Void](p, `document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)`)
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", out, len(png))
}

// newScreenshotServer serves tools shaped like examples/weather's.
func newScreenshotServer(t *testing.T) string {
	t.Helper()
	handler := func(text string) runtime.Handler {
		return func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(text), nil }
	}
	tools := runtime.ToolList{
		{
			Name:        "get_weather",
			Title:       "Get weather",
			Description: "Looks up the current weather and a forecast for a city.",
			Annotations: &runtime.Annotations{ReadOnlyHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{
				"city":{"type":"string","minLength":1,"maxLength":100,"description":"City name, for example \"Paris\"."},
				"units":{"type":"string","enum":["celsius","fahrenheit"],"default":"celsius","description":"Temperature scale of the report."},
				"days":{"type":"integer","minimum":1,"maximum":14,"default":1,"description":"How many days of forecast to include."}},
				"required":["city"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string","enum":["celsius","fahrenheit"]},"forecast":{"type":"array","description":"One entry a day, today first.","items":{"type":"object","properties":{"date":{"type":"string","description":"Date in YYYY-MM-DD form."},"high":{"type":"number"},"low":{"type":"number"},"conditions":{"type":"string"}}}}},"required":["city","units","forecast"]}`),
			Handler:      handler(`{"city":"Paris","units":"celsius","forecast":[{"date":"2026-06-12","high":24.0,"low":15.0,"conditions":"sunny"},{"date":"2026-06-13","high":22.0,"low":14.0,"conditions":"partly cloudy"}]}`),
		},
		{
			Name:        "convert_temperature",
			Description: "Converts a temperature between Celsius and Fahrenheit.",
			Annotations: &runtime.Annotations{ReadOnlyHint: runtime.Bool(true), IdempotentHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(false)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"value":{"type":"number"},"from":{"type":"string","enum":["celsius","fahrenheit"]},"to":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["value","from","to"]}`),
			Handler:     handler("21.5 celsius = 70.7 fahrenheit"),
		},
		{
			Name:        "create_alert",
			Description: "Saves an alert that fires when a city's temperature crosses a threshold.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"above":{"type":"number"}},"required":["city","above"]}`),
			Handler:     handler(`{"id":"al-1"}`),
		},
		{
			Name:        "delete_alert",
			Description: "Deletes a saved weather alert.",
			Annotations: &runtime.Annotations{DestructiveHint: runtime.Bool(true), IdempotentHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(false)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","pattern":"^al-[0-9]+$","description":"ID of the alert, as returned when it was created."}},"required":["id"]}`),
			Handler:     handler(`{"deleted":true,"remaining":0}`),
		},
		{
			Name:        "weather_map",
			Description: "Draws a temperature map around a city as a PNG image.",
			Annotations: &runtime.Annotations{ReadOnlyHint: runtime.Bool(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1},"size":{"type":"integer","minimum":16,"maximum":512,"default":128}},"required":["city"]}`),
			Handler:     handler("(map)"),
		},
	}
	opts := &runtime.Options{Title: "Weather tools", ProjectName: "toolgen", ProjectURL: "https://github.com/toolgen-go/toolgen", AllowExecute: true}
	srv := httptest.NewServer(runtime.NewServer(tools, opts))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}
