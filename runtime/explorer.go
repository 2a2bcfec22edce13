package runtime

import (
	"encoding/json"
	"errors"
	"net/http"
)

// The Tool Explorer's REST protocol (explorer F2, F3, F7): what the page at
// GET / talks to, and a simple API for any HTTP client.

// toolSummary is an entry of GET /tools.
type toolSummary struct {
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description"`
	Annotations *Annotations `json:"annotations,omitempty"`
}

// toolDetail is the body of GET /tools/{name}.
type toolDetail struct {
	toolSummary
	InputSchema  json.RawMessage   `json:"inputSchema"`
	OutputSchema json.RawMessage   `json:"outputSchema,omitempty"`
	Signature    string            `json:"signature,omitempty"`
	Examples     []json.RawMessage `json:"examples,omitempty"`
}

func summarize(t *Tool) toolSummary {
	ts := toolSummary{Name: t.Name, Title: t.Title, Description: t.Description}
	if !t.Annotations.IsZero() {
		ts.Annotations = t.Annotations
	}
	return ts
}

func (s *Server) listTools(w http.ResponseWriter, r *http.Request) {
	tools, err := s.tools(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, msgProviderFailed)
		return
	}
	out := make([]toolSummary, len(tools))
	for i := range tools {
		out[i] = summarize(&tools[i])
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getTool(w http.ResponseWriter, r *http.Request) {
	t := s.knownTool(w, r)
	if t == nil {
		return
	}
	writeJSON(w, http.StatusOK, toolDetail{
		toolSummary:  summarize(t),
		InputSchema:  inputSchema(t),
		OutputSchema: t.OutputSchema,
		Signature:    t.Signature,
		Examples:     t.Examples,
	})
}

// knownTool returns the tool the path names, or answers 404 (or 500 when
// the provider failed) and returns nil.
func (s *Server) knownTool(w http.ResponseWriter, r *http.Request) *Tool {
	name := r.PathValue("name")
	t, err := s.lookup(r.Context(), name)
	switch {
	case err != nil:
		writeError(w, http.StatusInternalServerError, msgProviderFailed)
	case t == nil:
		writeError(w, http.StatusNotFound, "Tool not found: "+name)
	}
	return t
}

// callResponse is a CallToolResult as the explorer protocol returns it.
type callResponse struct {
	*Result
	Meta *callMeta `json:"_meta,omitempty"`
}

type callMeta struct {
	TraceID string `json:"_trace_id"`
}

// callTool is POST /tools/{name}/call. The checks run in the order the
// protocol fixes: execution allowed (403), tool known (404), auth (401),
// then the body, then [Server.Invoke]. Auth runs before the body is read so
// that an unauthenticated client cannot make the server buffer a body. The
// provider is asked once for both lookups (see requestState).
func (s *Server) callTool(w http.ResponseWriter, r *http.Request) {
	if !s.opts.AllowExecute {
		writeError(w, http.StatusForbidden, "Tool execution is disabled.")
		return
	}
	r = withState(r)
	if s.knownTool(w, r) == nil {
		return
	}
	ctx, ok := s.authenticate(w, r, writeError)
	if !ok {
		return
	}
	body, ok := s.readBody(w, r, writeError)
	if !ok {
		return
	}
	if notJSON(body) {
		body = emptyObject // the protocol's rule for a body that is not JSON
	}
	c := &Call{Tool: r.PathValue("name"), Arguments: body, Surface: SurfaceExplorer, TraceID: traceParentID(r.Header.Get("traceparent"))}
	out := s.Invoke(ctx, c)
	if s.lookupFailed(w, out) {
		return
	}
	resp := callResponse{Result: out.Result}
	trace := out.Result.TraceID
	if trace == "" {
		trace = c.TraceID
	}
	if trace != "" {
		resp.Meta = &callMeta{TraceID: trace}
	}
	writeJSON(w, explorerStatus(out.Status), resp)
}

// lookupFailed answers an outcome that has no tool: the explorer's 404 and
// 500 bodies.
func (s *Server) lookupFailed(w http.ResponseWriter, out *Outcome) bool {
	switch out.Status {
	case StatusNotFound:
		writeError(w, http.StatusNotFound, out.Result.Content[0].Text)
	case StatusUnavailable:
		writeError(w, http.StatusInternalServerError, msgProviderFailed)
	default:
		return false
	}
	return true
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
// past validation. Public: no execution gate, no auth hook.
func (s *Server) validateTool(w http.ResponseWriter, r *http.Request) {
	r = withState(r)
	if s.knownTool(w, r) == nil {
		return
	}
	body, ok := s.readBody(w, r, writeError)
	if !ok {
		return
	}
	out := s.Invoke(r.Context(), &Call{Tool: r.PathValue("name"), Arguments: body, Surface: SurfaceExplorer, ValidateOnly: true})
	if s.lookupFailed(w, out) {
		return
	}
	var ve *ValidationError
	switch {
	case out.Status == StatusOK:
		writeJSON(w, http.StatusOK, validateResponse{Valid: true})
	case errors.As(out.Err, &ve) && ve.Malformed:
		writeJSON(w, http.StatusBadRequest, validateResponse{Errors: []ValidationIssue{{Path: "", Message: "Invalid JSON: " + ve.Issues[0].Message, Keyword: "format"}}})
	default:
		writeJSON(w, http.StatusOK, validateResponse{Errors: out.Issues()})
	}
}
