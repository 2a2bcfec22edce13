package runtime

import (
	"encoding/json"
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
		s.providerFailed(w, r, err)
		return
	}
	out := make([]toolSummary, len(tools))
	for i := range tools {
		out[i] = summarize(&tools[i])
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getTool(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	t, err := s.lookup(r.Context(), name)
	if err != nil {
		s.providerFailed(w, r, err)
		return
	}
	if t == nil {
		writeError(w, http.StatusNotFound, "Tool not found: "+name)
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

// callResponse is a CallToolResult as the explorer protocol returns it.
type callResponse struct {
	*Result
	Meta *callMeta `json:"_meta,omitempty"`
}

type callMeta struct {
	TraceID string `json:"_trace_id"`
}

// callTool is POST /tools/{name}/call. The checks run in the order the
// protocol fixes: execution allowed (403), tool known (404), auth (401), then
// the body: a body that is not JSON counts as {} (the protocol's rule), but
// one that is JSON with invalid UTF-8 or absurd nesting is refused (400).
// Auth runs before the body is read so that an unauthenticated client cannot
// make the server buffer a body; the protocol leaves the body step without
// an observable answer, so the order is not visible otherwise.
func (s *Server) callTool(w http.ResponseWriter, r *http.Request) {
	if !s.opts.AllowExecute {
		writeError(w, http.StatusForbidden, "Tool execution is disabled.")
		return
	}
	name := r.PathValue("name")
	t, err := s.lookup(r.Context(), name)
	if err != nil {
		s.providerFailed(w, r, err)
		return
	}
	if t == nil {
		writeError(w, http.StatusNotFound, "Tool not found: "+name)
		return
	}
	ctx, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	v, problem, issues := parseArgs(body)
	if problem != nil && problem.notJSON {
		// The protocol's rule for a body that is not JSON.
		body = []byte("{}")
		v, problem, issues = map[string]any{}, nil, nil
	}
	c := s.callParsed(ctx, t, body, v, problem, issues)

	resp := callResponse{Result: c.result}
	trace := c.result.TraceID
	if trace == "" {
		trace = traceParentID(r.Header.Get("traceparent"))
	}
	if trace != "" {
		resp.Meta = &callMeta{TraceID: trace}
	}
	writeJSON(w, httpStatus(c.status), resp)
}

func httpStatus(st callStatus) int {
	switch st {
	case callOK:
		return http.StatusOK
	case callInvalid:
		return http.StatusBadRequest
	case callTimeout:
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

// validateTool is POST /tools/{name}/validate: public (no execution gate, no
// auth hook) and it never runs the handler.
func (s *Server) validateTool(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	t, err := s.lookup(r.Context(), name)
	if err != nil {
		s.providerFailed(w, r, err)
		return
	}
	if t == nil {
		writeError(w, http.StatusNotFound, "Tool not found: "+name)
		return
	}
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	v, problem, issues := parseArgs(body)
	if problem != nil {
		writeJSON(w, http.StatusBadRequest, validateResponse{Errors: []ValidationIssue{{Path: "", Message: "Invalid JSON: " + problem.msg, Keyword: "format"}}})
		return
	}
	if issues != nil {
		writeJSON(w, http.StatusOK, validateResponse{Errors: issues})
		return
	}
	if issues := s.schemas.get(t).validate(v); issues != nil {
		writeJSON(w, http.StatusOK, validateResponse{Errors: issues})
		return
	}
	writeJSON(w, http.StatusOK, validateResponse{Valid: true})
}
