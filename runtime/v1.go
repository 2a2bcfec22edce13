package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// The /v1 tools API with invocation history (qmcp's): GET /v1/tools, POST
// /v1/tools/{name}, GET /v1/invocations[/{id}]. Errors are {"detail": ...},
// as qmcp (FastAPI) writes them. Every response carries X-Request-ID and
// X-Correlation-ID, echoed or generated.

// SurfaceV1 names the /v1 surface in [Call.Surface].
const SurfaceV1 = "v1"

// DefaultV1Prefix is where the /v1 surface is mounted by default.
const DefaultV1Prefix = "/v1"

// V1Options configures the /v1 surface.
type V1Options struct {
	// Disable turns the surface off.
	Disable bool
	// Prefix moves it. Default [DefaultV1Prefix].
	Prefix string
}

func writeV1Error(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, struct {
		Detail string `json:"detail"`
	}{msg})
}

func (s *Server) v1Routes(mux *http.ServeMux) {
	p := strings.TrimSuffix(s.opts.V1.Prefix, "/")
	if p == "" {
		p = DefaultV1Prefix
	}
	route := func(path string, h http.HandlerFunc, methods ...string) {
		mux.Handle(path, v1Headers(allowWith(writeV1Error, h, methods...)))
	}
	route(p+"/tools", s.v1ListTools, http.MethodGet, http.MethodHead)
	route(p+"/tools/{name}", s.v1CallTool, http.MethodPost)
	route(p+"/invocations", s.v1ListInvocations, http.MethodGet, http.MethodHead)
	route(p+"/invocations/{id}", s.v1GetInvocation, http.MethodGet, http.MethodHead)
}

type correlationKey struct{}

// v1Headers sets X-Request-ID and X-Correlation-ID on every response,
// echoing the request's or making new ones.
func v1Headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqID := headerID(r, "X-Request-ID")
		corr := headerID(r, "X-Correlation-ID")
		w.Header().Set("X-Request-ID", reqID)
		w.Header().Set("X-Correlation-ID", corr)
		h.ServeHTTP(w, r.WithContext(withCorrelation(r.Context(), corr)))
	})
}

// headerID is a request's id header when it is a sane one (printable
// ASCII, at most 128 bytes), else a new UUID.
func headerID(r *http.Request, name string) string {
	v := r.Header.Get(name)
	if v == "" || len(v) > 128 || strings.IndexFunc(v, func(c rune) bool { return c < 0x21 || c > 0x7e }) >= 0 {
		return newUUID()
	}
	return v
}

type v1Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func (s *Server) v1ListTools(w http.ResponseWriter, r *http.Request) {
	r = withState(r)
	ctx, ok := s.authenticate(w, r, writeV1Error)
	if !ok {
		return
	}
	tools, err := s.tools(ctx)
	if err != nil {
		writeV1Error(w, http.StatusInternalServerError, msgProviderFailed)
		return
	}
	out := make([]v1Tool, len(tools))
	for i := range tools {
		out[i] = v1Tool{Name: tools[i].Name, Description: tools[i].Description, InputSchema: inputSchema(&tools[i])}
	}
	writeJSON(w, http.StatusOK, struct {
		Tools []v1Tool `json:"tools"`
	}{out})
}

// v1Response is the answer to POST /v1/tools/{name}: a result or an
// error, and the invocation's id in history.
type v1Response struct {
	Result       any     `json:"result"`
	Error        *string `json:"error"`
	InvocationID string  `json:"invocation_id"`
}

// v1CallTool is POST /v1/tools/{name} with {"input": {...},
// "correlation_id": "..."}. A tool that fails, and input that fails the
// schema, still answer 200 with an error (qmcp's client raises on any
// other status); an unknown tool is 404.
func (s *Server) v1CallTool(w http.ResponseWriter, r *http.Request) {
	r = withState(r)
	ctx, ok := s.authenticate(w, r, writeV1Error)
	if !ok {
		return
	}
	body, ok := s.readBody(w, r, writeV1Error)
	if !ok {
		return
	}
	var req struct {
		Input         json.RawMessage `json:"input"`
		CorrelationID *string         `json:"correlation_id"`
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			writeV1Error(w, http.StatusUnprocessableEntity, "The body is not a JSON object with \"input\": "+err.Error())
			return
		}
	}
	if in := bytes.TrimSpace(req.Input); len(in) > 0 && string(in) != "null" && in[0] != '{' {
		writeV1Error(w, http.StatusUnprocessableEntity, `"input" must be an object.`)
		return
	}
	corr := correlationFrom(ctx)
	if req.CorrelationID != nil && *req.CorrelationID != "" {
		corr = *req.CorrelationID // the body's wins
		w.Header().Set("X-Correlation-ID", corr)
	}
	name := r.PathValue("name")
	out := s.Invoke(ctx, &Call{Tool: name, Arguments: req.Input, Surface: SurfaceV1, CorrelationID: corr})
	switch out.Status {
	case StatusNotFound:
		writeV1Error(w, http.StatusNotFound, fmt.Sprintf("Tool '%s' not found", name))
		return
	case StatusUnavailable:
		writeV1Error(w, http.StatusInternalServerError, msgProviderFailed)
		return
	}
	resp := v1Response{InvocationID: out.InvocationID}
	switch out.Status {
	case StatusOK:
		resp.Result = s.resultValue(out.Tool, out.Result)
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
		msg := "Tool execution failed: " + resultText(out.Result)
		resp.Error = &msg
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) v1ListInvocations(w http.ResponseWriter, r *http.Request) {
	ctx, ok := s.authenticate(w, r, writeV1Error)
	if !ok {
		return
	}
	q := r.URL.Query()
	f := history.Filter{Tool: q.Get("tool_name"), Status: q.Get("status"), CorrelationID: q.Get("correlation_id"), Surface: q.Get("surface")}
	for name, dst := range map[string]*int{"limit": &f.Limit, "offset": &f.Offset} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				writeV1Error(w, http.StatusUnprocessableEntity, fmt.Sprintf("%s must be an integer, not %q", name, v))
				return
			}
			if name == "limit" && n == 0 {
				n = -1 // an explicit 0 is out of range, not the default
			}
			*dst = n
		}
	}
	f, err := f.Normalize()
	if err != nil {
		writeV1Error(w, http.StatusUnprocessableEntity, strings.TrimPrefix(err.Error(), "history: "))
		return
	}
	recs, total, err := s.history.List(ctx, f)
	if err != nil {
		s.log.ErrorContext(ctx, "history store failed", "op", "list", "err", err)
		writeV1Error(w, http.StatusServiceUnavailable, "The invocation history is unavailable.")
		return
	}
	if recs == nil {
		recs = []history.Record{}
	}
	writeJSON(w, http.StatusOK, struct {
		Invocations []history.Record `json:"invocations"`
		Count       int              `json:"count"`
		Total       int              `json:"total"`
	}{recs, len(recs), total})
}

func (s *Server) v1GetInvocation(w http.ResponseWriter, r *http.Request) {
	ctx, ok := s.authenticate(w, r, writeV1Error)
	if !ok {
		return
	}
	id := r.PathValue("id")
	rec, err := s.history.Get(ctx, id)
	switch {
	case errors.Is(err, history.ErrNotFound):
		writeV1Error(w, http.StatusNotFound, fmt.Sprintf("Invocation '%s' not found", id))
	case err != nil:
		s.log.ErrorContext(ctx, "history store failed", "op", "get", "err", err)
		writeV1Error(w, http.StatusServiceUnavailable, "The invocation history is unavailable.")
	default:
		writeJSON(w, http.StatusOK, rec)
	}
}
