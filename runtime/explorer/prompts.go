package explorer

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/toolgen-go/toolgen/runtime"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// The explorer's REST view of the server's MCP prompts and resources
// (Options.Prompts, Resources, ResourceTemplates), for the page's
// Prompts and Resources tabs: listing is public like GET /tools; getting a
// prompt or reading a resource runs the server's code, so it is behind the
// auth hook like a call.

type promptSummary struct {
	Name        string               `json:"name"`
	Title       string               `json:"title,omitempty"`
	Description string               `json:"description,omitempty"`
	Arguments   []promptArgumentJSON `json:"arguments"`
}

type promptArgumentJSON struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

func (h *handler) listPrompts(w http.ResponseWriter, r *http.Request) {
	out := make([]promptSummary, 0, len(h.prompts))
	for _, p := range h.prompts {
		args := make([]promptArgumentJSON, len(p.Arguments))
		for i, a := range p.Arguments {
			args[i] = promptArgumentJSON(a)
		}
		out = append(out, promptSummary{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args})
	}
	httpkit.WriteJSON(w, http.StatusOK, out)
}

// knownPrompt refuses a path that names no prompt.
func (h *handler) knownPrompt(rq *httpkit.Request) error {
	if h.prompt(rq.R.PathValue("name")) == nil {
		return httpkit.Refuse(http.StatusNotFound, "Prompt not found: "+rq.R.PathValue("name"))
	}
	return nil
}

func (h *handler) prompt(name string) *runtime.Prompt {
	for i := range h.prompts {
		if h.prompts[i].Name == name {
			return &h.prompts[i]
		}
	}
	return nil
}

// getPrompt is POST /prompts/{name}/get with {"arguments": {...}}.
func (h *handler) getPrompt(rq *httpkit.Request) error {
	p := h.prompt(rq.R.PathValue("name"))
	var req struct {
		Arguments map[string]string `json:"arguments"`
	}
	if len(bytes.TrimSpace(rq.Body)) > 0 {
		if err := json.Unmarshal(rq.Body, &req); err != nil {
			return httpkit.Refuse(http.StatusBadRequest, `The body must be {"arguments": {name: string}}.`)
		}
	}
	if req.Arguments == nil {
		req.Arguments = map[string]string{}
	}
	if err := p.CheckArgs(req.Arguments); err != nil {
		return httpkit.Refuse(http.StatusBadRequest, err.Error())
	}
	res, err := p.Get(rq.Ctx, req.Arguments)
	if err != nil {
		h.log.ErrorContext(rq.Ctx, "prompt failed", "prompt", p.Name, "err", err)
		return httpkit.Refuse(http.StatusInternalServerError, err.Error()) // the prompt's own words, as a tool's error is shown
	}
	msgs := make([]promptMessageJSON, len(res.Messages))
	for i, m := range res.Messages {
		msgs[i] = promptMessageJSON(m)
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Description string              `json:"description,omitempty"`
		Messages    []promptMessageJSON `json:"messages"`
	}{res.Description, msgs})
	return nil
}

type promptMessageJSON struct {
	Role    string          `json:"role"`
	Content runtime.Content `json:"content"`
}

type resourceSummary struct {
	URI         string `json:"uri,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

func (h *handler) listResources(w http.ResponseWriter, r *http.Request) {
	res := make([]resourceSummary, 0, len(h.resources))
	for _, x := range h.resources {
		res = append(res, resourceSummary{URI: x.URI, Name: x.Name, Title: x.Title, Description: x.Description, MIMEType: x.MIMEType})
	}
	tmpl := make([]resourceSummary, 0, len(h.resourceTemplates))
	for _, x := range h.resourceTemplates {
		tmpl = append(tmpl, resourceSummary{URITemplate: x.URITemplate, Name: x.Name, Title: x.Title, Description: x.Description, MIMEType: x.MIMEType})
	}
	httpkit.WriteJSON(w, http.StatusOK, struct {
		Resources []resourceSummary `json:"resources"`
		Templates []resourceSummary `json:"resourceTemplates"`
	}{res, tmpl})
}

// knownResource refuses a URI that no resource or template serves.
func (h *handler) knownResource(rq *httpkit.Request) error {
	uri := rq.R.URL.Query().Get("uri")
	if uri == "" || h.srv.FindResource(uri) == nil {
		return httpkit.Refuse(http.StatusNotFound, "Resource not found: "+uri)
	}
	return nil
}

// readResource is GET /resources/read?uri=URI.
func (h *handler) readResource(rq *httpkit.Request) error {
	uri := rq.R.URL.Query().Get("uri")
	contents, err := h.srv.FindResource(uri)(rq.Ctx)
	if err != nil {
		h.log.ErrorContext(rq.Ctx, "resource read failed", "uri", uri, "err", err)
		return httpkit.Refuse(http.StatusInternalServerError, err.Error()) // the handler's own words, as a tool's error is shown
	}
	if contents == nil {
		contents = []runtime.ResourceContents{}
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Contents []runtime.ResourceContents `json:"contents"`
	}{contents})
	return nil
}
