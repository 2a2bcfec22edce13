// Package explorer serves the Tool Explorer of a [runtime.Server]: the
// page at / (the embedded web/ app) and the REST protocol it talks to,
// which any HTTP client may use too (the explorer spec's F2, F3 and F7):
//
//	GET  /tools, /tools/{name}           the tools the caller may see
//	POST /tools/{name}/call              a call, when runtime.Options.AllowExecute
//	POST /tools/{name}/validate          the same path stopped before the tool
//	GET  /prompts, /resources            the MCP prompts and resources
//	POST /prompts/{name}/get, GET /resources/read?uri=
//
// [NewHandler] serves them wherever it is mounted; serve.NewHandler
// mounts it at the root.
package explorer

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// toolSummary is an entry of GET /tools.
type toolSummary struct {
	Name        string               `json:"name"`
	Title       string               `json:"title,omitempty"`
	Description string               `json:"description"`
	Version     string               `json:"version"`
	Annotations *runtime.Annotations `json:"annotations,omitempty"`
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

func (h *handler) summarize(t *runtime.Tool) toolSummary {
	ts := toolSummary{Name: t.Name, Title: t.Title, Description: t.Description, Version: h.srv.ToolVersion(t), Scopes: t.Scopes}
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
var explorer = &httpkit.Surface{Name: runtime.SurfaceExplorer, WriteError: func(w http.ResponseWriter, e *httpkit.Error) {
	httpkit.WriteError(w, e.Status, e.Msg)
}}

// Options configures the Tool Explorer. The zero value (and nil) serves
// the page without a project link or links to other surfaces.
type Options struct {
	// Disable and Prefix are read by serve.NewHandler, which mounts the
	// explorer at Prefix (default: the root; with "/ui" the page is at
	// /ui/ and the protocol under /ui/tools) unless Disable is set.
	// NewHandler itself serves wherever it is mounted; Prefix also tells
	// the page where it is, for its links to the other surfaces.
	Disable bool
	Prefix  string
	// ProjectName and ProjectURL make the link the page shows in its
	// header. A URL that is not http(s), mailto or a path is dropped.
	ProjectName, ProjectURL string
	// Links are where the server's other surfaces are mounted, for the
	// page to link to; serve.NewHandler fills them in.
	Links Links
}

// Links are the paths, from the root, of the surfaces the explorer page
// links to; "" for one that is not mounted.
type Links struct {
	// OXP is where the OXP surface is mounted ("/oxp"): the header links
	// to its listing.
	OXP string
	// OpenAPI is the OpenAPI document's path ("/openapi.json").
	OpenAPI string
	// V1 is where qmcp's /v1 API is mounted ("/v1"): the History view
	// reads its invocations, the Approvals view its human requests.
	V1 string
}

// handler is the Tool Explorer of one server.
type handler struct {
	srv   *runtime.Server
	opts  Options
	kit   *httpkit.Kit
	log   *slog.Logger
	allow bool // runtime.Options.AllowExecute

	prompts           []runtime.Prompt
	resources         []runtime.Resource
	resourceTemplates []runtime.ResourceTemplate
	page              func() page // rendered on the first request for it
}

// NewHandler returns the Tool Explorer of srv, the page and its REST
// protocol, at whatever path it is mounted on. A nil opts means defaults.
// It is a whole surface: X-Request-ID and X-Correlation-ID on every
// response, the browser guard, the auth hook and srv's body limit, every
// error as {"error": message}.
func NewHandler(srv *runtime.Server, opts *Options) http.Handler {
	o := srv.Options()
	h := &handler{srv: srv, kit: surface.Kit(srv), log: srv.Logger(), allow: o.AllowExecute,
		prompts: o.Prompts, resources: o.Resources, resourceTemplates: o.ResourceTemplates}
	if opts != nil {
		h.opts = *opts
	}
	h.page = sync.OnceValue(func() page { return renderPage(&o, &h.opts, srv.History()) })
	mux := surface.NewMux(explorer)
	h.routes(mux)
	return mux.Handler(srv)
}

func (h *handler) routes(mux *surface.Mux) {
	p := ""
	get := func(path string, serve func(*httpkit.Request) error, auth bool) {
		mux.Handle(p+path, h.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsGet, Auth: auth, Serve: serve}))
	}
	get("/{$}", httpkit.Always(h.servePage), false)
	// Listing is public; a caller whose credentials the auth hook accepts
	// sees the tools its scopes allow, anyone else those that need none.
	list := func(path string, serve func(*httpkit.Request) error) {
		mux.Handle(p+path, h.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsGet, OptionalAuth: true, Serve: serve}))
	}
	list("/tools", h.listTools)
	list("/tools/{name}", h.getTool)
	get("/prompts", httpkit.Always(h.listPrompts), false)
	get("/resources", httpkit.Always(h.listResources), false)
	// Reading a resource runs the server's code: behind the hook, once the
	// resource is known.
	mux.Handle(p+"/resources/read", h.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsGet, Before: h.knownResource, Auth: true, Serve: h.readResource}))
	// The order of a call's checks is the protocol's: execution allowed
	// (403), tool known (404), auth (401), then the body. Auth runs before
	// the body is read so that an unauthenticated client cannot make the
	// server buffer one.
	mux.Handle(p+"/tools/{name}/call", h.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsPost, Before: h.executable, Auth: true, Body: true, Serve: h.callTool}))
	// Validation is public like a listing: no execution gate, and the auth
	// hook only for a caller that sent credentials; a tool hidden from the
	// caller by its scopes is not found, as in the listings.
	mux.Handle(p+"/tools/{name}/validate", h.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsPost, OptionalAuth: true, Before: h.knownTool, Body: true, Serve: h.validateTool}))
	mux.Handle(p+"/prompts/{name}/get", h.kit.Handle(httpkit.Endpoint{Surface: explorer, Methods: httpkit.MethodsPost, Before: h.knownPrompt, Auth: true, Body: true, Serve: h.getPrompt}))
	mux.HandleFunc("/", NotFound)
}

