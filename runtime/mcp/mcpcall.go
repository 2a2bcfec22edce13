package mcp

// Sampling and roots are deprecated as of MCP 2026-07-28 but supported
// (see session.go).
//
//lint:file-ignore SA1019 sampling and roots are deprecated but supported

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// A tool call over MCP. The SDK dispatches tools/call to serveToolCall
// (registered for every tool, see registerTools), which runs the call
// through [runtime.Server.Invoke] and returns the SDK's own CallToolResult, so that
// the SDK does for toolgen's tools what it does for its own: check
// Mcp-Param-* headers, mark the result's type for the protocol revision,
// and carry input-required results.

// protocol20260728 is the revision from which a request stands alone: the
// server may not send requests of its own, and asks the client for input
// with input-required results instead (SEP-2322, SEP-2575).
const (
	protocol20260728 = "2026-07-28"
	// protocol20251125 brought priming events and resumable streams
	// (SEP-1699).
	protocol20251125 = "2025-11-25"
)

// mcpCall is what a handler run for an MCP request (a tool call, a prompt,
// a resource read) finds in its ctx: the way back to the client.
type mcpCall struct {
	srv     *server
	session *sdk.ServerSession
	// req is the request: *sdk.CallToolRequest, *sdk.GetPromptRequest or
	// *sdk.ReadResourceRequest; nil for tools/list.
	req sdk.Request
	// input is set when the request speaks protocol 2026-07-28: what the
	// handler asks of the client is then answered in later rounds.
	input *inputRound
	// task is set when the call may become an MCP task (mcptasks.go).
	task *taskRun
	// stream is set for a native tools/call (stream.go): progress and
	// log messages go there rather than through session.
	stream *eventStream
}

// requestInfo is what every *sdk.ServerRequest tells of its client.
type requestInfo interface {
	ProtocolVersion() string
	ClientCapabilities() *sdk.ClientCapabilities
}

func protocolOf(req sdk.Request) string {
	if ri, ok := req.(requestInfo); ok {
		return ri.ProtocolVersion()
	}
	return ""
}

// capabilities returns the client's capabilities: the request's own (from
// its _meta) in protocol 2026-07-28, else the session's.
func (c *mcpCall) capabilities() *sdk.ClientCapabilities {
	if ri, ok := c.req.(requestInfo); ok {
		return ri.ClientCapabilities()
	}
	if c.session != nil {
		if p := c.session.InitializeParams(); p != nil {
			return p.Capabilities
		}
	}
	return nil
}

// newCall readies the context of a handler run for req. kind and name say
// what is run ("tool", "prompt", "resource" and its name or URI) and, with
// the arguments that args returns (nil for none), bind a requestState to
// it: a requestState is only good for the same thing run with the same
// arguments, by the same caller. A requestState that does not open
// (tampered, expired, another call's) is an invalid-params error, and
// nothing runs.
//
// The binding and the client's capabilities are only worked out when a
// round needs them (a state to open or to seal, a request to the client):
// most calls ask nothing, and both cost a decoding of JSON (the arguments,
// canonicalized; the request's _meta, which the SDK decodes again each
// time it is asked for the capabilities).
func (s *server) newCall(ctx context.Context, req sdk.Request, kind, name string, args func() []byte, responses sdk.InputResponseMap, state string) (context.Context, *mcpCall, error) {
	ss, _ := req.GetSession().(*sdk.ServerSession)
	c := &mcpCall{srv: s, session: ss, req: req}
	c.task, _ = ctx.Value(taskRunKey{}).(*taskRun)
	c.stream, _ = ctx.Value(streamKey{}).(*eventStream) // a native prompt's or resource's (serveNative)
	if protocolOf(req) >= protocol20260728 {
		in := &inputRound{
			call:      c,
			binding:   func() string { return bindingOf(kind, name, argsOf(args), ownerOf(req)) },
			responses: responses,
		}
		if state != "" {
			st, err := s.sealer.open(state, in.bind())
			if err != nil {
				s.log.WarnContext(ctx, "MCP requestState refused", kind, name, "err", err)
				return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState: " + err.Error()}
			}
			in.state = st
			if in.stored, err = st.responses(); err != nil {
				return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState"}
			}
		}
		c.input = in
	}
	return runtime.WithClientSession(ctx, c), c, nil
}

