package mcp

// Sampling and roots are deprecated as of MCP 2026-07-28 but supported
// (see session.go).
//
//lint:file-ignore SA1019 sampling and roots are deprecated but supported

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/compile"
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

// Input-required results. A handler that asks the client for something
// (Elicit, Sample, Roots, Ask) over protocol 2026-07-28 is not answered
// while it runs: the helper records what it needs and returns an error
// wrapping [runtime.ErrInputRequired], the request is answered with an
// input-required result naming each request, and the client retries it
// with the answers. The handler then runs again from the start, and this
// time each helper finds its answer. Answers from earlier rounds travel in
// the requestState, sealed with Options.StateKey.

// inputStateTTL bounds how long an input-required round may wait for the
// client (and its user) to answer.
const inputStateTTL = time.Hour

// inputRound is one run of a handler within a multi-round request.
type inputRound struct {
	mu   sync.Mutex
	call *mcpCall
	// binding works out what a requestState is bound to; bind and caps
	// (see newCall) keep it and the client's capabilities once known.
	binding   func() string
	bound     string
	caps      *sdk.ClientCapabilities
	capsKnown bool
	responses sdk.InputResponseMap // this round's answers
	state     *inputState          // earlier rounds', when the client sent a state
	stored    sdk.InputResponseMap // state.Answers decoded
	n         int                  // requests with keys of the runtime's own so far
	used      map[string]storedAnswer
	pending   sdk.InputRequestMap
	asked     map[string]string // key → hash of the pending request
}

// bind returns what the round's requestState is bound to.
func (in *inputRound) bind() string {
	if in.bound == "" {
		in.bound = in.binding()
	}
	return in.bound
}

// capabilities returns the client's capabilities, with in.mu held.
func (in *inputRound) capabilities() *sdk.ClientCapabilities {
	if !in.capsKnown {
		in.caps, in.capsKnown = in.call.capabilities(), true
	}
	return in.caps
}

// inputState is a requestState before it is sealed.
type inputState struct {
	Bind    string                  `json:"b"`
	Expires int64                   `json:"e"`
	Answers map[string]storedAnswer `json:"a,omitempty"`
	// Asked is what the round asked: the key and hash of each request.
	Asked map[string]string `json:"q,omitempty"`
}

type storedAnswer struct {
	Hash   string          `json:"h"`
	Answer json.RawMessage `json:"r"`
}

func (st *inputState) responses() (sdk.InputResponseMap, error) {
	raw := make(map[string]json.RawMessage, len(st.Answers))
	for k, a := range st.Answers {
		raw[k] = a.Answer
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var m sdk.InputResponseMap
	err = json.Unmarshal(b, &m)
	return m, err
}

// nextKey is the key of the next request made with a key of the runtime's
// choosing: requests are numbered in the order the handler makes them,
// which is the same in every round.
func (in *inputRound) nextKey(kind string) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.n++
	return fmt.Sprintf("%s-%d", kind, in.n)
}

// ask answers requests from what the client has sent, or records them as
// pending.
func (in *inputRound) ask(requests sdk.InputRequestMap) (sdk.InputResponseMap, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make(sdk.InputResponseMap, len(requests))
	var missing []string
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		p := requests[key]
		h, err := requestHash(p)
		if err != nil {
			return nil, err
		}
		if r, ok := in.answer(key, h, p); ok {
			out[key] = r
			continue
		}
		if cap := capabilityFor(p); !declared(in.capabilities(), cap) {
			return nil, &capabilityError{cap}
		}
		if in.pending == nil {
			in.pending, in.asked = sdk.InputRequestMap{}, map[string]string{}
		}
		in.pending[key] = p
		in.asked[key] = h
		missing = append(missing, key)
	}
	if len(missing) > 0 {
		return nil, newInputRequired(missing)
	}
	return out, nil
}

