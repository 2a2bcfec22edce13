package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// The /v1 tools API with invocation history (qmcp's): GET /v1/tools, POST
// /v1/tools/{name}, GET /v1/invocations[/{id}]. Errors are {"detail": ...},
// as qmcp (FastAPI) writes them.

// defaultV1Prefix is where the /v1 surface is mounted by default.
const defaultV1Prefix = "/v1"

// V1Options configures the /v1 surface.
type V1Options struct {
	// Disable turns the surface off.
	Disable bool
	// Prefix moves it. Default "/v1".
	Prefix string
}

// v1 is the /v1 surface: errors are {"detail": message}, as qmcp
// (FastAPI) writes them.
var v1 = &httpkit.Surface{Name: SurfaceV1, WriteError: func(w http.ResponseWriter, e *httpkit.Error) {
	httpkit.WriteJSON(w, e.Status, struct {
		Detail string `json:"detail"`
	}{e.Msg})
}}

func (s *Server) v1Routes(mux *routeMux) {
	p := strings.TrimSuffix(s.opts.V1.Prefix, "/")
	if p == "" {
		p = defaultV1Prefix
	}
	route := func(path string, methods []string, body bool, h func(*httpkit.Request) error) {
		mux.Handle(p+path, s.kit.Handle(httpkit.Endpoint{Surface: v1, Methods: methods, Auth: true, Body: body, Serve: h}))
	}
	route("/tools", httpkit.MethodsGet, false, s.v1ListTools)
	route("/tools/{name}", httpkit.MethodsPost, true, s.v1CallTool)
	route("/invocations", httpkit.MethodsGet, false, s.v1ListInvocations)
	route("/invocations/{id}", httpkit.MethodsGet, false, s.v1GetInvocation)
	route("/human/requests", []string{http.MethodGet, http.MethodHead, http.MethodPost}, true, s.humanRequests)
	route("/human/requests/{id}", httpkit.MethodsGet, false, s.getHumanRequest)
	route("/human/responses", httpkit.MethodsPost, true, s.respondHuman)
}

type v1Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Version     string          `json:"version"` // toolgen's: qmcp's ToolInfo has none
}

func (s *Server) v1ListTools(rq *httpkit.Request) error {
	tools, err := s.VisibleTools(rq.Ctx)
	if err != nil {
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	out := make([]v1Tool, len(tools))
	for i := range tools {
		out[i] = v1Tool{Name: tools[i].Name, Description: tools[i].Description, InputSchema: EffectiveInputSchema(&tools[i]), Version: s.ToolVersion(&tools[i])}
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
func (s *Server) v1CallTool(rq *httpkit.Request) error {
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
	out := s.Invoke(rq.Ctx, &Call{Tool: name, Arguments: req.Input, Surface: SurfaceV1, CorrelationID: corr, IdempotencyKey: key, TraceContext: s.traceContext(rq.R.Header)})
	switch out.Status {
	case StatusNotFound:
		return httpkit.Refuse(http.StatusNotFound, "Tool '%s' not found", name)
	case StatusUnavailable:
		return httpkit.Refuse(http.StatusInternalServerError, httpkit.MsgProviderFailed)
	}
	if err := policyRefusal(out); err != nil {
		return err
	}
	resp := v1Response{InvocationID: out.InvocationID}
	switch out.Status {
	case StatusOK:
		resp.Result = s.ResultValue(out)
	case StatusInvalid:
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

func (s *Server) v1ListInvocations(rq *httpkit.Request) error {
	q := rq.R.URL.Query()
	f := history.Filter{Tool: q.Get("tool_name"), Status: q.Get("status"), CorrelationID: q.Get("correlation_id"), Surface: q.Get("surface")}
	if err := pageParams(q.Get("limit"), q.Get("offset"), &f.Limit, &f.Offset); err != nil {
		return err
	}
	f, err := f.Normalize()
	if err != nil {
		return httpkit.Refuse(http.StatusUnprocessableEntity, strings.TrimPrefix(err.Error(), "history: "))
	}
	f.Caller = s.readScope(rq.Ctx)
	recs, total, err := s.history.List(rq.Ctx, f)
	if err != nil {
		s.log.ErrorContext(rq.Ctx, "history store failed", "op", "list", "err", err)
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

func (s *Server) v1GetInvocation(rq *httpkit.Request) error {
	id := rq.R.PathValue("id")
	rec, err := s.history.Get(rq.Ctx, id)
	if scope := s.readScope(rq.Ctx); err == nil && scope != nil && (rec.Caller == nil || *rec.Caller != *scope) {
		// Another caller's invocation is not found: that it exists is
		// not this caller's to know.
		err = history.ErrNotFound
	}
	switch {
	case errors.Is(err, history.ErrNotFound):
		return httpkit.Refuse(http.StatusNotFound, "Invocation '%s' not found", httpkit.Truncate(id, httpkit.MaxIDLength))
	case err != nil:
		s.log.ErrorContext(rq.Ctx, "history store failed", "op", "get", "err", err)
		return httpkit.Refuse(http.StatusServiceUnavailable, msgHistoryUnavailable)
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, rec)
	return nil
}

// ScopeHistoryRead is the scope that lets a caller read every caller's
// invocations; without it, behind an auth hook, a caller reads its own.
const ScopeHistoryRead = "history:read"

// readScope is whose invocations the caller ctx names may read: nil for
// all (no auth hook: one caller; or the history:read scope), else its own
// (its principal's subject).
func (s *Server) readScope(ctx context.Context) *string {
	return s.ownUnless(ctx, ScopeHistoryRead)
}

// ownUnless is whose records the caller ctx names may see: nil for all
// (no auth hook: one caller; or a principal with any of scopes), else
// its own (its identity, callerID).
func (s *Server) ownUnless(ctx context.Context, scopes ...string) *string {
	if s.opts.AuthHook == nil {
		return nil
	}
	p, _ := PrincipalFromContext(ctx)
	for _, sc := range scopes {
		if p.HasScopes(sc) {
			return nil
		}
	}
	id := s.callerID(ctx)
	return &id
}
