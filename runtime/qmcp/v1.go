// Package qmcp serves qmcp's /v1 API for a [runtime.Server]: its tools
// API with invocation history and its human-in-the-loop API, as qmcp (a
// Python MCP server) serves them, so that qmcp's clients work unchanged:
//
//	GET  /tools, POST /tools/{name}            the tools, a call
//	GET  /invocations, /invocations/{id}       the invocation history
//	POST /human/requests, GET /human/requests  a question for a person
//	GET  /human/requests/{id}, POST /human/responses
//
// Errors are {"detail": message}, as qmcp (FastAPI) writes them.
// [NewHandler] serves them wherever it is mounted; serve.NewHandler mounts
// it at /v1.
package qmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
)

// DefaultPrefix is where serve.NewHandler mounts the surface unless
// Options.Prefix moves it.
const DefaultPrefix = "/v1"

// Options configures the /v1 surface.
type Options struct {
	// Disable and Prefix are read by serve.NewHandler, which mounts the
	// surface at Prefix (default [DefaultPrefix]) unless Disable is set.
	// NewHandler itself serves wherever it is mounted.
	Disable bool
	Prefix  string
}

// handler is the /v1 surface of one server.
type handler struct {
	srv     *runtime.Server
	kit     *httpkit.Kit
	log     *slog.Logger
	hasHook bool // the server has an auth hook: callers are told apart
}

// NewHandler returns qmcp's /v1 API of srv, at whatever path it is mounted
// on (serve.NewHandler mounts it at /v1). A nil opts means defaults. It is
// a whole surface: X-Request-ID and X-Correlation-ID on every response,
// the browser guard, the auth hook on every endpoint and srv's body
// limit, every error as {"detail": message}.
func NewHandler(srv *runtime.Server, opts *Options) http.Handler {
	o := srv.Options()
	h := &handler{srv: srv, kit: surface.Kit(srv), log: srv.Logger(), hasHook: o.AuthHook != nil}
	mux := surface.NewMux(v1)
	h.routes(mux)
	return mux.Handler(srv)
}

// v1 is the /v1 surface: errors are {"detail": message}, as qmcp
// (FastAPI) writes them.
var v1 = &httpkit.Surface{Name: runtime.SurfaceV1, WriteError: func(w http.ResponseWriter, e *httpkit.Error) {
	httpkit.WriteJSON(w, e.Status, struct {
		Detail string `json:"detail"`
	}{e.Msg})
}}

func (h *handler) routes(mux *surface.Mux) {
	route := func(path string, methods []string, body bool, serve func(*httpkit.Request) error) {
		mux.Handle(path, h.kit.Handle(httpkit.Endpoint{Surface: v1, Methods: methods, Auth: true, Body: body, Serve: serve}))
	}
	route("/tools", httpkit.MethodsGet, false, h.v1ListTools)
	route("/tools/{name}", httpkit.MethodsPost, true, h.v1CallTool)
	route("/invocations", httpkit.MethodsGet, false, h.v1ListInvocations)
	route("/invocations/{id}", httpkit.MethodsGet, false, h.v1GetInvocation)
	route("/human/requests", []string{http.MethodGet, http.MethodHead, http.MethodPost}, true, h.humanRequests)
	route("/human/requests/{id}", httpkit.MethodsGet, false, h.getHumanRequest)
	route("/human/responses", httpkit.MethodsPost, true, h.respondHuman)
	mux.Handle("/", h.kit.Handle(httpkit.Endpoint{Surface: v1, Methods: []string{http.MethodGet, http.MethodHead, http.MethodPost}, Serve: func(rq *httpkit.Request) error {
		return httpkit.Refuse(http.StatusNotFound, "Not Found")
	}}))
}

type v1Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Version     string          `json:"version"` // toolgen's: qmcp's ToolInfo has none
}

func (h *handler) v1ListTools(rq *httpkit.Request) error {
	tools, err := surface.ToolsAsked(h.srv, rq, http.StatusUnprocessableEntity) // every tool, or ?search=; a bad query 422, as /v1 refuses every other
	if err != nil {
		return err
	}
	out := make([]v1Tool, len(tools))
	for i := range tools {
		out[i] = v1Tool{Name: tools[i].Name, Description: tools[i].Description, InputSchema: runtime.EffectiveInputSchema(&tools[i]), Version: h.srv.ToolVersion(&tools[i])}
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Tools []v1Tool `json:"tools"`
	}{out})
	return nil
}

// v1Response is the answer to POST /v1/tools/{name}: a result or an
// error, and the invocation's id in history.
type v1Response struct {
	Result       any     `json:"result"`
	Error        *string `json:"error"`
	InvocationID string  `json:"invocation_id"`
}

// v1CallRequest is the body of POST /v1/tools/{name}.
type v1CallRequest struct {
	Input         json.RawMessage `json:"input"`
	CorrelationID *string         `json:"correlation_id"`
}

