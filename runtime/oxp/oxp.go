// Package oxp serves OXP 1.0 (urn:oxp:1.0), the Open eXecution Protocol,
// for a [runtime.Server]: GET /tools lists the tools with versioned ids
// (Calculator.Add@1.0.0), POST /tools/call runs one through
// [runtime.Server.Invoke], GET /health says the server is up.
// [NewHandler] serves them wherever it is mounted; serve.NewHandler
// mounts it under /oxp, so that its /tools does not clash with the
// explorer's.
package oxp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/internal/toolname"
	"github.com/toolgen-go/toolgen/internal/typeschema"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
	"github.com/toolgen-go/toolgen/runtime/internal/uuid"
)

// Schema is the protocol's version URI, in every body.
const Schema = "urn:oxp:1.0"

// DefaultPrefix is where serve.NewHandler mounts the surface unless
// Options.Prefix moves it.
const DefaultPrefix = "/oxp"

// Options configures the OXP surface. The zero value (and nil) serves
// the listing behind the auth hook, under the toolkit "Tools".
type Options struct {
	// Disable and Prefix are read by serve.NewHandler, which mounts the
	// surface at Prefix (default [DefaultPrefix]) unless Disable is set.
	// NewHandler itself serves wherever it is mounted.
	Disable bool
	Prefix  string
	// PublicListing serves GET /oxp/tools without the auth hook; by
	// default the listing is behind it, as the protocol's security says.
	PublicListing bool
	// Toolkit stands in for a tool's own when it has none. Default
	// "Tools". (A tool's version, when it has none, is
	// runtime.Options.ToolVersion, the same on every surface.)
	Toolkit string
}

var (
	oxpPart    = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	oxpName    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	oxpVersion = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)
	oxpToolID  = regexp.MustCompile(`^([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)(?:@([0-9]+|[0-9]+\.[0-9]+\.[0-9]+))?$`)
)

// oxpDefinition is a ToolDefinition, with the tool it describes.
type oxpDefinition struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Version      string          `json:"version"`
	InputSchema  oxpInput        `json:"input_schema"`
	OutputSchema json.RawMessage `json:"output_schema"`
	Requirements *oxpRequires    `json:"requirements,omitempty"`

	toolkit, tool string // the id's parts
	semver        [3]int
	t             *runtime.Tool
}

type oxpInput struct {
	Parameters json.RawMessage `json:"parameters"`
}

type oxpRequires struct {
	Secrets []oxpSecretID `json:"secrets,omitempty"`
}

type oxpSecretID struct {
	ID string `json:"id"`
}

// oxpUnrolled is how many times a recursive type is unrolled in an OXP
// schema, which cannot use $ref.
const oxpUnrolled = 3

// handler is the OXP surface of one server: each tool's definition, made
// once per tool schema.
type handler struct {
	srv     *runtime.Server
	opts    Options
	kit     *httpkit.Kit
	log     *slog.Logger
	toolkit string

	mu     sync.Mutex
	defs   map[string]*cached
	warned sync.Map // tool name → struct{}: unservable tools are logged once
}

// NewHandler returns the OXP surface of srv: GET /tools, POST /tools/call
// and GET /health, at whatever path it is mounted on (serve.NewHandler
// mounts it at /oxp). A nil opts means defaults. It is a whole surface:
// X-Request-ID and X-Correlation-ID on every response, the browser guard,
// the auth hook and srv's body limit, every error in OXP's shape.
func NewHandler(srv *runtime.Server, opts *Options) http.Handler {
	h := &handler{srv: srv, kit: surface.Kit(srv), log: srv.Logger()}
	if opts != nil {
		h.opts = *opts
	}
	h.toolkit = h.opts.Toolkit
	if h.toolkit == "" {
		h.toolkit = "Tools"
	}
	mux := surface.NewMux(oxp)
	mux.Handle("/health", h.kit.Handle(httpkit.Endpoint{Surface: oxp, Methods: httpkit.MethodsGet, Serve: h.health}))
	mux.Handle("/tools", h.kit.Handle(httpkit.Endpoint{Surface: oxp, Methods: httpkit.MethodsGet, Auth: !h.opts.PublicListing, Serve: h.list}))
	mux.Handle("/tools/call", h.kit.Handle(httpkit.Endpoint{Surface: oxp, Methods: httpkit.MethodsPost, Auth: true, Body: true, Serve: h.call}))
	mux.Handle("/", h.kit.Handle(httpkit.Endpoint{Surface: oxp, Methods: []string{http.MethodGet, http.MethodHead, http.MethodPost}, Serve: notFound}))
	return mux.Handler(srv)
}

