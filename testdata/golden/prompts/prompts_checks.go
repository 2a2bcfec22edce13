package prompts

import (
	"context"
	"encoding/json"
	"testing"
)

func TestPrompts(t *testing.T) {
	ps := Prompts()
	res, err := ps[0].Handler(context.Background(), map[string]string{"value": "42", "tone": "blunt"})
	if err != nil || res.Messages[0].Content.Text != "Explain 42, bluntly." || res.Messages[0].Role != "user" {
		t.Errorf("explain: %+v %v", res, err)
	}
	res, err = ps[1].Handler(context.Background(), map[string]string{"code": "x := 1", "language": "Go"})
	if err != nil || len(res.Messages) != 2 || res.Messages[1].Role != "assistant" {
		t.Errorf("code_review: %+v %v", res, err)
	}
	args, _ := json.Marshal(ps[0].Arguments)
	if string(args) != `[{"Name":"value","Title":"","Description":"The value to explain.","Required":true},{"Name":"tone","Title":"","Description":"How to explain it.","Required":false}]` {
		t.Errorf("arguments %s", args)
	}
}
