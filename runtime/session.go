package runtime

// MCP deprecates logging and sampling as of protocol 2026-07-28 (SEP-2577),
// but they remain in the protocol versions clients speak today and in the
// SDK's deprecation window; a tool server is expected to offer them.
//
//lint:file-ignore SA1019 logging and sampling are deprecated but supported

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a tool can do with the client through its ctx when it was called
// over MCP: log, report progress, ask for a sampling completion, ask the
// user for input. On other surfaces (the explorer's REST protocol, a direct
// handler call) these return ErrNoSession instead of failing silently.

// ErrNoSession reports that a tool was not called over an MCP session, so
// there is no client to log to, report progress to or ask.
var ErrNoSession = errors.New("runtime: not called over MCP: no client session")

// ErrUnsupported reports that the client did not declare the capability a
// request needs (sampling, elicitation).
var ErrUnsupported = errors.New("runtime: the client does not support this")

func callOf(ctx context.Context) (*mcpCall, error) {
	c, ok := ctx.Value(mcpCallKey{}).(*mcpCall)
	if !ok || c.session == nil {
		return nil, ErrNoSession
	}
	return c, nil
}

// Session returns the MCP session a tool was called in, for what the
// helpers below do not cover.
func Session(ctx context.Context) (*mcp.ServerSession, bool) {
	c, err := callOf(ctx)
	if err != nil {
		return nil, false
	}
	return c.session, true
}

// Log sends a log message to the client at level ("debug", "info",
// "notice", "warning", "error", "critical", "alert", "emergency"); data is
// any JSON value, usually a string. Messages below the level the client set
// with logging/setLevel are dropped, and nothing is sent before it sets
// one, as MCP says.
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
	tok := c.req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	return c.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Total: total, Message: message})
}

// Sample asks the client's model to complete prompt (a user message) in at
// most maxTokens tokens, and returns the text of its answer.
func Sample(ctx context.Context, prompt string, maxTokens int64) (string, error) {
	c, err := callOf(ctx)
	if err != nil {
		return "", err
	}
	if p := c.session.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.Sampling == nil {
		return "", fmt.Errorf("%w: sampling", ErrUnsupported)
	}
	res, err := c.session.CreateMessage(ctx, &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}},
		MaxTokens: maxTokens,
	})
	if err != nil {
		return "", fmt.Errorf("sampling: %w", err)
	}
	t, ok := res.Content.(*mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("sampling: the client answered with %T, not text", res.Content)
	}
	return t.Text, nil
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
	c, err := callOf(ctx)
	if err != nil {
		return nil, err
	}
	if p := c.session.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return nil, fmt.Errorf("%w: elicitation", ErrUnsupported)
	}
	res, err := c.session.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return nil, fmt.Errorf("elicitation: %w", err)
	}
	return &Elicitation{Action: res.Action, Content: res.Content}, nil
}
