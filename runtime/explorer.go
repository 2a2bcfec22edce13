package runtime

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// The Tool Explorer's REST protocol (explorer F2, F3, F7): what the page at
// GET / talks to, and a simple API for any HTTP client.

// toolSummary is an entry of GET /tools.
type toolSummary struct {
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description"`
	Version     string       `json:"version"`
	Annotations *Annotations `json:"annotations,omitempty"`
	// Scopes, RateLimit and Timeout are the tool's policy, shown so that a
	// person knows what a call needs and may expect.
	Scopes    []string `json:"scopes,omitempty"`
	RateLimit string   `json:"rateLimit,omitempty"`
	Timeout   string   `json:"timeout,omitempty"`
}

// toolDetail is the body of GET /tools/{name}.
type toolDetail struct {
	toolSummary
	InputSchema  json.RawMessage   `json:"inputSchema"`
	OutputSchema json.RawMessage   `json:"outputSchema,omitempty"`
	Signature    string            `json:"signature,omitempty"`
	Examples     []json.RawMessage `json:"examples,omitempty"`
}

func (s *Server) summarize(t *Tool) toolSummary {
	ts := toolSummary{Name: t.Name, Title: t.Title, Description: t.Description, Version: s.ToolVersion(t), Scopes: t.Scopes}
	if t.RateLimit.N > 0 {
		ts.RateLimit = t.RateLimit.String()
	}
	if t.Timeout > 0 {
		ts.Timeout = t.Timeout.String()
	}
	if !t.Annotations.IsZero() {
		ts.Annotations = t.Annotations
	}
	return ts
}

// explorer is the Tool Explorer's REST protocol: errors are
// {"error": message}.
var explorer = &httpkit.Surface{Name: SurfaceExplorer, WriteError: func(w http.ResponseWriter, e *httpkit.Error) {
	httpkit.WriteError(w, e.Status, e.Msg)
}}

func (s *Server) explorerRoutes(mux *http.ServeMux) {
	p := strings.TrimSuffix(s.opts.Explorer.Prefix, "/")
	get := func(path string, h func(*httpkit.Request) error, auth bool) {
		mux.Handle(p+path, s.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsGet, Auth: auth, Serve: h}))
	}
	get("/{$}", always(s.servePage), false)
	// Listing is public; a caller whose credentials the auth hook accepts
	// sees the tools its scopes allow, anyone else those that need none.
	list := func(path string, h func(*httpkit.Request) error) {
		mux.Handle(p+path, s.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsGet, OptionalAuth: true, Serve: h}))
	}
	list("/tools", s.listTools)
	list("/tools/{name}", s.getTool)
	get("/prompts", always(s.listPrompts), false)
	get("/resources", always(s.listResources), false)
	// Reading a resource runs the server's code: behind the hook, once the
	// resource is known.
	mux.Handle(p+"/resources/read", s.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsGet, Before: s.knownResource, Auth: true, Serve: s.readResource}))
	// The order of a call's checks is the protocol's: execution allowed
	// (403), tool known (404), auth (401), then the body. Auth runs before
	// the body is read so that an unauthenticated client cannot make the
	// server buffer one.
	mux.Handle(p+"/tools/{name}/call", s.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsPost, Before: s.executable, Auth: true, Body: true, Serve: s.callTool}))
	// Validation is public like a listing: no execution gate, and the auth
	// hook only for a caller that sent credentials; a tool hidden from the
	// caller by its scopes is not found, as in the listings.
	mux.Handle(p+"/tools/{name}/validate", s.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsPost, OptionalAuth: true, Before: s.knownTool, Body: true, Serve: s.validateTool}))
	mux.Handle(p+"/prompts/{name}/get", s.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsPost, Before: s.knownPrompt, Auth: true, Body: true, Serve: s.getPrompt}))
}

// always adapts a handler that cannot fail to an endpoint's; its request
// carries the context the auth hook gave, if it ran.
func always(h http.HandlerFunc) func(*httpkit.Request) error {
	return func(rq *httpkit.Request) error {
		r := rq.R
		if rq.Ctx != r.Context() {
			r = r.WithContext(rq.Ctx)
		}
		h(rq.W, r)
		return nil
	}
}

