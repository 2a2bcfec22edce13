package runtime

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/yosida95/uritemplate/v3"
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

func (s *Server) listPrompts(w http.ResponseWriter, r *http.Request) {
	out := make([]promptSummary, 0, len(s.opts.Prompts))
	for _, p := range s.opts.Prompts {
		args := make([]promptArgumentJSON, len(p.Arguments))
		for i, a := range p.Arguments {
			args[i] = promptArgumentJSON(a)
		}
		out = append(out, promptSummary{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args})
	}
	httpkit.WriteJSON(w, http.StatusOK, out)
}

// knownPrompt refuses a path that names no prompt.
func (s *Server) knownPrompt(rq *httpkit.Request) error {
	if s.prompt(rq.R.PathValue("name")) == nil {
		return httpkit.Refuse(http.StatusNotFound, "Prompt not found: "+rq.R.PathValue("name"))
	}
	return nil
}

func (s *Server) prompt(name string) *Prompt {
	for i := range s.opts.Prompts {
		if s.opts.Prompts[i].Name == name {
			return &s.opts.Prompts[i]
		}
	}
	return nil
}

// getPrompt is POST /prompts/{name}/get with {"arguments": {...}}.
func (s *Server) getPrompt(rq *httpkit.Request) error {
	p := s.prompt(rq.R.PathValue("name"))
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
	if err := checkPromptArgs(p, req.Arguments); err != nil {
		return httpkit.Refuse(http.StatusBadRequest, err.Error())
	}
	res, err := safePrompt(rq.Ctx, p.Handler, req.Arguments)
	if err != nil {
		s.log.ErrorContext(rq.Ctx, "prompt failed", "prompt", p.Name, "err", err)
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
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

type resourceSummary struct {
	URI         string `json:"uri,omitempty"`
	URITemplate string `json:"uriTemplate,omitempty"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

func (s *Server) listResources(w http.ResponseWriter, r *http.Request) {
	o := &s.opts
	res := make([]resourceSummary, 0, len(o.Resources))
	for _, x := range o.Resources {
		res = append(res, resourceSummary{URI: x.URI, Name: x.Name, Title: x.Title, Description: x.Description, MIMEType: x.MIMEType})
	}
	tmpl := make([]resourceSummary, 0, len(o.ResourceTemplates))
	for _, x := range o.ResourceTemplates {
		tmpl = append(tmpl, resourceSummary{URITemplate: x.URITemplate, Name: x.Name, Title: x.Title, Description: x.Description, MIMEType: x.MIMEType})
	}
	httpkit.WriteJSON(w, http.StatusOK, struct {
		Resources []resourceSummary `json:"resources"`
		Templates []resourceSummary `json:"resourceTemplates"`
	}{res, tmpl})
}

// resourceFor finds what reads uri: a resource of that URI, or the first
// template that matches it; read is nil when there is none.
func (s *Server) resourceFor(uri string) (read ResourceHandler, vars map[string]string, mime string) {
	o := &s.opts
	for i := range o.Resources {
		if o.Resources[i].URI == uri {
			return o.Resources[i].Read, nil, o.Resources[i].MIMEType
		}
	}
	for i := range o.ResourceTemplates {
		t, err := uritemplate.New(o.ResourceTemplates[i].URITemplate)
		if err != nil {
			continue
		}
		if t.Match(uri) != nil {
			return o.ResourceTemplates[i].Read, templateVars(t, uri), o.ResourceTemplates[i].MIMEType
		}
	}
	return nil, nil, ""
}

// knownResource refuses a URI that no resource or template serves.
func (s *Server) knownResource(rq *httpkit.Request) error {
	uri := rq.R.URL.Query().Get("uri")
	if read, _, _ := s.resourceFor(uri); uri == "" || read == nil {
		return httpkit.Refuse(http.StatusNotFound, "Resource not found: "+uri)
	}
	return nil
}

// readResource is GET /resources/read?uri=URI.
func (s *Server) readResource(rq *httpkit.Request) error {
	uri := rq.R.URL.Query().Get("uri")
	read, vars, mime := s.resourceFor(uri)
	contents, err := read(rq.Ctx, uri, vars)
	if err != nil {
		s.log.ErrorContext(rq.Ctx, "resource read failed", "uri", uri, "err", err)
		return httpkit.Refuse(http.StatusInternalServerError, err.Error()) // the handler's own words, as a tool's error is shown
	}
	for i := range contents {
		if contents[i].URI == "" {
			contents[i].URI = uri
		}
		if contents[i].MIMEType == "" {
			contents[i].MIMEType = mime
		}
	}
	if contents == nil {
		contents = []ResourceContents{}
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Contents []ResourceContents `json:"contents"`
	}{contents})
	return nil
}
