package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// NewClient (tools_client_gen.go, written by toolgen -client) calls the
// tools with their own Go types, through any runtime.Caller: here in
// process; runtime.MCPCaller and runtime.RESTCaller call a server over MCP
// or HTTP. Arguments the server refuses come back as a
// *runtime.ValidationError.
func ExampleNewClient() {
	ctx := context.Background()
	c := NewClient(runtime.InProcess(runtime.NewServer(AllTools(), nil)))

	s, err := c.ConvertTemperature(ctx, 100, Celsius, Fahrenheit)
	fmt.Println(s, err)

	report, err := c.GetWeather(ctx, WeatherInput{City: "Oslo"})
	fmt.Println(report.City, report.Units, len(report.Forecast), err) // units and days defaulted

	_, err = c.GetWeather(ctx, WeatherInput{City: "Oslo", Days: 99})
	var ve *runtime.ValidationError
	if errors.As(err, &ve) {
		for _, is := range ve.Issues {
			fmt.Println(is.Path, is.Keyword)
		}
	}
	// Output:
	// 100 celsius = 212 fahrenheit <nil>
	// Oslo celsius 1 <nil>
	// /days maximum
}
