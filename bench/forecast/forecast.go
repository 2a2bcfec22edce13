// Package forecast is the one tool every implementation in the benchmarks
// serves: three arguments (a string with a minimum length, a bounded
// integer, an enum) and a small structured result. toolgen generates its
// descriptor and handler (tools_gen.go); the peers use the same function
// and the schema toolgen generated, so every server validates against the
// same JSON Schema and returns the same result.
package forecast

//go:generate go tool toolgen

import "context"

// Units selects a temperature scale.
//
//toolgen:enum
type Units string

const (
	Celsius    Units = "celsius"
	Fahrenheit Units = "fahrenheit"
)

// Input asks for a forecast.
type Input struct {
	// City name, for example "Paris".
	City string `json:"city" jsonschema:"minLength=1"`
	// How many days to forecast.
	Days int `json:"days" jsonschema:"minimum=1,maximum=14"`
	// Temperature scale.
	Units Units `json:"units"`
}

// Result is the forecast.
type Result struct {
	City    string  `json:"city"`
	Days    int     `json:"days"`
	High    float64 `json:"high"`
	Summary string  `json:"summary"`
}

// Forecast returns a fixed forecast: the benchmarks measure the servers,
// not the tool.
//
//toolgen:tool name=forecast
func Forecast(_ context.Context, in Input) (Result, error) {
	return Result{City: in.City, Days: in.Days, High: 21.5, Summary: "sunny in " + string(in.Units)}, nil
}
