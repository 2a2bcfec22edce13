// Package forms covers runtime.ElicitAs: the forms of the types its tools
// ask their users for (each once, whichever tool asks), a form shared
// with a tool's input type, enums, formats and defaults.
package forms

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// Speed is how fast a parcel travels.
//
//toolgen:enum
type Speed string

const (
	Standard Speed = "standard"
	Express  Speed = "express"
)

// Shipping is where and how to send an order.
type Shipping struct {
	// The street and number.
	Street string `json:"street" jsonschema:"minLength=1"`
	// The city.
	City string `json:"city"`
	// How fast.
	Speed Speed `json:"speed,omitempty" jsonschema:"default=standard"`
	// Where to send the receipt.
	Email string `json:"email,omitempty" jsonschema:"format=email"`
	// Gift wrap.
	Gift bool `json:"gift,omitempty"`
	// Parcels.
	Parcels int `json:"parcels,omitempty" jsonschema:"minimum=1,maximum=9"`
	// Labels to print on the box.
	Labels []Speed `json:"labels,omitempty"`
}

// Delivery is when to deliver: a time.Time decodes itself, so the form
// has no decoder of its own and ElicitAs decodes it with encoding/json.
type Delivery struct {
	// At the earliest.
	After time.Time `json:"after"`
	// For the driver.
	Note string `json:"note,omitempty" jsonschema:"maxLength=200"`
}

// Order is an order to ship.
type Order struct {
	// The order's number.
	ID string `json:"id"`
}

// Ship asks where to send an order, and sends it.
//
//toolgen:tool
func Ship(ctx context.Context, in Order) (string, error) {
	to, e, err := runtime.ElicitAs[Shipping](ctx, "Where should order "+in.ID+" go?")
	if err != nil {
		return "", err
	}
	if e.Action != "accept" {
		return "Order " + in.ID + " stays.", nil
	}
	return fmt.Sprintf("Order %s goes %s to %s, %s.", in.ID, to.Speed, to.Street, to.City), nil
}

// Reship asks again, for the same form (it is written once), and when.
//
//toolgen:tool
func Reship(ctx context.Context, in Order) (string, error) {
	to, _, err := runtime.ElicitAs[Shipping](ctx, "Where now?")
	if err != nil {
		return "", err
	}
	when, _, err := runtime.ElicitAs[Delivery](ctx, "When?")
	if err != nil {
		return "", err
	}
	return to.City + " after " + when.After.Format(time.DateOnly), nil
}

// Confirm asks for an order number: the form of a tool's input type
// shares its decoder.
//
//toolgen:tool
func Confirm(ctx context.Context, in Order) (string, error) {
	again, _, err := runtime.ElicitAs[Order](ctx, "Which order, again?")
	if err != nil {
		return "", err
	}
	return again.ID, nil
}
