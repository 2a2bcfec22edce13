package mcp

// MCP deprecates logging, sampling and roots as of protocol 2026-07-28
// (SEP-2577), but they remain in the protocol versions clients speak today
// and in the SDK's deprecation window; a tool server is expected to offer
// them.
//
//lint:file-ignore SA1019 logging, sampling and roots are deprecated but supported

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

// What only MCP offers a tool through its ctx, besides the core's helpers
// (runtime.Log, Progress, Sample, Elicit, which reach the client through
// the runtime.ClientSession a call of this package carries): several
// requests at once ([Ask]), the client's roots ([Roots]), and the go-sdk's
// own values for what neither covers.

// callOf returns the MCP call ctx carries, with a session to reach.
func callOf(ctx context.Context) (*mcpCall, error) {
	c := mcpCallOf(ctx)
	if c == nil || c.session == nil {
		return nil, runtime.ErrNoSession
	}
	return c, nil
}

// mcpCallOf returns the MCP call ctx carries, if any.
func mcpCallOf(ctx context.Context) *mcpCall {
	cs, _ := runtime.ClientSessionFromContext(ctx)
	c, _ := cs.(*mcpCall)
	return c
}

// SessionFromContext returns the MCP session a tool was called in, for what the
// helpers below do not cover.
func SessionFromContext(ctx context.Context) (*sdk.ServerSession, bool) {
	c, err := callOf(ctx)
	if err != nil {
		return nil, false
	}
	return c.session, true
}

// MCPRequestFromContext returns the MCP request a tool (or prompt, or resource) is
// run for: an *sdk.CallToolRequest, *sdk.GetPromptRequest or
// *sdk.ReadResourceRequest, with the request's extra information from the
// transport.
func MCPRequestFromContext(ctx context.Context) (sdk.Request, bool) {
	c, err := callOf(ctx)
	if err != nil || c.req == nil {
		return nil, false
	}
	return c.req, true
}

// ServerFromContext returns the server a request came to over MCP, for a
// tool that changes what the server offers (see [runtime.Server.NotifyToolsChanged]).
func ServerFromContext(ctx context.Context) (*runtime.Server, bool) {
	c := mcpCallOf(ctx)
	if c == nil || c.srv == nil {
		return nil, false
	}
	return c.srv.core, true
}

// ClientCapabilitiesFromContext returns what the client declared it can do: in
// protocol 2026-07-28 with each request, before that when it opened the
// session.
func ClientCapabilitiesFromContext(ctx context.Context) (*sdk.ClientCapabilities, bool) {
	c, err := callOf(ctx)
	if err != nil {
		return nil, false
	}
	caps := c.capabilities()
	return caps, caps != nil
}

// Log sends a log message to the client at level ("debug", "info",
// "notice", "warning", "error", "critical", "alert", "emergency"); data is
// any JSON value, usually a string. Messages below the level the client set
// (with logging/setLevel, or in protocol 2026-07-28 in the request) are
// dropped, and nothing is sent before it sets one, as MCP says.
func (c *mcpCall) Log(ctx context.Context, level string, data any) error {
	if c.session == nil {
		return runtime.ErrNoSession
	}
	return c.session.Log(ctx, &sdk.LoggingMessageParams{Level: sdk.LoggingLevel(level), Data: data})
}

// Progress reports how far the call has come (progress of total, total 0
// when unknown) with an optional message. When the client asked for no
// progress (it sent no progress token) there is no one to tell, and
// Progress returns nil.
func (c *mcpCall) Progress(ctx context.Context, progress, total float64, message string) error {
	if c.session == nil {
		return runtime.ErrNoSession
	}
	if c.req == nil {
		return nil
	}
	p, ok := paramsOf(c.req).(interface{ GetProgressToken() any })
	if !ok {
		return nil
	}
	tok := p.GetProgressToken()
	if tok == nil {
		return nil
	}
	return c.session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Total: total, Message: message})
}

// Ask asks the client for several things at once: each request (an
// *sdk.ElicitParams, *sdk.CreateMessageParams or *sdk.ListRootsParams)
// under a key of the caller's choosing, and returns the answers under the
// same keys (an *sdk.ElicitResult, *sdk.CreateMessageWithToolsResult or
// *sdk.ListRootsResult). A request whose capability the client did not
// declare fails with an error wrapping [runtime.ErrUnsupported]. Over protocol
// 2026-07-28 the requests go to the client together, in one input-required
// result (see [runtime.ErrInputRequired]); in older sessions one after the other,
// in the order of their keys. An accepted elicitation's content fits its
// schema, with the schema's defaults filled in.
func Ask(ctx context.Context, requests sdk.InputRequestMap) (sdk.InputResponseMap, error) {
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

// askOne asks one request under a key of the runtime's own.
func askOne(ctx context.Context, kind string, p sdk.InputRequest) (sdk.InputResponse, error) {
	key := kind
	if c, err := callOf(ctx); err == nil && c.input != nil {
		key = c.input.nextKey(kind)
	}
	res, err := Ask(ctx, sdk.InputRequestMap{key: p})
	if err != nil {
		if errors.Is(err, runtime.ErrUnsupported) || errors.Is(err, runtime.ErrInputRequired) || errors.Is(err, runtime.ErrNoSession) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	return res[key], nil
}

// Sample asks the client's model to complete prompt (a user message) in at
// most maxTokens tokens, and returns the text of its answer.
func (c *mcpCall) Sample(ctx context.Context, prompt string, maxTokens int64) (string, error) {
	r, err := askOne(ctx, "sampling", &sdk.CreateMessageParams{
		Messages:  []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: prompt}}},
		MaxTokens: maxTokens,
	})
	if err != nil {
		return "", err
	}
	var content []sdk.Content
	switch r := r.(type) {
	case *sdk.CreateMessageWithToolsResult:
		content = r.Content
	case *sdk.CreateMessageResult:
		content = []sdk.Content{r.Content}
	}
	for _, c := range content {
		if t, ok := c.(*sdk.TextContent); ok {
			return t.Text, nil
		}
	}
	if len(content) == 0 {
		return "", errors.New("sampling: the client answered with no content")
	}
	return "", fmt.Errorf("sampling: the client answered with %T, not text", content[0])
}

// Elicit asks the user, through the client, for the values schema
// describes (a flat object of strings, numbers, booleans and enums, as MCP
// allows), showing message.
func (c *mcpCall) Elicit(ctx context.Context, message string, schema json.RawMessage) (*runtime.Elicitation, error) {
	r, err := askOne(ctx, "elicitation", &sdk.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return nil, err
	}
	e := r.(*sdk.ElicitResult)
	return &runtime.Elicitation{Action: e.Action, Content: e.Content}, nil
}

// Roots returns the client's roots: the directories and files it lets the
// server work in.
func Roots(ctx context.Context) ([]*sdk.Root, error) {
	r, err := askOne(ctx, "roots", &sdk.ListRootsParams{})
	if err != nil {
		return nil, err
	}
	return r.(*sdk.ListRootsResult).Roots, nil
}
