// Package prompts covers //toolgen:prompt functions: a string result, a
// list of messages, a pointer input, and argument docs, optionality and
// string enums.
package prompts

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
)

// Tone says how to say it.
//
//toolgen:enum
type Tone string

const (
	Kind  Tone = "kind"
	Blunt Tone = "blunt"
)

type ExplainArgs struct {
	// The value to explain.
	Value string `json:"value"`
	// How to explain it.
	Tone Tone `json:"tone,omitempty"`
}

// Explain asks the model to explain a value.
//
//toolgen:prompt title="Explain a value"
func Explain(ctx context.Context, in ExplainArgs) (string, error) {
	tone := in.Tone
	if tone == "" {
		tone = Kind
	}
	return "Explain " + in.Value + ", " + string(tone) + "ly.", nil
}

type ReviewArgs struct {
	Code     string `json:"code"`
	Language string `json:"language,omitempty"`
}

// Review sets up a code review conversation.
//
//toolgen:prompt name=code_review
func Review(in *ReviewArgs) []runtime.PromptMessage {
	return []runtime.PromptMessage{
		runtime.UserMessage("Review this " + in.Language + " code:\n" + in.Code),
		runtime.AssistantMessage("Here is my review."),
	}
}
