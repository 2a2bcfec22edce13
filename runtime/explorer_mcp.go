package runtime

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// The explorer's REST view of the server's MCP prompts and resources
// (MCPOptions.Prompts, Resources, ResourceTemplates), for the page's
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
	out := make([]promptSummary, 0, len(s.opts.MCP.Prompts))
	for _, p := range s.opts.MCP.Prompts {
		args := make([]promptArgumentJSON, len(p.Arguments))
		for i, a := range p.Arguments {
			args[i] = promptArgumentJSON(a)
		}
		out = append(out, promptSummary{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args})
	}
	writeJSON(w, http.StatusOK, out)
}

// getPrompt is POST /prompts/{name}/get with {"arguments": {...}}.
func (s *Server) getPrompt(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var p *Prompt
	for i := range s.opts.MCP.Prompts {
		if s.opts.MCP.Prompts[i].Name == name {
			p = &s.opts.MCP.Prompts[i]
		}
	}
	if p == nil {
		writeError(w, http.StatusNotFound, "Prompt not found: "+name)
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
	var req struct {
		Arguments map[string]string `json:"arguments"`
	}
	if len(strings.TrimSpace(string(body))) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			writeError(w, http.StatusBadRequest, `The body must be {"arguments": {name: string}}: `+err.Error())
			return
		}
	}
	if req.Arguments == nil {
		req.Arguments = map[string]string{}
	}
	if err := checkPromptArgs(p, req.Arguments); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	res, err := safePrompt(ctx, p.Handler, req.Arguments)
	if err != nil {
		s.log.ErrorContext(ctx, "prompt failed", "prompt", p.Name, "err", err)
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	msgs := make([]promptMessageJSON, len(res.Messages))
	for i, m := range res.Messages {
		msgs[i] = promptMessageJSON(m)
	}
	writeJSON(w, http.StatusOK, struct {
		Description string              `json:"description,omitempty"`
		Messages    []promptMessageJSON `json:"messages"`
	}{res.Description, msgs})
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
	o := &s.opts.MCP
	res := make([]resourceSummary, 0, len(o.Resources))
	for _, x := range o.Resources {
		res = append(res, resourceSummary{URI: x.URI, Name: x.Name, Title: x.Title, Description: x.Description, MIMEType: x.MIMEType})
	}
	tmpl := make([]resourceSummary, 0, len(o.ResourceTemplates))
	for _, x := range o.ResourceTemplates {
		tmpl = append(tmpl, resourceSummary{URITemplate: x.URITemplate, Name: x.Name, Title: x.Title, Description: x.Description, MIMEType: x.MIMEType})
	}
	writeJSON(w, http.StatusOK, struct {
		Resources []resourceSummary `json:"resources"`
		Templates []resourceSummary `json:"resourceTemplates"`
	}{res, tmpl})
}

// readResource is GET /resources/read?uri=URI: a resource by its URI, or
// the first template that matches it.
func (s *Server) readResource(w http.ResponseWriter, r *http.Request) {
	uri := r.URL.Query().Get("uri")
	o := &s.opts.MCP
	var read ResourceHandler
	var vars map[string]string
	mime := ""
	for i := range o.Resources {
		if o.Resources[i].URI == uri {
			read, mime = o.Resources[i].Read, o.Resources[i].MIMEType
			break
		}
	}
	if read == nil {
		for i := range o.ResourceTemplates {
			t, err := uritemplate.New(o.ResourceTemplates[i].URITemplate)
			if err != nil {
				continue
			}
			if t.Match(uri) != nil {
				read, vars, mime = o.ResourceTemplates[i].Read, templateVars(t, uri), o.ResourceTemplates[i].MIMEType
				break
			}
		}
	}
	if uri == "" || read == nil {
		writeError(w, http.StatusNotFound, "Resource not found: "+uri)
		return
	}
	ctx, ok := s.authenticate(w, r, writeError)
	if !ok {
		return
	}
	contents, err := read(ctx, uri, vars)
	if err != nil {
		s.log.ErrorContext(ctx, "resource read failed", "uri", uri, "err", err)
		writeError(w, http.StatusInternalServerError, err.Error())
		return
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
	writeJSON(w, http.StatusOK, struct {
		Contents []ResourceContents `json:"contents"`
	}{contents})
}
