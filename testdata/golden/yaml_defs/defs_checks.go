package defs

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type impl struct {
	UnimplementedHandlers
	got Address
}

func (i *impl) Ship(ctx context.Context, in ShipInput) (ShipOutput, error) {
	i.got = in.To
	return ShipOutput(in.To), nil
}

// The shared types are one Go type for every tool; each tool's schema is
// whole, with the $defs it uses; the defaults inside $defs apply.
func TestDefs(t *testing.T) {
	h := &impl{}
	tools := Tools(h)
	for _, tl := range tools {
		if tl.Name == "ship" && (!strings.Contains(string(tl.InputSchema), `"address"`) || strings.Contains(string(tl.InputSchema), `"unused"`)) {
			t.Errorf("ship's input schema: %s", tl.InputSchema)
		}
	}
	out := runtime.NewServer(tools, nil).Invoke(context.Background(), &runtime.Call{Tool: "ship", Arguments: json.RawMessage(`{"to":{"city":"Lisbon"}}`)})
	if out.Status != runtime.StatusOK {
		t.Fatalf("ship: %v %v %v", out.Status, out.Err, out.Issues())
	}
	if h.got != (Address{City: "Lisbon", Country: CountryFR}) {
		t.Errorf("ship got %+v", h.got)
	}
	if out := runtime.NewServer(tools, nil).Invoke(context.Background(), &runtime.Call{Tool: "ship", Arguments: json.RawMessage(`{"to":{"city":"Lisbon","country":"XX"}}`)}); out.Status != runtime.StatusInvalid {
		t.Errorf("a country outside the shared enum: %v", out.Status)
	}
}
