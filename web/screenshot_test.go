package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/serve"
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
	opts := &runtime.Options{Title: "Weather tools", AllowExecute: true}
	srv := httptest.NewServer(serve.NewHandler(runtime.NewServer(screenshotTools(nil), opts), projectLink))
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
	opts := &runtime.Options{Title: "Weather tools", AllowExecute: true}
	srv := httptest.NewServer(serve.NewHandler(runtime.NewServer(screenshotTools(slow), opts), projectLink))
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

// TestScreenshotPromptsResources writes screenshots of the Prompts and
// Resources tabs, light and dark: a prompt got, a resource and a template
// read. It runs only when TOOLGEN_MCP_SCREENSHOTS names the directory to
// write prompts-light.png, prompts-dark.png, resources-light.png and
// resources-dark.png in, for example
//
//	TOOLGEN_MCP_SCREENSHOTS=/tmp go test ./web/ -run TestScreenshotPromptsResources
func TestScreenshotPromptsResources(t *testing.T) {
	dir := os.Getenv("TOOLGEN_MCP_SCREENSHOTS")
	if dir == "" {
		t.Skip("set TOOLGEN_MCP_SCREENSHOTS to the directory to write the PNG files in")
	}
	text := func(s string) runtime.ResourceHandler {
		return func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{{Text: s}}, nil
		}
	}
	opts := &runtime.Options{
		Title: "Weather tools", AllowExecute: true,
		Prompts: []runtime.Prompt{
			{
				Name: "forecast_summary", Title: "Forecast summary", Description: "Asks for a short, friendly summary of a city's forecast.",
				Arguments: []runtime.PromptArgument{
					{Name: "city", Description: "City name, for example \"Paris\".", Required: true},
					{Name: "days", Title: "Days", Description: "How many days to cover (default 3)."},
				},
				Handler: func(_ context.Context, args map[string]string) (*runtime.PromptResult, error) {
					days := args["days"]
					if days == "" {
						days = "3"
					}
					return &runtime.PromptResult{Description: "A forecast summary for " + args["city"] + ".", Messages: []runtime.PromptMessage{
						runtime.UserMessage("Summarize the next " + days + " days of weather in " + args["city"] + " in two sentences. Mention rain and the warmest day."),
						runtime.AssistantMessage("I'll call get_weather for " + args["city"] + " with days=" + days + " first."),
					}}, nil
				},
			},
			{Name: "plan_trip", Description: "Plans what to pack for a trip, from the forecast.", Arguments: []runtime.PromptArgument{{Name: "city", Required: true}, {Name: "start", Required: true}, {Name: "nights"}},
				Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
					return &runtime.PromptResult{}, nil
				}},
			{Name: "alert_wording", Description: "Words a temperature alert for a notification.",
				Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
					return &runtime.PromptResult{}, nil
				}},
		},
		Resources: []runtime.Resource{
			{URI: "weather://stations", Name: "stations", Title: "Weather stations", Description: "Every station the service reads, with its position.", MIMEType: "application/json",
				Read: text(`{"stations":[{"id":"PAR-01","city":"Paris","lat":48.8566,"lon":2.3522},{"id":"OSL-02","city":"Oslo","lat":59.9139,"lon":10.7522}],"updated":"2026-06-12T06:00:00Z"}`)},
			{URI: "weather://docs/units.md", Name: "units", Description: "How temperatures and wind speeds are reported.", MIMEType: "text/markdown", Read: text("# Units\n\nTemperatures are in Celsius unless `units` says otherwise.\n")},
			{URI: "weather://radar/latest.png", Name: "radar", Description: "The latest radar image.", MIMEType: "image/png",
				Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
					return []runtime.ResourceContents{{Blob: radarPNG()}}, nil
				}},
			{URI: "weather://archive/2026-06.tar.gz", Name: "archive", Description: "Last month's observations.", MIMEType: "application/gzip",
				Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
					return []runtime.ResourceContents{{Blob: make([]byte, 48213)}}, nil
				}},
		},
		ResourceTemplates: []runtime.ResourceTemplate{
			{URITemplate: "weather://forecast/{city}{?days}", Name: "forecast", Title: "Forecast by city", Description: "A city's forecast as JSON.", MIMEType: "application/json",
				Read: func(_ context.Context, _ string, vars map[string]string) ([]runtime.ResourceContents, error) {
					return []runtime.ResourceContents{{Text: `{"city":"` + vars["city"] + `","forecast":[{"date":"2026-06-12","high":24.0,"low":15.0},{"date":"2026-06-13","high":22.0,"low":14.0}]}`}}, nil
				}},
		},
	}
	srv := httptest.NewServer(serve.NewHandler(runtime.NewServer(screenshotTools(nil), opts), projectLink))
	t.Cleanup(srv.Close)
	p := openTab(t, srv.URL+"/")
	if _, err := chromedp.Call(p.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: 1100, Height: 900, DeviceScaleFactor: 1,
	}); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	p.openPrompts()
	card := prompt("forecast_summary")
	p.openEntry(card)
	p.typeInto(card+` input[data-arg="city"]`, "Paris")
	p.press(card)
	shoot(t, p, dir, "prompts", false)

	p.openResources()
	card = resource("weather://stations")
	p.openEntry(card)
	p.press(card)
	for _, uri := range []string{"weather://radar/latest.png", "weather://archive/2026-06.tar.gz"} {
		p.openEntry(resource(uri))
		p.press(resource(uri))
	}
	p.waitImage(resource("weather://radar/latest.png") + " img")
	card = template("weather://forecast/{city}{?days}")
	p.openEntry(card)
	p.typeInto(card+` input[data-var="city"]`, "Paris")
	p.typeInto(card+` input[data-var="days"]`, "2")
	p.press(card)
	shoot(t, p, dir, "resources", false)

	p.click("#theme-toggle")
	p.waitFor(`document.documentElement.getAttribute('data-theme') === 'dark'`, "dark mode")
	shoot(t, p, dir, "resources", true)
	p.click("#tab-prompts")
	shoot(t, p, dir, "prompts", true)
}

// radarPNG is a made-up radar image.
func radarPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 240, 120))
	for x := range 240 {
		for y := range 120 {
			d := (x-150)*(x-150)/4 + (y-60)*(y-60)
			img.Set(x, y, color.RGBA{R: uint8(40 + min(d/20, 120)), G: uint8(200 - min(d/12, 140)), B: 220, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// shoot writes a full-page screenshot, the mouse and the focus parked.
func shoot(t *testing.T, p *tab, dir, name string, dark bool) {
	t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.MouseClickXY(1090, 890)); err != nil {
		t.Fatalf("move the mouse: %v", err)
	}
	evalJS[chromedp.Void](p, `document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)`)
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	theme := "light"
	if dark {
		theme = "dark"
	}
	out := filepath.Join(dir, name+"-"+theme+".png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", out, len(png))
}

// projectLink makes the page's header link to toolgen, as examples/weather's does.
var projectLink = &serve.Options{Explorer: explorer.Options{ProjectName: "toolgen", ProjectURL: "https://github.com/toolgen-go/toolgen"}}