func notFound(rq *httpkit.Request) error {
	return httpkit.Refuse(http.StatusNotFound, "Not found: "+httpkit.Truncate(rq.R.URL.Path, 200))
}

type cached struct {
	src *runtime.Tool // the descriptor it was made from, compared field by field
	def *oxpDefinition
	err error
}

// oxpDefinitions returns the definitions of the tools OXP can serve (of
// those the caller sees, for a listing), logging (once per tool) those
// whose toolkit, name or version cannot be written as OXP asks.
func (h *handler) definitions(ctx context.Context, listing bool) ([]*oxpDefinition, error) {
	list := h.srv.Tools
	if listing {
		list = h.srv.VisibleTools
	}
	tools, err := list(ctx)
	if err != nil {
		return nil, err
	}
	defs := make([]*oxpDefinition, 0, len(tools))
	for i := range tools {
		d, err := h.definition(&tools[i])
		if err != nil {
			if _, seen := h.warned.LoadOrStore(tools[i].Name, struct{}{}); !seen {
				h.log.WarnContext(ctx, "tool left off OXP", "tool", tools[i].Name, "err", err)
			}
			continue
		}
		defs = append(defs, d)
	}
	return defs, nil
}

func (h *handler) definition(t *runtime.Tool) (*oxpDefinition, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c := h.defs[t.Name]; c != nil && sameDescriptor(c.src, t) {
		return c.def, c.err
	}
	def, err := h.makeDefinition(t)
	if h.defs == nil || len(h.defs) > 4096 {
		h.defs = map[string]*cached{}
	}
	h.defs[t.Name] = &cached{src: t, def: def, err: err}
	return def, err
}

// sameDescriptor reports whether two tools describe themselves alike for
// OXP.
func sameDescriptor(a, b *runtime.Tool) bool {
	return a.Name == b.Name && a.Description == b.Description && a.Version == b.Version && a.Toolkit == b.Toolkit &&
		bytes.Equal(a.InputSchema, b.InputSchema) && bytes.Equal(a.OutputSchema, b.OutputSchema) && strings.Join(a.Secrets, ",") == strings.Join(b.Secrets, ",")
}

func (h *handler) makeDefinition(t *runtime.Tool) (*oxpDefinition, error) {
	toolkit := h.toolkit
	if t.Toolkit != "" {
		toolkit = t.Toolkit
	}
	version := h.srv.ToolVersion(t)
	d := &oxpDefinition{toolkit: toolkit, tool: toolname.GoName(t.Name), Description: t.Description, Version: version, t: t}
	if !oxpPart.MatchString(d.toolkit) || !oxpPart.MatchString(d.tool) {
		return nil, fmt.Errorf("the toolkit %q or the tool's Go name %q is not letters, digits and '_'", d.toolkit, d.tool)
	}
	if !oxpVersion.MatchString(version) {
		return nil, fmt.Errorf("version %q is not x.y.z", version)
	}
	for i, p := range strings.Split(version, ".") {
		d.semver[i], _ = strconv.Atoi(p)
	}
	d.ID = d.toolkit + "." + d.tool + "@" + version
	d.Name = d.toolkit + "_" + d.tool
	if !oxpName.MatchString(d.Name) {
		return nil, fmt.Errorf("the OXP name %q is longer than 64 characters", d.Name)
	}
	var err error
	if d.InputSchema.Parameters, err = typeschema.Inline(runtime.EffectiveInputSchema(t), oxpUnrolled); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	d.OutputSchema = json.RawMessage("null")
	if len(t.OutputSchema) > 0 {
		if d.OutputSchema, err = typeschema.Inline(t.OutputSchema, oxpUnrolled); err != nil {
			return nil, fmt.Errorf("output schema: %w", err)
		}
	}
	if len(t.Secrets) > 0 {
		d.Requirements = &oxpRequires{}
		for _, id := range t.Secrets {
			d.Requirements.Secrets = append(d.Requirements.Secrets, oxpSecretID{ID: id})
		}
	}
	return d, nil
}

