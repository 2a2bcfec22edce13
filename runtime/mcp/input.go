package mcp

// Sampling and roots are deprecated as of MCP 2026-07-28 but supported
// (see session.go).
//
//lint:file-ignore SA1019 sampling and roots are deprecated but supported

import (
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

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/compile"
	"github.com/toolgen-go/toolgen/runtime"
)

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

func (ss *stateSealer) seal(st *inputState) (string, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return "", err
	}
	nonce := randomKey(ss.aead.NonceSize())
	return base64.RawURLEncoding.EncodeToString(ss.aead.Seal(nonce, nonce, b, stateAD)), nil
}

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

// newStateSealer seals with key's SHA-256 (a random key when none).
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

var (
	errStateForged  = errors.New("not issued by this server, or altered")
	errStateExpired = errors.New("expired")
	errStateOther   = errors.New("issued for another request")
)
