package mcp

// MCP deprecates logging, sampling and roots as of protocol 2026-07-28
// (SEP-2577), but they remain in the protocol versions clients speak today
// and in the SDK's deprecation window; a tool server is expected to offer
// them.
//
//lint:file-ignore SA1019 logging, sampling and roots are deprecated but supported

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// What only MCP offers a tool through its ctx, besides the core's helpers
// (runtime.Log, Progress, Sample, Elicit, which reach the client through
// the runtime.ClientSession a call of this package carries): several
// requests at once ([Ask]), the client's roots ([Roots]), and the go-sdk's
// own values for what neither covers.

// callOf returns the MCP call ctx carries, with a client to reach: a
// session's, or a request's of revision 2026-07-28, which stands alone
// (toolgen's native path gives it no session).
func callOf(ctx context.Context) (*mcpCall, error) {
	c := mcpCallOf(ctx)
	if c == nil || (c.session == nil && c.input == nil) {
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
// helpers below do not cover. A request of revision 2026-07-28 has no
// session: false.
func SessionFromContext(ctx context.Context) (*sdk.ServerSession, bool) {
	c, err := callOf(ctx)
	if err != nil || c.session == nil {
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

// CloseStream closes the response stream of the request the tool runs
// for, telling the client to reconnect after retryAfter and to resume the
// stream from its last event (SEP-1699: Streamable HTTP at 2025-11-25,
// whose streams toolgen keeps resumable). It reports whether the request
// had such a stream.
func CloseStream(ctx context.Context, retryAfter time.Duration) bool {
	c, err := callOf(ctx)
	if err != nil || c.req == nil {
		return false
	}
	e := c.req.GetExtra()
	if e == nil || e.CloseSSEStream == nil {
		return false
	}
	e.CloseSSEStream(sdk.CloseSSEStreamArgs{RetryAfter: retryAfter})
	return true
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
	if c.stream != nil {
		return c.stream.log(level, data)
	}
	if c.session == nil {
		if c.input != nil {
			return nil // a 2026-07-28 request that set no level: nothing is sent
		}
		return runtime.ErrNoSession
	}
	return c.session.Log(ctx, &sdk.LoggingMessageParams{Level: sdk.LoggingLevel(level), Data: data})
}

// Progress reports how far the call has come (progress of total, total 0
// when unknown) with an optional message. When the client asked for no
// progress (it sent no progress token) there is no one to tell, and
// Progress returns nil.
func (c *mcpCall) Progress(ctx context.Context, progress, total float64, message string) error {
	if c.session == nil && c.input == nil {
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
	if c.stream != nil {
		return c.stream.notify("notifications/progress", &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Total: total, Message: message})
	}
	if c.session == nil {
		return nil // (a native call with a token has a stream)
	}
	return c.session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Total: total, Message: message})
}
