package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
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
	opts := &runtime.Options{Title: "Weather tools", ProjectName: "toolgen", ProjectURL: "https://github.com/toolgen-go/toolgen", AllowExecute: true}
	srv := httptest.NewServer(runtime.NewServer(screenshotTools(nil), opts))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// screenshotTools are tools shaped like examples/weather's. weather_map
// asked for a map of size 512 waits until slow is closed, when slow is
// not nil.
func screenshotTools(slow <-chan struct{}) runtime.ToolList {
	handler := func(text string) runtime.Handler {
		return func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(text), nil }
	}
	return runtime.ToolList{
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
			Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				var in struct{ Size int }
				_ = json.Unmarshal(args, &in)
				if slow != nil && in.Size == 512 {
					select {
					case <-slow:
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				return runtime.TextResult("(map)"), nil
			},
		},
	}
}

// TestScreenshotHistory writes screenshots of the History view, light and
// dark, with calls from several surfaces and two rows open. It runs only
// when TOOLGEN_HISTORY_SCREENSHOTS names the directory to write
// history-light.png and history-dark.png in, for example
//
//	TOOLGEN_HISTORY_SCREENSHOTS=/tmp go test ./web/ -run TestScreenshotHistory
func TestScreenshotHistory(t *testing.T) {
	dir := os.Getenv("TOOLGEN_HISTORY_SCREENSHOTS")
	if dir == "" {
		t.Skip("set TOOLGEN_HISTORY_SCREENSHOTS to the directory to write the PNG files in")
	}
	slow := make(chan struct{})
	opts := &runtime.Options{Title: "Weather tools", ProjectName: "toolgen", ProjectURL: "https://github.com/toolgen-go/toolgen", AllowExecute: true}
	srv := httptest.NewServer(runtime.NewServer(screenshotTools(slow), opts))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(slow) })
	base := srv.URL

	callV1(t, base, "convert_temperature", `{"value":21.5,"from":"celsius","to":"fahrenheit"}`)
	send(t, "POST", base+"/tools/create_alert/call", `{"city":"Oslo","above":30}`)
	callMCP(t, base, "get_weather", map[string]any{"city": "Lisbon", "days": 2})
	send(t, "POST", base+"/oxp/tools/call", `{"request":{"tool_id":"Tools.DeleteAlert","input":{"id":"al-1"}}}`)
	callV1(t, base, "delete_alert", `{"id":"alert 7"}`) // fails the pattern
	callV1(t, base, "get_weather", `{"city":"Paris","days":2}`, "X-Correlation-ID", "req-7f3a")
	go func() { // pending until the test ends
		resp, err := http.Post(base+"/v1/tools/weather_map", "application/json", strings.NewReader(`{"input":{"city":"Paris","size":512}}`))
		if err == nil {
			resp.Body.Close()
		}
	}()

	p := openTab(t, base+"/")
	if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: 1100, Height: 900, DeviceScaleFactor: 1,
	}); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	p.click("#tab-history")
	p.waitFor(`document.querySelectorAll('#history-rows tr.inv[data-status="pending"]').length === 1 && document.getElementById('history-view').dataset.state === 'ready'`, "the pending call in the history")
	p.click(`#history-rows tr.inv:nth-child(3) .inv-toggle`) // get_weather, Paris
	p.click(`#history-rows tr.inv[data-status="failed"] .inv-toggle`)
	if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(1090, 890)); err != nil {
		t.Fatalf("move the mouse: %v", err)
	}
	for _, theme := range []string{"light", "dark"} {
		if theme == "dark" {
			p.click("#theme-toggle")
			p.waitFor(`document.documentElement.getAttribute('data-theme') === 'dark'`, "dark mode")
			if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(1090, 890)); err != nil {
				t.Fatalf("move the mouse: %v", err)
			}
		}
		evalJS[chromedp.Void](p, `document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)`)
		png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		out := filepath.Join(dir, "history-"+theme+".png")
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", out, len(png))
	}
}