func (s *Server) listTools(rq *httpkit.Request) error {
	tools, err := s.VisibleTools(rq.Ctx)
	if err != nil {
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	out := make([]toolSummary, len(tools))
	for i := range tools {
		out[i] = s.summarize(&tools[i])
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, out)
	return nil
}

func (s *Server) getTool(rq *httpkit.Request) error {
	t, err := s.visibleTool(rq)
	if err != nil {
		return err
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, toolDetail{
		toolSummary:  s.summarize(t),
		InputSchema:  EffectiveInputSchema(t),
		OutputSchema: t.OutputSchema,
		Signature:    t.Signature,
		Examples:     t.Examples,
	})
	return nil
}

// pathTool returns the tool the path names: 404 when there is none, 500
// when the provider failed.
func (s *Server) pathTool(rq *httpkit.Request) (*Tool, error) {
	name := rq.R.PathValue("name")
	t, err := s.Lookup(rq.Ctx, name)
	switch {
	case err != nil:
		return nil, httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	case t == nil:
		return nil, httpkit.Refuse(http.StatusNotFound, "Tool not found: "+name)
	}
	return t, nil
}

// visibleTool is pathTool for the tools the caller may see: a tool its
// scopes hide is not found, as in the listings (no leak of its existence).
func (s *Server) visibleTool(rq *httpkit.Request) (*Tool, error) {
	t, err := s.pathTool(rq)
	if err == nil && !s.visible(rq.Ctx, t) {
		return nil, httpkit.Refuse(http.StatusNotFound, "Tool not found: "+t.Name)
	}
	return t, err
}

// knownTool refuses a path that names no tool.
func (s *Server) knownTool(rq *httpkit.Request) error {
	_, err := s.pathTool(rq)
	return err
}

// executable refuses a call when execution is off, or the tool unknown.
func (s *Server) executable(rq *httpkit.Request) error {
	if !s.opts.AllowExecute {
		return httpkit.Refuse(http.StatusForbidden, "Tool execution is disabled.")
	}
	return s.knownTool(rq)
}

// callResponse is a CallToolResult as the explorer protocol returns it.
type callResponse struct {
	*Result
	Meta *callMeta `json:"_meta,omitempty"`

	structured *jsonCheck // of Result's structured content, when known
}

type callMeta struct {
	TraceID string `json:"_trace_id"`
}

// callTool is POST /tools/{name}/call. The provider is asked once for
// both lookups (see requestState).
func (s *Server) callTool(rq *httpkit.Request) error {
	body := rq.Body
	if notJSON(body) {
		body = emptyObject // the protocol's rule for a body that is not JSON
	}
	key, err := idempotencyKey(httpkit.Header(rq.R.Header, HeaderIdempotencyKey))
	if err != nil {
		return httpkit.Refuse(http.StatusBadRequest, err.Error())
	}
	c := &Call{Tool: rq.R.PathValue("name"), Arguments: body, Surface: SurfaceExplorer,
		TraceID: httpkit.TraceParentID(httpkit.Header(rq.R.Header, httpkit.HeaderTraceparent)), CorrelationID: rq.CorrelationID(), IdempotencyKey: key, TraceContext: s.traceContext(rq.R.Header)}
	out := s.Invoke(rq.Ctx, c)
	if err := lookupFailed(out, c.Tool); err != nil {
		return err
	}
	if err := policyRefusal(out); err != nil {
		return err
	}
	resp := callResponse{Result: out.Result, structured: &out.structured}
	trace := out.Result.TraceID
	if trace == "" && c.TraceID == "" {
		trace = out.TraceID // the call's own span, when it is traced
	}
	if trace == "" {
		trace = c.TraceID
	}
	if trace != "" {
		resp.Meta = &callMeta{TraceID: trace}
	}
	httpkit.WriteJSON(rq.W, explorerStatus(out.Status), resp)
	return nil
}

// lookupFailed is the refusal of an outcome that has no tool: 404 for
// none of that name, 500 when the provider failed; nil otherwise.
func lookupFailed(out *Outcome, name string) error {
	switch out.Status {
	case StatusNotFound:
		return httpkit.Refuse(http.StatusNotFound, "Tool not found: "+name)
	case StatusUnavailable:
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	return nil
}

func explorerStatus(st Status) int {
	switch st {
	case StatusOK:
		return http.StatusOK
	case StatusInvalid:
		return http.StatusBadRequest
	case StatusTimeout:
		return http.StatusGatewayTimeout
	default:
		return http.StatusInternalServerError
	}
}

// validateResponse is the body of POST /tools/{name}/validate.
type validateResponse struct {
	Valid  bool              `json:"valid"`
	Errors []ValidationIssue `json:"errors,omitempty"`
}

// validateTool is POST /tools/{name}/validate: [Server.Invoke] stopped
// before the handler, so that it says valid exactly when a call would get
// past validation.
func (s *Server) validateTool(rq *httpkit.Request) error {
	if _, err := s.visibleTool(rq); err != nil {
		return err
	}
	name := rq.R.PathValue("name")
	out := s.Invoke(rq.Ctx, &Call{Tool: name, Arguments: rq.Body, Surface: SurfaceExplorer, ValidateOnly: true})
	if err := lookupFailed(out, name); err != nil {
		return err
	}
	var ve *ValidationError
	switch {
	case out.Status == StatusOK:
		httpkit.WriteJSON(rq.W, http.StatusOK, validateResponse{Valid: true})
	case errors.As(out.Err, &ve) && ve.Malformed:
		httpkit.WriteJSON(rq.W, http.StatusBadRequest, validateResponse{Errors: []ValidationIssue{{Path: "", Message: "Invalid JSON: " + strings.TrimPrefix(ve.Issues[0].Message, jsoncheck.ProblemNotJSON+": "), Keyword: "format"}}})
	default:
		httpkit.WriteJSON(rq.W, http.StatusOK, validateResponse{Errors: out.Issues()})
	}
	return nil
}
