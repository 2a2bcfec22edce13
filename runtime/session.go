package runtime

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

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a tool (or a prompt, or a resource) can do with the client through
// its ctx when it was called over MCP: log, report progress, ask the user
// for input, ask for a sampling completion, list the client's roots. On
// other surfaces (the explorer's REST protocol, a direct handler call)
// these return ErrNoSession instead of failing silently.
//
// A tool is written once for every protocol revision. In a session of an
// older revision (2025-11-25 and before, over Streamable HTTP, /sse or
// stdio) the helpers ask the client there and then. Over revision
// 2026-07-28, which has no sessions, they cannot: the first time a helper
// needs an answer it returns an error wrapping [ErrInputRequired], which the
// tool returns; the client is sent an input-required result, answers, and
// calls again; the tool runs again and this time each helper returns the
// client's answer. So a tool should ask before it does anything it must not
// do twice.

// ErrNoSession reports that a tool was not called over an MCP session, so
// there is no client to log to, report progress to or ask.
var ErrNoSession = errors.New("runtime: not called over MCP: no client session")

// ErrUnsupported reports that the client did not declare the capability a
// request needs (sampling, elicitation, roots). Over protocol 2026-07-28 a
// tool that returns it is answered with the protocol's
// MissingRequiredClientCapabilityError, naming the capability.
var ErrUnsupported = errors.New("runtime: the client does not support this")

func callOf(ctx context.Context) (*mcpCall, error) {
	c, ok := ctx.Value(mcpCallKey{}).(*mcpCall)
	if !ok || c.session == nil {
		return nil, ErrNoSession
	}
	return c, nil
}

// SessionFromContext returns the MCP session a tool was called in, for what the
// helpers below do not cover.
func SessionFromContext(ctx context.Context) (*mcp.ServerSession, bool) {
	c, err := callOf(ctx)
	if err != nil {
		return nil, false
	}
	return c.session, true
}

// MCPRequestFromContext returns the MCP request a tool (or prompt, or resource) is
// run for: an *mcp.CallToolRequest, *mcp.GetPromptRequest or
// *mcp.ReadResourceRequest, with the request's extra information from the
// transport.
func MCPRequestFromContext(ctx context.Context) (mcp.Request, bool) {
	c, err := callOf(ctx)
	if err != nil || c.req == nil {
		return nil, false
	}
	return c.req, true
}

// ServerFromContext returns the server a request came to over MCP, for a
// tool that changes what the server offers (see [Server.NotifyToolsChanged]).
func ServerFromContext(ctx context.Context) (*Server, bool) {
	c, ok := ctx.Value(mcpCallKey{}).(*mcpCall)
	if !ok || c.srv == nil {
		return nil, false
	}
	return c.srv, true
}

// ClientCapabilitiesFromContext returns what the client declared it can do: in
// protocol 2026-07-28 with each request, before that when it opened the
// session.
func ClientCapabilitiesFromContext(ctx context.Context) (*mcp.ClientCapabilities, bool) {
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
func Log(ctx context.Context, level string, data any) error {
	c, err := callOf(ctx)
	if err != nil {
		return err
	}
	return c.session.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(level), Data: data})
}

// Progress reports how far the call has come (progress of total, total 0
// when unknown) with an optional message. When the client asked for no
// progress (it sent no progress token) there is no one to tell, and
// Progress returns nil.
func Progress(ctx context.Context, progress, total float64, message string) error {
	c, err := callOf(ctx)
	if err != nil {
		return err
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
	return c.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Total: total, Message: message})
}

// Ask asks the client for several things at once: each request (an
// *mcp.ElicitParams, *mcp.CreateMessageParams or *mcp.ListRootsParams)
// under a key of the caller's choosing, and returns the answers under the
// same keys (an *mcp.ElicitResult, *mcp.CreateMessageWithToolsResult or
// *mcp.ListRootsResult). A request whose capability the client did not
// declare fails with an error wrapping [ErrUnsupported]. Over protocol
// 2026-07-28 the requests go to the client together, in one input-required
// result (see [ErrInputRequired]); in older sessions one after the other,
// in the order of their keys. An accepted elicitation's content fits its
// schema, with the schema's defaults filled in.
func Ask(ctx context.Context, requests mcp.InputRequestMap) (mcp.InputResponseMap, error) {
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
	out := make(mcp.InputResponseMap, len(requests))
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
func (c *mcpCall) askSession(ctx context.Context, p mcp.InputRequest) (mcp.InputResponse, error) {
	switch p := p.(type) {
	case *mcp.ElicitParams:
		return c.session.Elicit(ctx, p)
	case *mcp.CreateMessageParams:
		r, err := c.session.CreateMessage(ctx, p)
		if err != nil {
			return nil, err
		}
		return &mcp.CreateMessageWithToolsResult{Meta: r.Meta, Content: []mcp.Content{r.Content}, Model: r.Model, Role: r.Role, StopReason: r.StopReason}, nil
	case *mcp.CreateMessageWithToolsParams:
		return c.session.CreateMessageWithTools(ctx, p)
	case *mcp.ListRootsParams:
		return c.session.ListRoots(ctx, p)
	}
	return nil, fmt.Errorf("runtime: cannot ask the client with %T", p)
}

// askOne asks one request under a key of the runtime's own.
func askOne(ctx context.Context, kind string, p mcp.InputRequest) (mcp.InputResponse, error) {
	key := kind
	if c, err := callOf(ctx); err == nil && c.input != nil {
		key = c.input.nextKey(kind)
	}
	res, err := Ask(ctx, mcp.InputRequestMap{key: p})
	if err != nil {
		if errors.Is(err, ErrUnsupported) || errors.Is(err, ErrInputRequired) || errors.Is(err, ErrNoSession) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	return res[key], nil
}

// Sample asks the client's model to complete prompt (a user message) in at
// most maxTokens tokens, and returns the text of its answer.
func Sample(ctx context.Context, prompt string, maxTokens int64) (string, error) {
	r, err := askOne(ctx, "sampling", &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}},
		MaxTokens: maxTokens,
	})
	if err != nil {
		return "", err
	}
	var content []mcp.Content
	switch r := r.(type) {
	case *mcp.CreateMessageWithToolsResult:
		content = r.Content
	case *mcp.CreateMessageResult:
		content = []mcp.Content{r.Content}
	}
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text, nil
		}
	}
	if len(content) == 0 {
		return "", errors.New("sampling: the client answered with no content")
	}
	return "", fmt.Errorf("sampling: the client answered with %T, not text", content[0])
}

// Elicitation is the user's answer to [Elicit]: Action is "accept",
// "decline" or "cancel", and Content holds the accepted values.
type Elicitation struct {
	Action  string
	Content map[string]any
}

// Elicit asks the user, through the client, for the values schema
// describes (a flat object of strings, numbers, booleans and enums, as MCP
// allows), showing message.
func Elicit(ctx context.Context, message string, schema json.RawMessage) (*Elicitation, error) {
	r, err := askOne(ctx, "elicitation", &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return nil, err
	}
	e := r.(*mcp.ElicitResult)
	return &Elicitation{Action: e.Action, Content: e.Content}, nil
}

// Roots returns the client's roots: the directories and files it lets the
// server work in.
func Roots(ctx context.Context) ([]*mcp.Root, error) {
	r, err := askOne(ctx, "roots", &mcp.ListRootsParams{})
	if err != nil {
		return nil, err
	}
	return r.(*mcp.ListRootsResult).Roots, nil
}