// NotFound is the explorer's answer to a path it does not serve, whatever
// the method: 404 {"error": "Not found: PATH"}. serve.NewHandler answers
// every path no surface serves with it.
func NotFound(w http.ResponseWriter, r *http.Request) {
	httpkit.WriteError(w, http.StatusNotFound, "Not found: "+httpkit.Truncate(r.URL.Path, 200))
}

func (h *handler) listTools(rq *httpkit.Request) error {
	tools, err := surface.ToolsAsked(h.srv, rq, http.StatusBadRequest) // every tool, or ?search=
	if err != nil {
		return err
	}
	out := make([]toolSummary, len(tools))
	for i := range tools {
		out[i] = h.summarize(&tools[i])
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, out)
	return nil
}

func (h *handler) getTool(rq *httpkit.Request) error {
	t, err := h.visibleTool(rq)
	if err != nil {
		return err
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, toolDetail{
		toolSummary:  h.summarize(t),
		InputSchema:  runtime.EffectiveInputSchema(t),
		OutputSchema: t.OutputSchema,
		Signature:    t.Signature,
		Examples:     t.Examples,
	})
	return nil
}

// pathTool returns the tool the path names: 404 when there is none, 500
// when the provider failed.
func (h *handler) pathTool(rq *httpkit.Request) (*runtime.Tool, error) {
	name := rq.R.PathValue("name")
	t, err := h.srv.Lookup(rq.Ctx, name)
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
func (h *handler) visibleTool(rq *httpkit.Request) (*runtime.Tool, error) {
	t, err := h.pathTool(rq)
	if err == nil && !h.srv.Visible(rq.Ctx, t) {
		return nil, httpkit.Refuse(http.StatusNotFound, "Tool not found: "+t.Name)
	}
	return t, err
}

// knownTool refuses a path that names no tool.
func (h *handler) knownTool(rq *httpkit.Request) error {
	_, err := h.pathTool(rq)
	return err
}

// executable refuses a call when execution is off, or the tool unknown.
func (h *handler) executable(rq *httpkit.Request) error {
	if !h.allow {
		return httpkit.Refuse(http.StatusForbidden, "Tool execution is disabled.")
	}
	return h.knownTool(rq)
}

// callResponse is a CallToolResult as the explorer protocol returns it.
type callResponse struct {
	*runtime.Result
	Meta *callMeta `json:"_meta,omitempty"`

	out *runtime.Outcome // whose result it is: it knows whether structured JSON is compact
}

type callMeta struct {
	TraceID string `json:"_trace_id"`
}

// callTool is POST /tools/{name}/call. The provider is asked once for
// both lookups (see requestState).
func (h *handler) callTool(rq *httpkit.Request) error {
	body := rq.Body
	if jsoncheck.Problem(body) == jsoncheck.ProblemNotJSON {
		body = json.RawMessage("{}") // the protocol's rule for a body that is not JSON
	}
	key, err := httpkit.IdempotencyKey(rq.R.Header)
	if err != nil {
		return httpkit.Refuse(http.StatusBadRequest, err.Error())
	}
	c := &runtime.Call{Tool: rq.R.PathValue("name"), Arguments: body, Surface: runtime.SurfaceExplorer,
		TraceID: httpkit.TraceParentID(httpkit.Header(rq.R.Header, httpkit.HeaderTraceparent)), CorrelationID: rq.CorrelationID(), IdempotencyKey: key, TraceContext: h.kit.TraceContext(rq.R.Header)}
	out := h.srv.Invoke(rq.Ctx, c)
	if err := lookupFailed(out, c.Tool); err != nil {
		return err
	}
	if err := surface.PolicyError(out); err != nil {
		return err
	}
	resp := callResponse{Result: out.Result, out: out}
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
func lookupFailed(out *runtime.Outcome, name string) error {
	switch out.Status {
	case runtime.StatusNotFound:
		return httpkit.Refuse(http.StatusNotFound, "Tool not found: "+name)
	case runtime.StatusUnavailable:
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	return nil
}

func explorerStatus(st runtime.Status) int {
	switch st {
	case runtime.StatusOK:
		return http.StatusOK
	case runtime.StatusInvalid:
		return http.StatusBadRequest
	case runtime.StatusTimeout:
		return http.StatusGatewayTimeout
	default:
		return http.StatusInternalServerError
	}
}

// validateResponse is the body of POST /tools/{name}/validate.
type validateResponse struct {
	Valid  bool                      `json:"valid"`
	Errors []runtime.ValidationIssue `json:"errors,omitempty"`
}

// validateTool is POST /tools/{name}/validate: [Server.Invoke] stopped
// before the handler, so that it says valid exactly when a call would get
// past validation.
func (h *handler) validateTool(rq *httpkit.Request) error {
	if _, err := h.visibleTool(rq); err != nil {
		return err
	}
	name := rq.R.PathValue("name")
	out := h.srv.Invoke(rq.Ctx, &runtime.Call{Tool: name, Arguments: rq.Body, Surface: runtime.SurfaceExplorer, ValidateOnly: true})
	if err := lookupFailed(out, name); err != nil {
		return err
	}
	var ve *runtime.ValidationError
	switch {
	case out.Status == runtime.StatusOK:
		httpkit.WriteJSON(rq.W, http.StatusOK, validateResponse{Valid: true})
	case errors.As(out.Err, &ve) && ve.Malformed:
		httpkit.WriteJSON(rq.W, http.StatusBadRequest, validateResponse{Errors: []runtime.ValidationIssue{{Path: "", Message: "Invalid JSON: " + strings.TrimPrefix(ve.Issues[0].Message, jsoncheck.ProblemNotJSON+": "), Keyword: "format"}}})
	default:
		httpkit.WriteJSON(rq.W, http.StatusOK, validateResponse{Errors: out.Issues()})
	}
	return nil
}
