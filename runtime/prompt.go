package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"
)

// Prompt is an MCP prompt: messages a client offers its user, filled in
// from arguments. Generated code builds them from tools.yaml prompts: and
// //toolgen:prompt functions; serve them with Options.Prompts.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	// Handler renders the prompt. The server has checked that every
	// required argument is there (a missing one is an invalid-params
	// error) and that no unknown one is.
	Handler PromptHandler
}

// PromptArgument is one argument of a prompt. Values are strings.
type PromptArgument struct {
	Name        string
	Title       string
	Description string
	Required    bool
}

// PromptHandler renders a prompt from its arguments.
type PromptHandler func(ctx context.Context, args map[string]string) (*PromptResult, error)

// PromptResult is a rendered prompt.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// PromptMessage is one message of a prompt: Role "user" or "assistant".
type PromptMessage struct {
	Role    string
	Content Content
}

// UserMessage returns a user message of one text block.
func UserMessage(text string) PromptMessage { return PromptMessage{Role: "user", Content: Text(text)} }

// AssistantMessage returns an assistant message of one text block.
func AssistantMessage(text string) PromptMessage {
	return PromptMessage{Role: "assistant", Content: Text(text)}
}

// checkPromptArgs requires every required argument and refuses unknown
// ones, naming them.
func checkPromptArgs(p *Prompt, args map[string]string) error {
	var missing []string
	known := map[string]bool{}
	for _, a := range p.Arguments {
		known[a.Name] = true
		if _, ok := args[a.Name]; a.Required && !ok {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("prompt %s: missing required argument %s", p.Name, strings.Join(missing, ", "))
	}
	for name := range args {
		if !known[name] {
			return fmt.Errorf("prompt %s: unknown argument %q", p.Name, name)
		}
	}
	return nil
}

// CheckArgs requires every required argument of p in args and refuses
// unknown ones, naming them: what Get checks first.
func (p *Prompt) CheckArgs(args map[string]string) error { return checkPromptArgs(p, args) }

// Get renders the prompt with args, as every surface serves it: each
// required argument present and none unknown (else an error naming them),
// the handler's panic recovered into an error, a nil result refused.
func (p *Prompt) Get(ctx context.Context, args map[string]string) (*PromptResult, error) {
	if err := checkPromptArgs(p, args); err != nil {
		return nil, err
	}
	return safePrompt(ctx, p.Handler, args)
}

func safePrompt(ctx context.Context, h PromptHandler, args map[string]string) (res *PromptResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("prompt panicked: %v", v)
		}
	}()
	res, err = h(ctx, args)
	if err == nil && res == nil {
		err = errors.New("prompt returned no result")
	}
	return res, err
}

// DecodePromptArgs decodes a prompt's arguments into v, a struct whose
// fields are the arguments (by their json names), as generated code for a
// //toolgen:prompt function does.
func DecodePromptArgs(args map[string]string, v any) error {
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// TextPrompt is a prompt result of one user message.
func TextPrompt(text string) *PromptResult {
	return &PromptResult{Messages: []PromptMessage{UserMessage(text)}}
}

// TemplatePrompt returns a handler that renders text, a text/template over
// the arguments ({{.name}}), as one user message. An optional argument that
// was not given is the empty string. It panics if text does not parse:
// generated code passes templates toolgen has checked.
func TemplatePrompt(name, text string) PromptHandler {
	t := template.Must(template.New(name).Option("missingkey=zero").Parse(text))
	return func(_ context.Context, args map[string]string) (*PromptResult, error) {
		var b strings.Builder
		if err := t.Execute(&b, args); err != nil {
			return nil, err
		}
		return TextPrompt(b.String()), nil
	}
}
