package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// answering is a ClientSession whose user answers every elicitation with
// answer, and which records the schema it was asked with.
type answering struct {
	answer *Elicitation
	err    error
	asked  json.RawMessage
}

func (a *answering) Log(context.Context, string, any) error { return nil }
func (a *answering) Progress(context.Context, float64, float64, string) error {
	return nil
}

func (a *answering) Sample(context.Context, string, int64) (string, error) {
	return "", ErrUnsupported
}

func (a *answering) Elicit(_ context.Context, _ string, schema json.RawMessage) (*Elicitation, error) {
	a.asked = schema
	return a.answer, a.err
}

// shipping is a form's type, registered by hand as generated code would.
type shipping struct {
	Street  string `json:"street"`
	Express bool   `json:"express"`
}

const shippingSchema = `{"type":"object","properties":{"street":{"type":"string","minLength":1},"express":{"type":"boolean"}},"required":["street"]}`

// fastDecodes counts the answers shipping's decoder read.
var fastDecodes int

func init() {
	RegisterForm(Form[shipping]{
		Schema: json.RawMessage(shippingSchema),
		Decode: func(data []byte, v *shipping) bool {
			if strings.Contains(string(data), "slow") {
				return false // left to encoding/json
			}
			fastDecodes++
			return json.Unmarshal(data, v) == nil
		},
	})
}

func TestElicitAs(t *testing.T) {
	var cs *answering // the last client asked
	ask := func(answer *Elicitation, err error) (shipping, *Elicitation, error) {
		cs = &answering{answer: answer, err: err}
		return ElicitAs[shipping](WithClientSession(context.Background(), cs), "Where to?")
	}
	t.Run("accepted", func(t *testing.T) {
		before := fastDecodes
		v, e, err := ask(&Elicitation{Action: "accept", Content: map[string]any{"street": "1 Main St", "express": true}}, nil)
		if err != nil || e.Action != "accept" || v != (shipping{"1 Main St", true}) {
			t.Fatalf("got %+v, %+v, %v", v, e, err)
		}
		if string(cs.asked) != shippingSchema {
			t.Errorf("asked with %s, not the form's schema", cs.asked)
		}
		if fastDecodes != before+1 {
			t.Error("the form's decoder did not read the answer")
		}
	})
	t.Run("decoded by encoding/json when the decoder declines", func(t *testing.T) {
		v, _, err := ask(&Elicitation{Action: "accept", Content: map[string]any{"street": "slow lane"}}, nil)
		if err != nil || v.Street != "slow lane" {
			t.Fatalf("got %+v, %v", v, err)
		}
	})
	for _, action := range []string{"decline", "cancel"} {
		t.Run(action, func(t *testing.T) {
			v, e, err := ask(&Elicitation{Action: action}, nil)
			if err != nil || e.Action != action || v != (shipping{}) {
				t.Fatalf("got %+v, %+v, %v", v, e, err)
			}
		})
	}
	t.Run("an answer that does not fit the form", func(t *testing.T) {
		_, _, err := ask(&Elicitation{Action: "accept", Content: map[string]any{"street": "", "express": "yes"}}, nil)
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Issues) != 2 || ve.Issues[0].Path != "/express" || ve.Issues[1].Path != "/street" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("the client has not answered yet", func(t *testing.T) {
		_, e, err := ask(nil, ErrInputRequired)
		if !errors.Is(err, ErrInputRequired) || e != nil {
			t.Fatalf("got %+v, %v", e, err)
		}
	})
	t.Run("no client", func(t *testing.T) {
		if _, _, err := ElicitAs[shipping](context.Background(), "Where to?"); !errors.Is(err, ErrNoSession) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("no form", func(t *testing.T) {
		type unregistered struct{ X string }
		_, _, err := ElicitAs[unregistered](WithClientSession(context.Background(), &answering{}), "?")
		if err == nil || !strings.Contains(err.Error(), "no form for runtime.unregistered: run toolgen") {
			t.Fatalf("got %v", err)
		}
	})
	if f, ok := FormOf[shipping](); !ok || string(f.Schema) != shippingSchema {
		t.Errorf("FormOf: %s, %v", f.Schema, ok)
	}
}