// oxpResolve finds the tool a tool_id names: Toolkit.Tool@x.y.z exactly,
// @x the highest x.*.*, no version the highest.
func oxpResolve(defs []*oxpDefinition, id string) (*oxpDefinition, error) {
	m := oxpToolID.FindStringSubmatch(id)
	if m == nil {
		return nil, oxpBadRequest(fmt.Sprintf("The tool_id %q is not Toolkit.Tool[@version].", httpkit.Truncate(id, 100)))
	}
	var best *oxpDefinition
	known := false
	for _, d := range defs {
		if d.toolkit != m[1] || d.tool != m[2] {
			continue
		}
		known = true
		switch v := m[3]; {
		case v == "", !strings.Contains(v, ".") && strconv.Itoa(d.semver[0]) == v, v == d.Version:
			if best == nil || semverLess(best.semver, d.semver) {
				best = d
			}
		}
	}
	switch {
	case best != nil:
		return best, nil
	case known:
		return nil, oxpBadRequest(fmt.Sprintf("Tool %s.%s has no version %s.", m[1], m[2], m[3]))
	}
	return nil, oxpBadRequest("Tool not found: " + id + ".") // id matched the pattern: a short one
}

// oxpBadRequest is a request OXP answers with 400, in words for the
// caller.
type oxpBadRequest string

func (e oxpBadRequest) Error() string { return string(e) }

func semverLess(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// oxpError is OXP's error body: {"message", "developer_message"?}.
type oxpError struct {
	Message          string `json:"message"`
	DeveloperMessage string `json:"developer_message,omitempty"`
}

// oxp is the OXP surface: errors are {"message", "developer_message"?}.
var oxp = &httpkit.Surface{Name: runtime.SurfaceOXP, WriteError: func(w http.ResponseWriter, e *httpkit.Error) {
	httpkit.WriteJSON(w, e.Status, oxpError{Message: e.Msg, DeveloperMessage: e.Detail})
}}

func (h *handler) health(rq *httpkit.Request) error {
	httpkit.WriteJSON(rq.W, http.StatusOK, map[string]string{"status": "healthy"})
	return nil
}

// oxpList is GET /oxp/tools: the definitions under both "items" (the
// OpenAPI's key) and "tools" (the narrative page's).
func (h *handler) list(rq *httpkit.Request) error {
	defs, err := h.definitions(rq.Ctx, true)
	if err != nil {
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Schema string           `json:"$schema"`
		Items  []*oxpDefinition `json:"items"`
		Tools  []*oxpDefinition `json:"tools"`
	}{Schema, defs, defs})
	return nil
}

// Context is what an OXP call's context says beyond its secrets: the end
// user the caller acts for (context.user_id), and its tokens for services
// the tool calls on that user's behalf, by authorization id
// (context.authorization). The server does not verify either: the caller
// it authenticated is the runtime.Principal. Neither is recorded.
type Context struct {
	UserID        string
	Authorization map[string]string
}

type contextKey struct{}

