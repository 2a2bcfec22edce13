package forms

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// user answers each elicitation with the next of its answers.
type user struct{ answers []map[string]any }

func (u *user) Log(context.Context, string, any) error                   { return nil }
func (u *user) Progress(context.Context, float64, float64, string) error { return nil }
func (u *user) Sample(context.Context, string, int64) (string, error) {
	return "", runtime.ErrUnsupported
}

func (u *user) Elicit(_ context.Context, _ string, schema json.RawMessage) (*runtime.Elicitation, error) {
	if len(u.answers) == 0 {
		return &runtime.Elicitation{Action: "decline"}, nil
	}
	a := u.answers[0]
	u.answers = u.answers[1:]
	return &runtime.Elicitation{Action: "accept", Content: a}, nil
}

func call(t *testing.T, name string, answers ...map[string]any) (string, error) {
	t.Helper()
	for _, tool := range Tools() {
		if tool.Name == name {
			ctx := runtime.WithClientSession(context.Background(), &user{answers: answers})
			res, err := tool.Handler(ctx, json.RawMessage(`{"id":"A1"}`))
			if err != nil {
				return "", err
			}
			return res.Content[0].Text, nil
		}
	}
	t.Fatalf("no tool %s", name)
	return "", nil
}

// The generated file registers each form the tools ask for, with its
// schema and, where the type has one, its decoder; the tools' questions
// come back as their Go types.
func TestForms(t *testing.T) {
	if f, ok := runtime.FormOf[Shipping](); !ok || string(f.Schema) != toolgenShippingFormSchema || f.Decode == nil {
		t.Errorf("Shipping's form: %v %v", ok, f.Decode == nil)
	}
	if f, ok := runtime.FormOf[Delivery](); !ok || f.Decode != nil {
		t.Errorf("Delivery's form: %v, decoder %v (time.Time decodes itself)", ok, f.Decode != nil)
	}
	var s Shipping
	if f, _ := runtime.FormOf[Shipping](); !f.Decode([]byte(`{"street":"1 Rue","city":"Lyon","labels":["express"],"parcels":2}`), &s) || s.City != "Lyon" || s.Labels[0] != Express || s.Parcels != 2 {
		t.Errorf("decoded %+v", s)
	}
	got, err := call(t, "ship", map[string]any{"street": "1 Rue", "city": "Lyon", "speed": "express"})
	if err != nil || got != "Order A1 goes express to 1 Rue, Lyon." {
		t.Errorf("ship: %q %v", got, err)
	}
	got, err = call(t, "ship")
	if err != nil || got != "Order A1 stays." {
		t.Errorf("ship, declined: %q %v", got, err)
	}
	got, err = call(t, "reship", map[string]any{"street": "2 Rue", "city": "Nice"}, map[string]any{"after": "2026-12-01T09:00:00Z"})
	if err != nil || got != "Nice after 2026-12-01" {
		t.Errorf("reship: %q %v", got, err)
	}
	_, err = call(t, "ship", map[string]any{"street": "", "city": "Lyon", "speed": "teleport"})
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || len(ve.Issues) != 2 {
		t.Errorf("an answer that does not fit: %v", err)
	}
	got, err = call(t, "confirm", map[string]any{"id": "B2"})
	if err != nil || got != "B2" {
		t.Errorf("confirm: %q %v", got, err)
	}
}
