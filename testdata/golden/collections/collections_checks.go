package collections

import (
	"context"
	"encoding/json"
	"testing"
)

func TestHandlers(t *testing.T) {
	tools := Tools()
	res, err := tools[0].Handler(context.Background(), json.RawMessage(`{"tags":["a","b"],"points":[{"x":1,"y":2}],"by_code":{"7":{"x":0,"y":0}},"triple":[1,2,3]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.StructuredContent.(json.RawMessage)); got != `{"by_code":1,"points":1,"tags":2}` {
		t.Errorf("summarize: %s", got)
	}
	res, err = tools[1].Handler(context.Background(), json.RawMessage(`{"x":3,"y":4}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; got != `[{"x":0,"y":0},{"x":3,"y":4}]` {
		t.Errorf("corners: %s", got)
	}
}