// ContextFromContext returns the OXP context of the call a tool is
// running for, when it came over OXP with one.
func ContextFromContext(ctx context.Context) (*Context, bool) {
	c, ok := ctx.Value(contextKey{}).(*Context)
	return c, ok
}

// oxpCallRequest is the body of POST /oxp/tools/call. Unknown keys are
// refused at every level.
type oxpCallRequest struct {
	Schema  *string `json:"$schema"`
	Request *struct {
		CallID  string          `json:"call_id"`
		TraceID string          `json:"trace_id"`
		ToolID  *string         `json:"tool_id"`
		Input   json.RawMessage `json:"input"`
		Context *struct {
			Authorization []struct {
				ID    string `json:"id"`
				Token string `json:"token"`
			} `json:"authorization"`
			Secrets []struct {
				ID    string `json:"id"`
				Value string `json:"value"`
			} `json:"secrets"`
			UserID string `json:"user_id"`
		} `json:"context"`
	} `json:"request"`
}

// oxpResult is the result of a call: value on success, error on failure,
// never both.
type oxpResult struct {
	CallID   string        `json:"call_id"`
	Duration float64       `json:"duration"` // milliseconds
	Success  bool          `json:"success"`
	Value    *any          `json:"value,omitempty"`
	Error    *oxpCallError `json:"error,omitempty"`
}

type oxpCallError struct {
	Message                 string `json:"message"`
	DeveloperMessage        string `json:"developer_message,omitempty"`
	CanRetry                *bool  `json:"can_retry,omitempty"`
	AdditionalPromptContent string `json:"additional_prompt_content,omitempty"`
	RetryAfterMS            *int64 `json:"retry_after_ms,omitempty"`
}

