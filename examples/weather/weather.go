// Package main is a weather tool server built code-first with toolgen. Its
// data is made up but deterministic: the same city always gets the same
// weather, so the example runs without a network or an API key.
//
//toolgen:toolkit Weather version=1.0.0
package main

//go:generate go tool toolgen -lock -client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// Units selects a temperature scale.
//
//toolgen:enum
type Units string

const (
	Celsius    Units = "celsius"
	Fahrenheit Units = "fahrenheit"
)

// WeatherInput asks for the weather in one city.
type WeatherInput struct {
	// City name, for example "Paris".
	City string `json:"city" jsonschema:"minLength=1,maxLength=100"`
	// Temperature scale of the report.
	Units Units `json:"units,omitempty" jsonschema:"default=celsius"`
	// How many days of forecast to include.
	Days int `json:"days,omitempty" jsonschema:"minimum=1,maximum=14,default=1"`
}

// Report is the weather in a city today and the days after.
type Report struct {
	City  string `json:"city"`
	Units Units  `json:"units"`
	// Forecast has one entry a day, today first.
	Forecast []Day `json:"forecast"`
}

// Day is the weather of one day.
type Day struct {
	// Date in YYYY-MM-DD form.
	Date string `json:"date"`
	// Highest temperature, in the report's units.
	High float64 `json:"high"`
	// Lowest temperature, in the report's units.
	Low float64 `json:"low"`
	// Conditions, such as "sunny" or "rain".
	Conditions string `json:"conditions"`
}

// GetWeather looks up the current weather and a forecast for a city.
//
//toolgen:tool name=get_weather title="Get weather" readonly openworld
//toolgen:example {"city":"Paris"}
//toolgen:example {"city":"Oslo","units":"fahrenheit","days":3}
func GetWeather(ctx context.Context, in WeatherInput) (*Report, error) {
	if strings.TrimSpace(in.City) == "" {
		return nil, errors.New("city must not be blank")
	}
	if fictional[strings.ToLower(strings.TrimSpace(in.City))] {
		// A failure the caller should see and not retry: a ToolError.
		return nil, &runtime.ToolError{
			Message:                 fmt.Sprintf("No weather for %q: the weather service does not know that city.", in.City),
			DeveloperMessage:        "city in the fictional list",
			AdditionalPromptContent: "Ask the user for a real city name.",
		}
	}
	if !quota.allow(in.City, time.Now()) {
		// The (simulated) weather service's quota: retry after a second.
		return nil, runtime.RetryableError(time.Second, "The weather service is rate limiting lookups of %s; try again in a second.", in.City)
	}
	units, days := in.Units, in.Days // left out, they are their defaults
	seed := citySeed(in.City)
	start := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(seed%365))
	conditions := []string{"sunny", "partly cloudy", "cloudy", "rain", "snow", "windy"}
	r := &Report{City: in.City, Units: units}
	for i := range days {
		base := float64(int(seed>>8+uint32(i*7))%30) - 5
		high, low := base+6, base-3
		if units == Fahrenheit {
			high, low = toFahrenheit(high), toFahrenheit(low)
		}
		r.Forecast = append(r.Forecast, Day{
			Date:       start.AddDate(0, 0, i).Format(time.DateOnly),
			High:       round1(high),
			Low:        round1(low),
			Conditions: conditions[(int(seed)+i)%len(conditions)],
		})
	}
	return r, nil
}

// ConvertTemperature converts a temperature between Celsius and Fahrenheit.
//
//toolgen:tool readonly idempotent closedworld
//toolgen:param value description="The temperature to convert, in the scale of from."
//toolgen:param from description="The scale value is in."
//toolgen:param to description="The scale to convert to."
//toolgen:example {"value":21.5,"from":"celsius","to":"fahrenheit"}
func ConvertTemperature(value float64, from Units, to Units) (string, error) {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return "", errors.New("value must be a finite number")
	}
	out := value
	switch {
	case from == to:
	case from == Celsius && to == Fahrenheit:
		out = toFahrenheit(value)
	case from == Fahrenheit && to == Celsius:
		out = (value - 32) * 5 / 9
	default:
		return "", fmt.Errorf("cannot convert from %q to %q", from, to)
	}
	return fmt.Sprintf("%g %s = %g %s", value, from, round1(out), to), nil
}