// answer finds the answer to the request p under key: this round's answer
// to what the last round asked (to anything, when the client sent no
// state), else an earlier round's, provided it answers the same request
// and is the right kind of answer.
func (in *inputRound) answer(key, hash string, p sdk.InputRequest) (sdk.InputResponse, bool) {
	if r, ok := in.responses[key]; ok && (in.state == nil || in.state.Asked[key] == hash) {
		if accept(p, r) {
			in.keep(key, hash, r)
			return r, true
		}
	}
	if in.state != nil {
		if a, ok := in.state.Answers[key]; ok && a.Hash == hash {
			if r, ok := in.stored[key]; ok && accept(p, r) {
				in.keep(key, hash, r)
				return r, true
			}
		}
	}
	return nil, false
}

func (in *inputRound) keep(key, hash string, r sdk.InputResponse) {
	b, err := json.Marshal(r)
	if err == nil {
		if in.used == nil {
			in.used = map[string]storedAnswer{}
		}
		in.used[key] = storedAnswer{Hash: hash, Answer: b}
	}
}

// inputRequest is an input-required result in the making.
type inputRequest struct {
	requests sdk.InputRequestMap
	state    string
}

// inputRequired returns what the handler asked and has no answer for,
// with the state to send along, if it asked anything.
func (c *mcpCall) inputRequired(ctx context.Context) (*inputRequest, bool) {
	if c.input == nil {
		return nil, false
	}
	in := c.input
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.pending) == 0 {
		return nil, false
	}
	st := &inputState{Bind: in.bind(), Expires: time.Now().Add(inputStateTTL).Unix(), Answers: in.used, Asked: in.asked}
	sealed, err := c.srv.sealer.seal(st)
	if err != nil {
		c.srv.log.ErrorContext(ctx, "sealing a requestState failed", "err", err)
		return nil, false
	}
	return &inputRequest{requests: maps.Clone(in.pending), state: sealed}, true
}

// accept reports whether r is an answer of the kind p asks for. An
// accepted elicitation must fit the requested schema; the schema's defaults
// fill what it leaves out, as the SDK does for a session's Elicit.
func accept(p sdk.InputRequest, r sdk.InputResponse) bool {
	switch p := p.(type) {
	case *sdk.ElicitParams:
		e, ok := r.(*sdk.ElicitResult)
		if !ok || e == nil {
			return false
		}
		switch e.Action {
		case "decline", "cancel":
			return true
		case "accept":
			return p.Mode == "url" || fitsSchema(p.RequestedSchema, &e.Content)
		}
		return false
	case *sdk.CreateMessageParams, *sdk.CreateMessageWithToolsParams:
		switch r := r.(type) {
		case *sdk.CreateMessageWithToolsResult:
			return r != nil
		case *sdk.CreateMessageResult:
			return r != nil
		}
		return false
	case *sdk.ListRootsParams:
		rr, ok := r.(*sdk.ListRootsResult)
		return ok && rr != nil
	}
	return false
}

// fitsSchema validates an elicitation's content against the schema it was
// asked with, and fills in the defaults of properties it leaves out.
func fitsSchema(schema any, content *map[string]any) bool {
	if schema == nil {
		return true
	}
	src, err := json.Marshal(schema)
	if err != nil {
		return false
	}
	var props struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(src, &props)
	if *content == nil {
		*content = map[string]any{}
	}
	for name, p := range props.Properties {
		if _, ok := (*content)[name]; !ok && len(p.Default) > 0 {
			var v any
			if json.Unmarshal(p.Default, &v) == nil {
				(*content)[name] = v
			}
		}
	}
	sch, err := compile.Schema(src)
	if err != nil {
		return false
	}
	b, err := json.Marshal(*content)
	if err != nil {
		return false
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return false
	}
	return sch.Validate(v) == nil
}

// requestHash identifies a request by its content.
func requestHash(p sdk.InputRequest) (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("runtime: request to the client does not encode: %w", err)
	}
	kind := capabilityFor(p)
	sum := sha256.Sum256(append([]byte(kind+"\x00"), b...))
	return hex.EncodeToString(sum[:12]), nil
}

// bindingOf ties a requestState to one request: what runs, with which
// arguments, for whom.
func bindingOf(kind, name string, args []byte, owner string) string {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(kind), []byte(name), args, []byte(owner)} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// stateSealer seals requestStates with AES-256-GCM: the client can neither
// read nor change them.
type stateSealer struct{ aead cipher.AEAD }