// oxpCall is POST /oxp/tools/call: auth, the envelope, the tool_id, then
// [Server.Invoke]. A tool that fails, panics or times out is
// success:false with status 200; only the request itself gets 4xx.
func (h *handler) call(rq *httpkit.Request) error {
	var req oxpCallRequest
	if err := httpkit.DecodeEnvelope(rq.Body, &req, true); err != nil {
		return httpkit.Refuse(http.StatusBadRequest, "The body is not an OXP call request: %s.", err.Error())
	}
	switch {
	case req.Schema != nil && *req.Schema != Schema:
		return &httpkit.Error{Status: http.StatusBadRequest, Msg: "Unsupported $schema " + strconv.Quote(httpkit.Truncate(*req.Schema, 100)) + ".", Detail: "This server speaks " + Schema + "."}
	case req.Request == nil:
		return httpkit.Refuse(http.StatusBadRequest, `The body has no "request".`)
	case req.Request.ToolID == nil:
		return httpkit.Refuse(http.StatusBadRequest, `The request has no "tool_id".`)
	case !httpkit.ValidBodyID(req.Request.CallID):
		// As every id a body gives: it is echoed, stored and shown.
		return httpkit.Refuse(http.StatusBadRequest, `The request's "call_id" is longer than %d characters or holds a control character.`, httpkit.MaxIDLength)
	}
	in := bytes.TrimSpace(req.Request.Input)
	if len(in) == 0 || string(in) == "null" {
		in = json.RawMessage("{}")
	} else if in[0] != '{' {
		return httpkit.Refuse(http.StatusBadRequest, `The request's "input" is not an object.`)
	}

	defs, err := h.definitions(rq.Ctx, false)
	if err != nil {
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	def, err := oxpResolve(defs, *req.Request.ToolID)
	if err != nil {
		return httpkit.Refuse(http.StatusBadRequest, err.Error())
	}
	c := &runtime.Call{Tool: def.t.Name, Arguments: in, Surface: runtime.SurfaceOXP, ID: req.Request.CallID, TraceID: req.Request.TraceID, CorrelationID: rq.CorrelationID(), TraceContext: h.kit.TraceContext(rq.R.Header)}
	if c.ID == "" {
		c.ID = uuid.New()
	} else {
		c.IdempotencyKey = c.ID // a caller's call_id names one call
	}
	ctx := rq.Ctx
	if rc := req.Request.Context; rc != nil {
		if len(rc.Secrets) > 0 {
			secrets := make(map[string]string, len(rc.Secrets))
			for _, sec := range rc.Secrets {
				secrets[sec.ID] = sec.Value
			}
			ctx = runtime.WithCallSecrets(ctx, secrets)
		}
		oc := &Context{UserID: rc.UserID}
		for _, a := range rc.Authorization {
			if oc.Authorization == nil {
				oc.Authorization = map[string]string{}
			}
			oc.Authorization[a.ID] = a.Token
		}
		if oc.UserID != "" || oc.Authorization != nil {
			ctx = context.WithValue(ctx, contextKey{}, oc)
		}
	}

	out := h.srv.Invoke(ctx, c)
	switch out.Status {
	case runtime.StatusInvalid:
		httpkit.WriteJSON(rq.W, http.StatusUnprocessableEntity, invalid(out))
		return nil
	case runtime.StatusNotFound:
		return httpkit.Refuse(http.StatusBadRequest, "Tool not found: "+c.Tool)
	case runtime.StatusUnavailable:
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	case runtime.StatusConflict:
		// A call_id names one call: another tool or input under it is a
		// bad request (specs/README.md), not HTTP's 409; a repeat that
		// waited out the first call's run is a failure to retry.
		if te, ok := out.Err.(*runtime.ToolError); !ok || !te.CanRetry {
			return httpkit.Refuse(http.StatusBadRequest, `The "call_id" %q was used for another call (another tool or other input); use a new call_id.`, httpkit.Truncate(c.ID, 100))
		}
		out.Err = &runtime.ToolError{Message: `A call with this "call_id" is still running; retry later for its outcome.`, CanRetry: true, RetryAfter: time.Second}
	case runtime.StatusForbidden, runtime.StatusUnrecorded:
		return surface.PolicyError(out)
	}
	res := oxpResult{CallID: c.ID, Duration: float64(out.Duration.Microseconds()) / 1000, Success: out.Status == runtime.StatusOK}
	if res.Success {
		v := h.srv.ResultValue(out)
		res.Value = &v
	} else {
		res.Error = failure(out)
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Schema string    `json:"$schema"`
		Result oxpResult `json:"result"`
	}{Schema, res})
	return nil
}

// oxpFailure is the error of a call that failed: the text the caller
// sees, and a ToolError's hints.
func failure(out *runtime.Outcome) *oxpCallError {
	e := &oxpCallError{Message: out.Result.ErrorText()}
	var te *runtime.ToolError
	switch {
	case errors.As(out.Err, &te):
		e.Message = te.Message
		e.AdditionalPromptContent = te.AdditionalPromptContent
		e.CanRetry = runtime.Bool(te.CanRetry)
		if te.RetryAfter > 0 {
			ms := te.RetryAfter.Milliseconds()
			e.RetryAfterMS = &ms
		}
	case out.Status == runtime.StatusTimeout:
		e.CanRetry = runtime.Bool(true)
	}
	return e
}

// oxpInvalid is the 422 body: each issue under the top-level parameter it
// concerns, a nested one with its path in the message.
func invalid(out *runtime.Outcome) any {
	errs := map[string]string{}
	for _, is := range out.Issues() {
		param, rest, _ := strings.Cut(strings.TrimPrefix(is.Path, "/"), "/")
		param = strings.NewReplacer("~1", "/", "~0", "~").Replace(param)
		msg := is.Message
		if rest != "" {
			msg = is.Path + ": " + msg
		}
		if param == "" {
			param = "input"
		}
		if prev, ok := errs[param]; ok {
			msg = prev + "; " + msg
		}
		errs[param] = msg
	}
	return struct {
		Message         string            `json:"message"`
		ParameterErrors map[string]string `json:"parameter_errors"`
	}{"The input does not match the tool's parameters.", errs}
}
