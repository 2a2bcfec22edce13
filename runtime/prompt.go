package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

func (s *Server) addPrompt(p *Prompt) {
	if p.Name == "" || p.Handler == nil {
		panic(fmt.Sprintf("runtime.NewServer: prompt %q without a name or a handler", p.Name))
	}
	mp := &mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
	for _, a := range p.Arguments {
		mp.Arguments = append(mp.Arguments, &mcp.PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
	}
	h := func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := req.Params.Arguments
		if args == nil {
			args = map[string]string{}
		}
		if err := checkPromptArgs(p, args); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		// Bound before the handler runs, which may change args.
		b, _ := json.Marshal(args)
		bind := func() []byte { return b }
		ctx, c, err := s.newCall(ctx, req, "prompt", p.Name, bind, req.Params.InputResponses, req.Params.RequestState)
		if err != nil {
			return nil, err
		}
		res, err := safePrompt(ctx, p.Handler, args)
		if ir, ok := c.inputRequired(ctx); ok {
			return &mcp.GetPromptResult{InputRequests: ir.requests, RequestState: ir.state}, nil
		}
		if err := c.missingCapability(err); err != nil {
			return nil, err
		}
		if err != nil {
			s.log.ErrorContext(ctx, "prompt failed", "prompt", p.Name, "err", err)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		out := &mcp.GetPromptResult{Description: res.Description, Messages: []*mcp.PromptMessage{}}
		for _, m := range res.Messages {
			mc, err := mcpContent(m.Content)
			if err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
			}
			out.Messages = append(out.Messages, &mcp.PromptMessage{Role: mcp.Role(m.Role), Content: mc})
		}
		return out, nil
	}
	s.mcp.srv.AddPrompt(mp, h)
	reg := &s.mcp.registry
	reg.prompts, reg.handler = append(reg.prompts, mp), append(reg.handler, h)
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

// mcpContent converts a content block to the SDK's type.
func mcpContent(c Content) (mcp.Content, error) {
	switch c.Type {
	case ContentText:
		return &mcp.TextContent{Text: c.Text}, nil
	case ContentImage:
		return &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType}, nil
	case ContentAudio:
		return &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType}, nil
	case ContentResource:
		if c.Resource == nil {
			return nil, errors.New("resource content without a resource")
		}
		r := c.Resource
		return &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text, Blob: r.Blob}}, nil
	case ContentResourceLink:
		return &mcp.ResourceLink{URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description, MIMEType: c.MIMEType, Size: c.Size}, nil
	}
	return nil, fmt.Errorf("unknown content type %q", c.Type)
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
