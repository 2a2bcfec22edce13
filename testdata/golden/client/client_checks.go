package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// The generated client calls every tool through the in-process caller,
// with the tools' own types, and gets typed errors back.
func TestClient(t *testing.T) {
	tools := append(Tools(), (&Store{}).Tools()...)
	tools = append(tools, (&Bag{n: 10}).Tools()...)
	c := NewClient(runtime.InProcess(runtime.NewServer(tools, nil)))
	ctx := context.Background()

	fig, err := c.Measure(ctx, FigureInput{Kind: Square, Size: 3})
	if err != nil || fig == nil || *fig != (Figure{Kind: Square, Area: 9}) {
		t.Errorf("Measure: %+v, %v", fig, err)
	}
	_, err = c.Measure(ctx, FigureInput{Kind: Square, Size: 13})
	var te *runtime.ToolError
	if !errors.As(err, &te) || te.Message != "Size 13 is bad luck." {
		t.Errorf("Measure 13: %v", err)
	}
	_, err = c.Measure(ctx, FigureInput{Kind: "triangle", Size: 101})
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || len(ve.Issues) != 2 || ve.Issues[0].Path != "/kind" || ve.Issues[1].Keyword != "maximum" {
		t.Errorf("Measure invalid: %v", err)
	}
	if f, err := c.Scale(ctx, &FigureInput{Kind: Circle, Size: 2}); err != nil || f.Area != 4 {
		t.Errorf("Scale: %+v, %v", f, err)
	}
	if w, err := c.Words(ctx, "a b  c"); err != nil || len(w) != 3 || w[2] != "c" {
		t.Errorf("Words: %q, %v", w, err)
	}
	if n, err := c.Count(ctx, "abc", 2, true); err != nil || n != 6 {
		t.Errorf("Count: %d, %v", n, err)
	}
	if s, err := c.Echo(ctx, "<hi & bye>"); err != nil || s != "<hi & bye>" {
		t.Errorf("Echo: %q, %v", s, err)
	}
	if s, err := c.Pick(ctx, "circle"); err != nil || s != Circle {
		t.Errorf("Pick: %q, %v", s, err)
	}
	if _, err := c.Pick(ctx, "hexagon"); !errors.As(err, &te) || te.Message != `no shape "hexagon"` {
		t.Errorf("Pick hexagon: %v", err)
	}
	if r, err := c.Banner(ctx); err != nil || runtime.ResultText(r) != "*** banner ***" {
		t.Errorf("Banner: %v", err)
	}
	if err := c.Reset(ctx, false); err != nil {
		t.Errorf("Reset: %v", err)
	}
	if err := c.Reset(ctx, true); !errors.As(err, &te) || te.Message != "reset failed" {
		t.Errorf("Reset failing: %v", err)
	}
	if r, err := c.Raw(ctx); err != nil || len(r.Content) != 2 {
		t.Errorf("Raw: %v", err)
	}
	if n, err := c.StoreAdd(ctx, 2); err != nil || n != 2 {
		t.Errorf("StoreAdd: %d, %v", n, err)
	}
	if n, err := c.BagAdd(ctx, 2); err != nil || n != 12 {
		t.Errorf("BagAdd: %d, %v", n, err)
	}

	testLeftOut(t, tools)
}

// recorder is a runtime.Caller that keeps the arguments of the last call.
type recorder struct {
	runtime.Caller
	args string
}

func (r *recorder) Call(ctx context.Context, tool string, args json.RawMessage) (*runtime.Result, error) {
	r.args = string(args)
	return r.Caller.Call(ctx, tool, args)
}

// A flat parameter the tool does not require is a pointer (or a nilable
// type as it is) in the client: nil sends no value, so that the server
// applies the default; a pointer to the zero value sends the zero value.
func testLeftOut(t *testing.T, tools runtime.ToolList) {
	rec := &recorder{Caller: runtime.InProcess(runtime.NewServer(tools, nil))}
	c := NewClient(rec)
	ctx := context.Background()

	s, err := c.Convert(ctx, 10, nil, nil, nil, nil, nil)
	if rec.args != `{"amount":10}` {
		t.Errorf("Convert with the defaulted parameters left out sent %s", rec.args)
	}
	if want := `20 EUR at 2 ("" []) false`; err != nil || s != want {
		t.Errorf("Convert with the defaults: %q, %v; want %q", s, err, want)
	}

	rate, unit, note := 0.0, "USD", ""
	s, err = c.Convert(ctx, 10, &rate, &unit, &note, []string{}, &Figure{Kind: Square})
	if want := `{"amount":10,"note":"","origin":{"kind":"square","area":0},"rate":0,"tags":[],"unit":"USD"}`; rec.args != want {
		t.Errorf("Convert with every parameter sent %s, want %s", rec.args, want)
	}
	if want := `0 USD at 0 ("" []) true`; err != nil || s != want {
		t.Errorf("Convert with a zero rate: %q, %v; want %q", s, err, want)
	}

	bad := "GBP"
	var ve *runtime.ValidationError
	if _, err := c.Convert(ctx, 10, nil, &bad, nil, nil, nil); !errors.As(err, &ve) || ve.Issues[0].Path != "/unit" {
		t.Errorf("Convert with a unit outside the enum: %v", err)
	}

	if s, err := c.Greeting(ctx, nil); err != nil || s != "hello en" || rec.args != `{}` {
		t.Errorf("Greeting with its parameter left out: %q, %v (sent %s)", s, err, rec.args)
	}
	fr := "fr"
	if s, err := c.Greeting(ctx, &fr); err != nil || s != "bonjour" {
		t.Errorf("Greeting in French: %q, %v", s, err)
	}
}
