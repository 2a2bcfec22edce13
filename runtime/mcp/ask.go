package mcp

//lint:file-ignore SA1019 sampling and roots are deprecated as of 2026-07-28 but supported (see session.go)

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// Questions to the client in toolgen's own types: a tool's package names
// no go-sdk type to ask (Ask, Roots), and the wire's types are made here.

// Question is one thing [Ask] asks the client: set exactly one field.
type Question struct {
	// Elicit asks the user for values, showing a message.
	Elicit *ElicitQuestion
	// Sample asks the client's model for a completion.
	Sample *SampleQuestion
	// Roots asks for the client's roots.
	Roots *RootsQuestion
}

// ElicitQuestion asks the user for the values Schema describes (a flat
// object of strings, numbers, booleans and enums, as MCP allows), showing
// Message. runtime.ElicitAs asks for a Go type's values instead.
type ElicitQuestion struct {
	Message string
	Schema  json.RawMessage
}

// SampleQuestion asks the client's model to complete Prompt (a user
// message), with SystemPrompt when it is not empty, in at most MaxTokens
// tokens.
type SampleQuestion struct {
	Prompt       string
	SystemPrompt string
	MaxTokens    int64
}

// RootsQuestion asks for the client's roots.
type RootsQuestion struct{}

// Answer is the client's answer to a [Question]: the field of the
// question's kind is set.
type Answer struct {
	// Elicitation is the user's answer to an ElicitQuestion.
	Elicitation *runtime.Elicitation
	// Sample is the model's answer to a SampleQuestion.
	Sample *Sampled
	// Roots are the client's roots (RootsQuestion).
	Roots []Root
}

// Sampled is a model's completion.
type Sampled struct {
	// Text is the completion's text: its first text content.
	Text string
	// Model names the model that answered; StopReason says why it
	// stopped ("endTurn", "maxTokens", ...), when the client says.
	Model, StopReason string
}

// Root is a directory or file the client lets the server work in.
type Root struct {
	URI  string // a file:// URI
	Name string // optional
}

// Ask asks the client for several things at once, each under a key of the
// caller's choosing, and returns the answers under the same keys. A
// question whose capability the client did not declare fails with an
// error wrapping [runtime.ErrUnsupported]. Over protocol 2026-07-28 the
// questions go to the client together, in one input-required result (see
// [runtime.ErrInputRequired]); in older sessions one after the other, in
// the order of their keys. An accepted elicitation's content fits its
// schema, with the schema's defaults filled in.
func Ask(ctx context.Context, questions map[string]Question) (map[string]Answer, error) {
	requests := make(sdk.InputRequestMap, len(questions))
	for key, q := range questions {
		r, err := q.request()
		if err != nil {
			return nil, fmt.Errorf("mcp.Ask: question %q: %w", key, err)
		}
		requests[key] = r
	}
	res, err := ask(ctx, requests)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Answer, len(res))
	for key, r := range res {
		a, err := answerOf(r)
		if err != nil {
			return nil, fmt.Errorf("mcp.Ask: answer %q: %w", key, err)
		}
		out[key] = a
	}
	return out, nil
}

// request is q as the SDK's request.
func (q Question) request() (sdk.InputRequest, error) {
	var r sdk.InputRequest
	n := 0
	if q.Elicit != nil {
		n++
		r = &sdk.ElicitParams{Message: q.Elicit.Message, RequestedSchema: q.Elicit.Schema}
	}
	if q.Sample != nil {
		n++
		r = sampleRequest(q.Sample)
	}
	if q.Roots != nil {
		n++
		r = &sdk.ListRootsParams{}
	}
	if n != 1 {
		return nil, fmt.Errorf("a Question sets exactly one of Elicit, Sample and Roots, not %d", n)
	}
	return r, nil
}

func sampleRequest(q *SampleQuestion) *sdk.CreateMessageParams {
	return &sdk.CreateMessageParams{
		Messages:     []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: q.Prompt}}},
		SystemPrompt: q.SystemPrompt,
		MaxTokens:    q.MaxTokens,
	}
}

// answerOf is the SDK's answer as toolgen's.
func answerOf(r sdk.InputResponse) (Answer, error) {
	switch r := r.(type) {
	case *sdk.ElicitResult:
		return Answer{Elicitation: &runtime.Elicitation{Action: r.Action, Content: r.Content}}, nil
	case *sdk.CreateMessageWithToolsResult:
		s, err := sampled(r.Content, r.Model, r.StopReason)
		return Answer{Sample: s}, err
	case *sdk.CreateMessageResult:
		s, err := sampled([]sdk.Content{r.Content}, r.Model, r.StopReason)
		return Answer{Sample: s}, err
	case *sdk.ListRootsResult:
		roots := make([]Root, 0, len(r.Roots))
		for _, rt := range r.Roots {
			if rt != nil {
				roots = append(roots, Root{URI: rt.URI, Name: rt.Name})
			}
		}
		return Answer{Roots: roots}, nil
	}
	return Answer{}, fmt.Errorf("unexpected answer %T", r)
}