func argsOf(args func() []byte) []byte {
	if args == nil {
		return nil
	}
	return args()
}

// ownerOf is the caller a request was authenticated as over HTTP (see
// mcpHandler): "" without an auth hook, or on stdio.
func ownerOf(req sdk.Request) string {
	if e := req.GetExtra(); e != nil && e.TokenInfo != nil {
		return e.TokenInfo.UserID
	}
	return ""
}

// serveToolCall is the SDK registry's handler of every tool.
func (s *server) serveToolCall(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	return s.callTool(ctx, req, nil)
}

// callTool runs a tools/call; what the tool reports while it runs goes to
// stream when there is one (a native call, stream.go), else through the
// request's session.
func (s *server) callTool(ctx context.Context, req *sdk.CallToolRequest, stream *eventStream) (*sdk.CallToolResult, error) {
	name := req.Params.Name
	var args func() []byte
	if protocolOf(req) >= protocol20260728 {
		// The binding is of the arguments the client sent: a copy, as the
		// handler may change the ones it is given before it is worked out.
		raw := bytes.Clone(req.Params.Arguments)
		args = func() []byte { return jsoncheck.Canonical(raw) }
	}
	ctx, c, err := s.newCall(ctx, req, "tool", name, args, req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, err
	}
	c.stream = stream
	arguments := req.Params.Arguments
	if string(bytes.TrimSpace(arguments)) == "null" {
		arguments = nil // no arguments, as some clients send them: {}
	}
	c2 := &runtime.Call{Tool: name, Arguments: arguments, Surface: runtime.SurfaceMCP}
	if c.task != nil {
		c2.BeforeRun = []func(context.Context, *runtime.Tool) error{c.task.beforeRun}
	}
	if e := req.GetExtra(); e != nil && e.Header != nil {
		c2.CorrelationID = e.Header.Get(httpkit.HeaderCorrelationID)
		c2.TraceID = httpkit.TraceParentID(e.Header.Get(httpkit.HeaderTraceparent))
	}
	if s.opts.Tracer != nil {
		c2.RPC = mcpInfo("tools/call", name, req)
		c2.TraceContext = c2.RPC.TraceContext
	}
	out := s.core.Invoke(ctx, c2)
	switch out.Status {
	case runtime.StatusUnavailable:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgProviderFailed}
	case runtime.StatusNotFound:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
	case runtime.StatusTimeout:
		// The handler may still be running: what it asks now is moot.
	default:
		if ir, ok := c.inputRequired(ctx); ok {
			return &sdk.CallToolResult{InputRequests: ir.requests, RequestState: ir.state}, nil
		}
	}
	if err := c.missingCapability(out.Err); err != nil {
		return nil, err
	}
	if c.task != nil && c.task.isStarted() {
		if err := taskFailure(out); err != nil {
			return nil, err
		}
	}
	return sdkCallResult(out.Result)
}

// sdkCallResult is the pipeline's result as the SDK's CallToolResult.
func sdkCallResult(r *runtime.Result) (*sdk.CallToolResult, error) {
	res := &sdk.CallToolResult{Content: make([]sdk.Content, 0, len(r.Content)), StructuredContent: r.StructuredContent, IsError: r.IsError}
	for _, c := range r.Content {
		mc, err := mcpContent(c)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the tool's result does not encode: " + err.Error()}
		}
		res.Content = append(res.Content, mc)
	}
	if r.TraceID != "" {
		res.Meta = sdk.Meta{"_trace_id": r.TraceID}
	}
	return res, nil
}

// missingCapability is, in protocol 2026-07-28, the protocol error for a
// handler that failed because the client did not declare a capability it
// needs (MissingRequiredClientCapabilityError, HTTP 400). In earlier
// revisions that failure is the handler's own: an isError result.
func (c *mcpCall) missingCapability(err error) error {
	if c.input == nil || err == nil {
		return nil
	}
	var ce *capabilityError
	if !errors.As(err, &ce) {
		return nil
	}
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": ce.required()})
	return &jsonrpc.Error{Code: sdk.CodeMissingRequiredClientCapabilities, Message: ce.Error(), Data: data}
}
