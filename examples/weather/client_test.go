package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// The typed client (tools_client_gen.go, toolgen -client) calls the
// weather tools with their own Go types, in process, over MCP and over the
// explorer's REST protocol, and gets the same typed results and errors
// from each.
func TestClient(t *testing.T) {
	ctx := context.Background()
	callers := map[string]func(t *testing.T, s *runtime.Server) runtime.Caller{
		"in-process": func(t *testing.T, s *runtime.Server) runtime.Caller { return runtime.InProcess(s) },
		"mcp": func(t *testing.T, s *runtime.Server) runtime.Caller {
			hs := httptest.NewServer(serve.NewHandler(s, nil))
			t.Cleanup(hs.Close)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "weather-client", Version: "1"}, nil).
				Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			return runtime.MCPCaller(cs)
		},
		"rest": func(t *testing.T, s *runtime.Server) runtime.Caller {
			hs := httptest.NewServer(serve.NewHandler(s, nil))
			t.Cleanup(hs.Close)
			return runtime.RESTCaller(hs.URL, nil)
		},
	}
	cities := map[string]string{"in-process": "Oslo", "mcp": "Lisbon", "rest": "Paris"}
	for name, newCaller := range callers {
		t.Run(name, func(t *testing.T) {
			// A server each: DeleteAlert changes its Service.
			s := runtime.NewServer(AllTools(), &runtime.Options{AllowExecute: true, Logger: slog.New(slog.DiscardHandler)})
			c := NewClient(newCaller(t, s))

			city := cities[name]
			r, err := c.GetWeather(ctx, WeatherInput{City: city, Units: Fahrenheit, Days: 2})
			if err != nil {
				t.Fatal(err)
			}
			if r.City != city || r.Units != Fahrenheit || len(r.Forecast) != 2 || r.Forecast[0].Date == "" {
				t.Errorf("GetWeather: %+v", r)
			}
			// Left out, units and days are their defaults.
			if r, err := c.GetWeather(ctx, WeatherInput{City: city}); err != nil || r.Units != Celsius || len(r.Forecast) != 1 {
				t.Errorf("GetWeather with defaults: %+v, %v", r, err)
			}

			var te *runtime.ToolError
			_, err = c.GetWeather(ctx, WeatherInput{City: "Atlantis"})
			if !errors.As(err, &te) || te.Message != `No weather for "Atlantis": the weather service does not know that city.` {
				t.Errorf("GetWeather Atlantis: %v", err)
			}
			var ve *runtime.ValidationError
			_, err = c.GetWeather(ctx, WeatherInput{City: "", Days: 15})
			if !errors.As(err, &ve) || len(ve.Issues) != 2 || ve.Issues[0].Path != "/city" || ve.Issues[1].Path != "/days" || ve.Issues[1].Keyword != "maximum" {
				t.Errorf("GetWeather invalid: %v", err)
			}

			if s, err := c.ConvertTemperature(ctx, 21.5, Celsius, Fahrenheit); err != nil || s != "21.5 celsius = 70.7 fahrenheit" {
				t.Errorf("ConvertTemperature: %q, %v", s, err)
			}

			if d, err := c.DeleteAlert(ctx, AlertInput{ID: "al-1"}); err != nil || d != (DeleteAlertResult{Deleted: true, Remaining: 2}) {
				t.Errorf("DeleteAlert: %+v, %v", d, err)
			}
			if _, err := c.DeleteAlert(ctx, AlertInput{ID: "al-1"}); !errors.As(err, &te) || te.Message != `no alert "al-1" (saved alerts: al-2, al-3)` {
				t.Errorf("DeleteAlert again: %v", err)
			}

			m, err := c.WeatherMap(ctx, MapInput{City: city, Size: 16})
			if err != nil || len(m.Content) != 1 || m.Content[0].Type != runtime.ContentImage || m.Content[0].MIMEType != "image/png" || len(m.Content[0].Data) == 0 {
				t.Errorf("WeatherMap: %+v, %v", m, err)
			}
		})
	}
}
