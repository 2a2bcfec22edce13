package mcp

//lint:file-ignore SA1019 sampling and roots are deprecated as of 2026-07-28 but supported

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Question asks one thing; the SDK's answers become toolgen's.
func TestQuestionsAndAnswers(t *testing.T) {
	for _, q := range []Question{{}, {Elicit: &ElicitQuestion{}, Roots: &RootsQuestion{}}} {
		if _, err := q.request(); err == nil || !strings.Contains(err.Error(), "exactly one of Elicit, Sample and Roots") {
			t.Errorf("%+v: %v", q, err)
		}
	}
	r, err := Question{Sample: &SampleQuestion{Prompt: "Hi", SystemPrompt: "Be brief", MaxTokens: 9}}.request()
	if p, ok := r.(*sdk.CreateMessageParams); err != nil || !ok || p.SystemPrompt != "Be brief" || p.MaxTokens != 9 || p.Messages[0].Content.(*sdk.TextContent).Text != "Hi" {
		t.Errorf("sample request: %#v, %v", r, err)
	}
	a, err := answerOf(&sdk.CreateMessageResult{Model: "m", StopReason: "endTurn", Content: &sdk.TextContent{Text: "hello"}})
	if err != nil || *a.Sample != (Sampled{Text: "hello", Model: "m", StopReason: "endTurn"}) {
		t.Errorf("sampled: %+v, %v", a.Sample, err)
	}
	if _, err := answerOf(&sdk.CreateMessageWithToolsResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png"}}}); err == nil || err.Error() != "the client answered with image content, not text" {
		t.Errorf("image: %v", err)
	}
	a, err = answerOf(&sdk.ListRootsResult{Roots: []*sdk.Root{{URI: "file:///a", Name: "a"}, nil}})
	if err != nil || len(a.Roots) != 1 || a.Roots[0] != (Root{URI: "file:///a", Name: "a"}) {
		t.Errorf("roots: %+v, %v", a.Roots, err)
	}
	a, err = answerOf(&sdk.ElicitResult{Action: "accept", Content: map[string]any{"x": 1.0}})
	if err != nil || a.Elicitation.Action != "accept" || a.Elicitation.Content["x"] != 1.0 {
		t.Errorf("elicitation: %+v, %v", a.Elicitation, err)
	}
}
