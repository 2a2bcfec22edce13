package structs

import (
	"context"
	"encoding/json"
	"testing"
)

// The pointer input reaches the function; ,string fields decode from
// strings.
func TestInspect(t *testing.T) {
	res, err := Tools()[0].Handler(context.Background(), json.RawMessage(`{"id":"x","by":"ann","labels":{"primary":"p"},"name":"n","Name":"N","title":"t","-":"dash","count":"42","forced":1,"NoTag":"z"}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	if got["count"] != "42" || got["by"] != "ann" || got["-"] != "dash" || got["name"] != "n" || got["Name"] != "N" {
		t.Errorf("got %v", got)
	}
	res, err = Tools()[1].Handler(context.Background(), nil)
	if err != nil || res.Content[0].Text != "empty" {
		t.Errorf("empty: %v %v", res, err)
	}
}
