package runtime

import (
	"context"
	"encoding/json"
	"errors"
)

// What a tool (or a prompt, or a resource) can do with the client through
// its ctx when the surface it was called on has a client to reach (MCP:
// runtime/mcp): log, report progress, ask the user for input, ask for a
// sampling completion. On other surfaces (the explorer's REST protocol,
// OXP, /v1, a direct call of Invoke) these return [ErrNoSession] instead
// of failing silently.
//
// A tool is written once for every protocol revision. In an MCP session of
// an older revision (2025-11-25 and before, over Streamable HTTP, /sse or
// stdio) the helpers ask the client there and then. Over revision
// 2026-07-28, which has no sessions, they cannot: the first time a helper
// needs an answer it returns an error wrapping [ErrInputRequired], which
// the tool returns; the client is sent an input-required result, answers,
// and calls again; the tool runs again and this time each helper returns
// the client's answer. So a tool should ask before it does anything it
// must not do twice.
//
// The core names no wire type here: a surface hands the pipeline a
// [ClientSession] of its own with [WithClientSession]. runtime/mcp adds
// what only MCP has (several requests at once, the client's roots, the
// go-sdk session) as functions of its own.

// ErrNoSession reports that a tool was not called over a surface with a
// client session (MCP), so there is no client to log to, report progress
// to or ask.
var ErrNoSession = errors.New("runtime: not called over MCP: no client session")

// ErrUnsupported reports that the client did not declare the capability a
// request needs (sampling, elicitation, roots). Over MCP 2026-07-28 a
// tool that returns it is answered with the protocol's
// MissingRequiredClientCapabilityError, naming the capability.
var ErrUnsupported = errors.New("runtime: the client does not support this")

// ErrInputRequired is wrapped by the error a ctx helper ([Elicit],
// [Sample], and runtime/mcp's Ask and Roots) returns when the request
// speaks MCP 2026-07-28 and the client has not answered yet: the handler
// should return it (as it would any error). The request is then answered
// with an input-required result, and the handler runs again, from the
// start, once the client has the answers; it should do nothing it cannot
// do twice before it has them.
var ErrInputRequired = errors.New("runtime: waiting for the client's input")

// ClientSession is the way back to the client a call came from, as a
// surface with one (runtime/mcp) offers it to the call's handler. Its
// methods are those of the helpers below, which find it in the ctx.
type ClientSession interface {
	Log(ctx context.Context, level string, data any) error
	Progress(ctx context.Context, progress, total float64, message string) error
	Sample(ctx context.Context, prompt string, maxTokens int64) (string, error)
	Elicit(ctx context.Context, message string, schema json.RawMessage) (*Elicitation, error)
}

type clientSessionKey struct{}

// WithClientSession returns ctx carrying cs, for the handler a surface
// runs: the helpers below reach the client through it.
func WithClientSession(ctx context.Context, cs ClientSession) context.Context {
	return context.WithValue(ctx, clientSessionKey{}, cs)
}

// ClientSessionFromContext returns the client session ctx carries.
func ClientSessionFromContext(ctx context.Context) (ClientSession, bool) {
	cs, ok := ctx.Value(clientSessionKey{}).(ClientSession)
	return cs, ok && cs != nil
}

// Log sends a log message to the client at level ("debug", "info",
// "notice", "warning", "error", "critical", "alert", "emergency"); data is
// any JSON value, usually a string. Messages below the level the client set
// (with logging/setLevel, or in protocol 2026-07-28 in the request) are
// dropped, and nothing is sent before it sets one, as MCP says.
func Log(ctx context.Context, level string, data any) error {
	cs, ok := ClientSessionFromContext(ctx)
	if !ok {
		return ErrNoSession
	}
	return cs.Log(ctx, level, data)
}

// Progress reports how far the call has come (progress of total, total 0
// when unknown) with an optional message. When the client asked for no
// progress (it sent no progress token) there is no one to tell, and
// Progress returns nil.
func Progress(ctx context.Context, progress, total float64, message string) error {
	cs, ok := ClientSessionFromContext(ctx)
	if !ok {
		return ErrNoSession
	}
	return cs.Progress(ctx, progress, total, message)
}

// Sample asks the client's model to complete prompt (a user message) in at
// most maxTokens tokens, and returns the text of its answer.
func Sample(ctx context.Context, prompt string, maxTokens int64) (string, error) {
	cs, ok := ClientSessionFromContext(ctx)
	if !ok {
		return "", ErrNoSession
	}
	return cs.Sample(ctx, prompt, maxTokens)
}

// Elicitation is the user's answer to [Elicit]: Action is "accept",
// "decline" or "cancel", and Content holds the accepted values.
type Elicitation struct {
	Action  string
	Content map[string]any
}

// Elicit asks the user, through the client, for the values schema
// describes (a flat object of strings, numbers, booleans and enums, as MCP
// allows), showing message. An accepted answer's content fits the schema,
// with its defaults filled in.
func Elicit(ctx context.Context, message string, schema json.RawMessage) (*Elicitation, error) {
	cs, ok := ClientSessionFromContext(ctx)
	if !ok {
		return nil, ErrNoSession
	}
	return cs.Elicit(ctx, message, schema)
}
