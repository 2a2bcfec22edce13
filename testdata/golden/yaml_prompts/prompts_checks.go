package yprompts

import (
	"context"
	"testing"
)

func TestTemplatePrompt(t *testing.T) {
	p := Prompts()[0]
	for args, want := range map[[2]string]string{
		{"42", ""}:       "Explain why the answer is 42.",
		{"42", "kindly"}: "Explain why the answer is 42, kindly.",
	} {
		m := map[string]string{"value": args[0]}
		if args[1] != "" {
			m["tone"] = args[1]
		}
		res, err := p.Handler(context.Background(), m)
		if err != nil || res.Messages[0].Content.Text != want {
			t.Errorf("%v: %+v %v", args, res, err)
		}
	}
}
