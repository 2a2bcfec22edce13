// Package errforms covers the forms toolgen refuses: a type that is not a
// struct of the package, and properties a form cannot hold.
package errforms

import (
	"context"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// Address is an object.
type Address struct {
	// The street.
	Street string `json:"street"`
}

// Nested holds what a form cannot: an object, a list of numbers, a
// format MCP's forms do not know.
type Nested struct {
	// Where.
	Address Address `json:"address"`
	// Counts.
	Counts []int `json:"counts"`
	// A host.
	Host string `json:"host" jsonschema:"format=ipv4"`
	// Fine.
	Name string `json:"name"`
}

// In is a tool's input.
type In struct {
	// The id.
	ID string `json:"id"`
}

// Ask asks for what no form holds.
//
//toolgen:tool
func Ask(ctx context.Context, in In) (string, error) {
	if _, _, err := runtime.ElicitAs[Nested](ctx, "?"); err != nil {
		return "", err
	}
	if _, _, err := runtime.ElicitAs[time.Time](ctx, "?"); err != nil {
		return "", err
	}
	if _, _, err := runtime.ElicitAs[map[string]string](ctx, "?"); err != nil {
		return "", err
	}
	_, _, err := runtime.ElicitAs[string](ctx, "?")
	return "", err
}