// v1CallTool is POST /v1/tools/{name} with {"input": {...},
// "correlation_id": "..."}. A tool that fails, and input that fails the
// schema, still answer 200 with an error (qmcp's client raises on any
// other status); an unknown tool is 404.
func (h *handler) v1CallTool(rq *httpkit.Request) error {
	var req v1CallRequest
	if err := httpkit.DecodeEnvelope(rq.Body, &req, false); err != nil {
		return httpkit.Refuse(http.StatusUnprocessableEntity, `The body must be a JSON object: {"input": {...}, "correlation_id": "..."}; %s`, err.Error())
	}
	if in := bytes.TrimSpace(req.Input); len(in) > 0 && string(in) != "null" && in[0] != '{' {
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"input" must be an object.`)
	}
	corr := rq.CorrelationID()
	if req.CorrelationID != nil && *req.CorrelationID != "" {
		if !httpkit.ValidBodyID(*req.CorrelationID) {
			return httpkit.Refuse(http.StatusUnprocessableEntity, `"correlation_id" must be at most %d characters, none of them control characters.`, httpkit.MaxIDLength)
		}
		corr = *req.CorrelationID // the body's wins
		rq.W.Header().Set(httpkit.HeaderCorrelationID, corr)
	}
	key, err := httpkit.IdempotencyKey(rq.R.Header)
	if err != nil {
		return httpkit.Refuse(http.StatusUnprocessableEntity, err.Error())
	}
	name := rq.R.PathValue("name")
	out := h.srv.Invoke(rq.Ctx, &runtime.Call{Tool: name, Arguments: req.Input, Surface: runtime.SurfaceV1, CorrelationID: corr, IdempotencyKey: key, TraceContext: h.kit.TraceContext(rq.R.Header)})
	switch out.Status {
	case runtime.StatusNotFound:
		return httpkit.Refuse(http.StatusNotFound, "Tool '%s' not found", name)
	case runtime.StatusUnavailable:
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	if err := surface.PolicyError(out); err != nil {
		return err
	}
	resp := v1Response{InvocationID: out.InvocationID}
	switch out.Status {
	case runtime.StatusOK:
		resp.Result = h.srv.ResultValue(out)
	case runtime.StatusInvalid:
		parts := make([]string, 0, len(out.Issues()))
		for _, is := range out.Issues() {
			path := is.Path
			if path == "" {
				path = "(root)"
			}
			parts = append(parts, path+": "+is.Message)
		}
		msg := "Invalid input: " + strings.Join(parts, "; ")
		resp.Error = &msg
	default:
		msg := "Tool execution failed: " + out.Result.ErrorText()
		resp.Error = &msg
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, resp)
	return nil
}

func (h *handler) v1ListInvocations(rq *httpkit.Request) error {
	q, err := httpkit.Query(rq.R, http.StatusUnprocessableEntity)
	if err != nil {
		return err
	}
	f := history.Filter{Tool: q.Get("tool_name"), Status: q.Get("status"), CorrelationID: q.Get("correlation_id"), Surface: q.Get("surface")}
	if err := pageParams(q.Get("limit"), q.Get("offset"), &f.Limit, &f.Offset); err != nil {
		return err
	}
	f, err = f.Normalize()
	if err != nil {
		return httpkit.Refuse(http.StatusUnprocessableEntity, strings.TrimPrefix(err.Error(), "history: "))
	}
	f.Caller = h.readScope(rq.Ctx)
	recs, total, err := h.srv.History().List(rq.Ctx, f)
	if err != nil {
		h.log.ErrorContext(rq.Ctx, "history store failed", "op", "list", "err", err)
		return httpkit.Refuse(http.StatusServiceUnavailable, msgHistoryUnavailable)
	}
	if recs == nil {
		recs = []history.Record{}
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Invocations []history.Record `json:"invocations"`
		Count       int              `json:"count"`
		Total       int              `json:"total"`
	}{recs, len(recs), total})
	return nil
}

// msgHistoryUnavailable answers a read of a history store that fails.
const msgHistoryUnavailable = "The invocation history is unavailable."

func (h *handler) v1GetInvocation(rq *httpkit.Request) error {
	id := rq.R.PathValue("id")
	rec, err := h.srv.History().Get(rq.Ctx, id)
	if scope := h.readScope(rq.Ctx); err == nil && scope != nil && (rec.Caller == nil || *rec.Caller != *scope) {
		// Another caller's invocation is not found: that it exists is
		// not this caller's to know.
		err = history.ErrNotFound
	}
	switch {
	case errors.Is(err, history.ErrNotFound):
		return httpkit.Refuse(http.StatusNotFound, "Invocation '%s' not found", httpkit.Truncate(id, httpkit.MaxIDLength))
	case err != nil:
		h.log.ErrorContext(rq.Ctx, "history store failed", "op", "get", "err", err)
		return httpkit.Refuse(http.StatusServiceUnavailable, msgHistoryUnavailable)
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, rec)
	return nil
}

// readScope is whose invocations the caller ctx names may read: nil for
// all (no auth hook: one caller; or the history:read scope), else its own
// (its principal's subject).
func (h *handler) readScope(ctx context.Context) *string {
	return h.ownUnless(ctx, runtime.ScopeHistoryRead)
}

// ownUnless is whose records the caller ctx names may see: nil for all
// (no auth hook: one caller; or a principal with any of scopes), else
// its own (its identity, callerID).
func (h *handler) ownUnless(ctx context.Context, scopes ...string) *string {
	if !h.hasHook {
		return nil
	}
	p, _ := runtime.PrincipalFromContext(ctx)
	for _, sc := range scopes {
		if p.HasScopes(sc) {
			return nil
		}
	}
	id := h.srv.CallerID(ctx)
	return &id
}