// AlertInput names a saved weather alert.
type AlertInput struct {
	// ID of the alert, as returned when it was created.
	ID string `json:"id" jsonschema:"pattern=^al-[0-9]+$"`
}

// DeleteAlertResult says what was deleted.
type DeleteAlertResult struct {
	Deleted bool `json:"deleted"`
	// Remaining is how many alerts are left.
	Remaining int `json:"remaining"`
}

// Service holds the weather alerts a user saved: the state its tool
// methods share, which a real server would keep in a database. Serve its
// tools with (&Service{...}).Tools(), or NewService().Tools().
type Service struct {
	mu     sync.Mutex
	alerts map[string]bool
}

// NewService returns a service with three saved alerts.
func NewService() *Service {
	return &Service{alerts: map[string]bool{"al-1": true, "al-2": true, "al-3": true}}
}

// DeleteAlert deletes a saved weather alert. It cannot be undone.
//
//toolgen:tool destructive idempotent closedworld
//toolgen:example {"id":"al-1"}
func (s *Service) DeleteAlert(ctx context.Context, in AlertInput) (DeleteAlertResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.alerts[in.ID] {
		ids := make([]string, 0, len(s.alerts))
		for id := range s.alerts {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		return DeleteAlertResult{}, fmt.Errorf("no alert %q (saved alerts: %s)", in.ID, strings.Join(ids, ", "))
	}
	delete(s.alerts, in.ID)
	return DeleteAlertResult{Deleted: true, Remaining: len(s.alerts)}, nil
}

// AllTools is every tool of the example: the package's functions and the
// methods of a new Service.
func AllTools() runtime.ToolList {
	return append(Tools(), NewService().Tools()...)
}

// MapInput selects the map to draw.
type MapInput struct {
	// City at the centre of the map.
	City string `json:"city" jsonschema:"minLength=1"`
	// Width and height of the square image, in pixels.
	Size int `json:"size,omitempty" jsonschema:"minimum=16,maximum=512,default=128"`
}

// WeatherMap draws a temperature map around a city as a PNG image.
//
//toolgen:tool name=weather_map readonly
//toolgen:example {"city":"Lisbon","size":64}
func WeatherMap(ctx context.Context, in MapInput) (runtime.Content, error) {
	size := in.Size
	seed := citySeed(in.City)
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	cx, cy := float64(int(seed%uint32(size))), float64(int((seed>>8)%uint32(size)))
	for y := range size {
		for x := range size {
			d := math.Hypot(float64(x)-cx, float64(y)-cy) / float64(size)
			t := math.Max(0, 1-d*1.4)
			img.Set(x, y, color.RGBA{R: uint8(60 + 195*t), G: uint8(90 + 80*(1-math.Abs(t-0.5)*2)), B: uint8(220 - 180*t), A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return runtime.Content{}, fmt.Errorf("encode map: %w", err)
	}
	return runtime.Image(buf.Bytes(), "image/png"), nil
}

// fictional cities have no weather.
var fictional = map[string]bool{"atlantis": true, "el dorado": true, "gotham": true, "narnia": true}

// quota simulates a weather service that allows a few lookups of one city
// a second.
var quota = &cityQuota{limit: 5, seen: map[string][]time.Time{}}

type cityQuota struct {
	mu    sync.Mutex
	limit int
	seen  map[string][]time.Time
}

func (q *cityQuota) allow(city string, now time.Time) bool {
	key := strings.ToLower(strings.TrimSpace(city))
	q.mu.Lock()
	defer q.mu.Unlock()
	recent := q.seen[key][:0]
	for _, t := range q.seen[key] {
		if now.Sub(t) < time.Second {
			recent = append(recent, t)
		}
	}
	if len(recent) >= q.limit {
		q.seen[key] = recent
		return false
	}
	q.seen[key] = append(recent, now)
	if len(q.seen) > 10000 { // a bounded memory of cities
		q.seen = map[string][]time.Time{key: q.seen[key]}
	}
	return true
}

func citySeed(city string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(city))))
	return h.Sum32()
}

func toFahrenheit(c float64) float64 { return c*9/5 + 32 }

func round1(f float64) float64 { return math.Round(f*10) / 10 }