var stateAD = []byte("toolgen requestState v1")

func newStateSealer(key []byte) *stateSealer {
	if len(key) == 0 {
		key = randomKey(32)
	}
	sum := sha256.Sum256(key)
	block, err := aes.NewCipher(sum[:])
	if err != nil {
		panic(err) // a 32-byte key always makes a cipher
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &stateSealer{aead: aead}
}

func (ss *stateSealer) seal(st *inputState) (string, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	nonce := randomKey(ss.aead.NonceSize())
	return base64.RawURLEncoding.EncodeToString(ss.aead.Seal(nonce, nonce, b, stateAD)), nil
}

var (
	errStateForged  = errors.New("not issued by this server, or altered")
	errStateExpired = errors.New("expired")
	errStateOther   = errors.New("issued for another request")
)

func (ss *stateSealer) open(sealed, bind string) (*inputState, error) {
	b, err := base64.RawURLEncoding.DecodeString(sealed)
	n := ss.aead.NonceSize()
	if err != nil || len(b) < n {
		return nil, errStateForged
	}
	plain, err := ss.aead.Open(nil, b[:n], b[n:], stateAD)
	if err != nil {
		return nil, errStateForged
	}
	var st inputState
	if err := json.Unmarshal(plain, &st); err != nil {
		return nil, errStateForged
	}
	if time.Now().Unix() > st.Expires {
		return nil, errStateExpired
	}
	if st.Bind != bind {
		return nil, errStateOther
	}
	return &st, nil
}

// inputRequiredError is ErrInputRequired for some keys. It is also a
// ToolError, so that a round that ends waiting is logged as the tool
// working as meant.
type inputRequiredError struct {
	keys []string
	tool *runtime.ToolError
}

func newInputRequired(keys []string) *inputRequiredError {
	return &inputRequiredError{keys: keys, tool: &runtime.ToolError{
		Message:  "Waiting for the client's input: " + strings.Join(keys, ", ") + ".",
		CanRetry: true,
	}}
}

func (e *inputRequiredError) Error() string {
	return runtime.ErrInputRequired.Error() + ": " + strings.Join(e.keys, ", ")
}

func (e *inputRequiredError) Unwrap() []error { return []error{runtime.ErrInputRequired, e.tool} }

// capabilityError is ErrUnsupported for one capability.
type capabilityError struct{ capability string }

func (e *capabilityError) Error() string { return runtime.ErrUnsupported.Error() + ": " + e.capability }
func (e *capabilityError) Unwrap() error { return runtime.ErrUnsupported }

// required is the capability as MissingRequiredClientCapabilityError's
// data names it: {"sampling": {}}, {"elicitation": {"url": {}}}.
func (e *capabilityError) required() map[string]any {
	name, sub, ok := strings.Cut(e.capability, ".")
	if ok {
		return map[string]any{name: map[string]any{sub: map[string]any{}}}
	}
	return map[string]any{name: map[string]any{}}
}

// capabilityFor is the client capability a request needs.
func capabilityFor(p sdk.InputRequest) string {
	switch p := p.(type) {
	case *sdk.ElicitParams:
		if p.Mode == "url" {
			return "elicitation.url"
		}
		return "elicitation"
	case *sdk.CreateMessageParams, *sdk.CreateMessageWithToolsParams:
		return "sampling"
	case *sdk.ListRootsParams:
		return "roots"
	}
	return fmt.Sprintf("%T", p)
}

// declared reports whether caps includes capability.
func declared(caps *sdk.ClientCapabilities, capability string) bool {
	if caps == nil {
		return false
	}
	switch capability {
	case "elicitation":
		return caps.Elicitation != nil
	case "elicitation.url":
		return caps.Elicitation != nil && caps.Elicitation.URL != nil
	case "sampling":
		return caps.Sampling != nil
	case "roots":
		return caps.RootsV2 != nil || caps.Roots.ListChanged
	}
	return false
}
