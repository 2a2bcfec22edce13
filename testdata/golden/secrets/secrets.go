// Package secrets covers //toolgen:tool's secrets=: the ids reach
// runtime.Tool.Secrets in the order written.
package secrets

import "context"

// ForecastInput asks for a forecast.
type ForecastInput struct {
	// City to forecast.
	City string `json:"city"`
}

// Forecast calls a weather service with an API key.
//
//toolgen:tool secrets=WEATHER_API_KEY readonly
func Forecast(ctx context.Context, in ForecastInput) (string, error) { return in.City, nil }

// Sync copies between two services, each with its own key.
//
//toolgen:tool secrets="SOURCE_TOKEN,_target_token2"
func Sync(ctx context.Context, in ForecastInput) error { return nil }

// Local needs no secret.
//
//toolgen:tool
func Local(ctx context.Context, in ForecastInput) error { return nil }