// sampled is a model's answer: the text of its first text content.
func sampled(content []sdk.Content, model, stop string) (*Sampled, error) {
	for _, c := range content {
		if t, ok := c.(*sdk.TextContent); ok {
			return &Sampled{Text: t.Text, Model: model, StopReason: stop}, nil
		}
	}
	if len(content) == 0 || content[0] == nil {
		return nil, errors.New("the client answered with no content")
	}
	return nil, fmt.Errorf("the client answered with %s content, not text", contentType(content[0]))
}

// contentType is the wire's name of a content block's type.
func contentType(c sdk.Content) string {
	switch c.(type) {
	case *sdk.ImageContent:
		return "image"
	case *sdk.AudioContent:
		return "audio"
	case *sdk.ResourceLink:
		return "resource_link"
	case *sdk.EmbeddedResource:
		return "resource"
	}
	return "non-text"
}

// ask is Ask in the SDK's types, which the paths a question takes keep.
func ask(ctx context.Context, requests sdk.InputRequestMap) (sdk.InputResponseMap, error) {
	c, err := callOf(ctx)
	if err != nil {
		return nil, err
	}
	if c.task != nil && c.task.isStarted() {
		return c.task.ask(ctx, c.capabilities(), requests)
	}
	if c.input != nil {
		return c.input.ask(requests)
	}
	caps := c.capabilities()
	out := make(sdk.InputResponseMap, len(requests))
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		p := requests[key]
		if cap := capabilityFor(p); !declared(caps, cap) {
			return nil, &capabilityError{cap}
		}
		r, err := c.askSession(ctx, p)
		if err != nil {
			return nil, err
		}
		out[key] = r
	}
	return out, nil
}

// askSession sends one request to the client of a session of an older
// protocol revision.
func (c *mcpCall) askSession(ctx context.Context, p sdk.InputRequest) (sdk.InputResponse, error) {
	switch p := p.(type) {
	case *sdk.ElicitParams:
		return c.session.Elicit(ctx, p)
	case *sdk.CreateMessageParams:
		r, err := c.session.CreateMessage(ctx, p)
		if err != nil {
			return nil, err
		}
		return &sdk.CreateMessageWithToolsResult{Meta: r.Meta, Content: []sdk.Content{r.Content}, Model: r.Model, Role: r.Role, StopReason: r.StopReason}, nil
	case *sdk.CreateMessageWithToolsParams:
		return c.session.CreateMessageWithTools(ctx, p)
	case *sdk.ListRootsParams:
		return c.session.ListRoots(ctx, p)
	}
	return nil, fmt.Errorf("runtime: cannot ask the client with %T", p)
}

// askOne asks one question under a key of the runtime's own.
func askOne(ctx context.Context, kind string, q Question) (Answer, error) {
	key := kind
	if c, err := callOf(ctx); err == nil && c.input != nil {
		key = c.input.nextKey(kind)
	}
	r, err := q.request()
	if err != nil {
		return Answer{}, err
	}
	res, err := ask(ctx, sdk.InputRequestMap{key: r})
	if err != nil {
		if errors.Is(err, runtime.ErrUnsupported) || errors.Is(err, runtime.ErrInputRequired) || errors.Is(err, runtime.ErrNoSession) {
			return Answer{}, err
		}
		return Answer{}, fmt.Errorf("%s: %w", kind, err)
	}
	a, err := answerOf(res[key])
	if err != nil {
		return Answer{}, fmt.Errorf("%s: %w", kind, err)
	}
	return a, nil
}

// Sample asks the client's model to complete prompt (a user message) in at
// most maxTokens tokens, and returns the text of its answer.
func (c *mcpCall) Sample(ctx context.Context, prompt string, maxTokens int64) (string, error) {
	a, err := askOne(ctx, "sampling", Question{Sample: &SampleQuestion{Prompt: prompt, MaxTokens: maxTokens}})
	if err != nil {
		return "", err
	}
	return a.Sample.Text, nil
}

// Elicit asks the user, through the client, for the values schema
// describes (a flat object of strings, numbers, booleans and enums, as MCP
// allows), showing message.
func (c *mcpCall) Elicit(ctx context.Context, message string, schema json.RawMessage) (*runtime.Elicitation, error) {
	a, err := askOne(ctx, "elicitation", Question{Elicit: &ElicitQuestion{Message: message, Schema: schema}})
	if err != nil {
		return nil, err
	}
	return a.Elicitation, nil
}

// Roots returns the client's roots: the directories and files it lets the
// server work in.
func Roots(ctx context.Context) ([]Root, error) {
	a, err := askOne(ctx, "roots", Question{Roots: &RootsQuestion{}})
	if err != nil {
		return nil, err
	}
	return a.Roots, nil
}

// CanAsk reports whether the client of the call ctx carries declared the
// capability q needs (elicitation, sampling or roots), so that a tool can
// ask only what the client can answer.
func CanAsk(ctx context.Context, q Question) bool {
	c, err := callOf(ctx)
	if err != nil {
		return false
	}
	r, err := q.request()
	return err == nil && declared(c.capabilities(), capabilityFor(r))
}
