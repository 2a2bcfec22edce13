package explorer

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/web"
)

// page is the explorer page rendered for one server's options, with the
// Content-Security-Policy that allows exactly its inline scripts and styles.
type page struct {
	body []byte
	csp  string
}

// renderPage substitutes the template variables once: they depend only on
// the options, so there is nothing to do per request.
func renderPage(o *runtime.Options, eo *Options, store history.Store) page {
	allow := "false"
	if o.AllowExecute {
		allow = "true"
	}
	body := strings.NewReplacer(
		"{{TITLE}}", html.EscapeString(pageTitle(o)),
		"{{ALLOW_EXECUTE}}", allow,
		"{{PROJECT_LINK}}", projectLink(eo.ProjectName, eo.ProjectURL),
		"{{PROTOCOL_LINKS}}", protocolLinks(eo),
		"{{HISTORY_URL}}", historyURL(eo),
		"{{HUMAN_URL}}", humanURL(eo, store),
		"{{AUTH_REQUIRED}}", strconv.FormatBool(o.AuthHook != nil),
	).Replace(web.Index)
	return page{body: []byte(body), csp: contentSecurityPolicy(body)}
}

// protocolLinks links the page to the server's other surfaces: the OXP
// listing and the OpenAPI document, where they are mounted. The links are
// relative to the page, so that they hold when the whole server is
// mounted under a prefix.
func protocolLinks(o *Options) string {
	var b strings.Builder
	if o.Links.OXP != "" {
		b.WriteString(`<a href="` + html.EscapeString(fromPage(o, o.Links.OXP)+"/tools") + `" data-protocol="oxp" title="The tools as OXP 1.0 definitions (JSON)">OXP</a>`)
	}
	if o.Links.OpenAPI != "" {
		b.WriteString(`<a href="` + html.EscapeString(fromPage(o, o.Links.OpenAPI)) + `" data-protocol="openapi" title="The REST API as an OpenAPI 3.1 document (JSON)">OpenAPI</a>`)
	}
	return b.String()
}

// historyURL is /v1/invocations relative to the page (a JS string
// literal), or "" when the /v1 surface is not mounted: the page's History
// view reads it.
func historyURL(o *Options) string {
	if o.Links.V1 == "" {
		return `""`
	}
	b, _ := json.Marshal(fromPage(o, o.Links.V1) + "/invocations") // escapes <, > and &
	return string(b)
}

// humanURL is /v1/human relative to the page (a JS string literal), or
// "" when the /v1 surface is not mounted or the history store keeps no
// human requests: the page's Approvals view reads it.
func humanURL(o *Options, store history.Store) string {
	if _, ok := store.(history.Humans); o.Links.V1 == "" || !ok {
		return `""`
	}
	b, _ := json.Marshal(fromPage(o, o.Links.V1) + "/human")
	return string(b)
}

// fromPage is a surface's path, from the root, relative to the explorer
// page.
func fromPage(o *Options, path string) string {
	page := strings.Trim(o.Prefix, "/")
	up := ""
	if page != "" {
		up = strings.Repeat("../", strings.Count(page, "/")+1)
	}
	return up + strings.Trim(path, "/")
}

// projectLink builds the header link to the project. The URL must be
// http(s), mailto or a path (after dropping TAB, LF and CR, which browsers
// ignore inside a scheme), so that a configured "javascript:" URL can never
// reach the page.
func projectLink(name, url string) string {
	url = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, strings.TrimSpace(url))
	if url == "" || !safeLinkURL(url) {
		return ""
	}
	if name == "" {
		name = url
	}
	return `<a href="` + html.EscapeString(url) + `" target="_blank" rel="noopener noreferrer">` + html.EscapeString(name) + `</a>`
}

func safeLinkURL(u string) bool {
	l := strings.ToLower(u)
	for _, p := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	// A path, but not "//host", which is another origin.
	return strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")
}

// contentSecurityPolicy allows the page's own inline scripts and styles by
// hash and nothing from elsewhere: no other origin, no eval, no inline event
// handlers. Requests go only to the page's own origin.
func contentSecurityPolicy(body string) string {
	return "default-src 'none'; script-src 'self'" + blockHashes(body, "script") +
		"; style-src 'self'" + blockHashes(body, "style") +
		"; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// blockHashes lists the CSP hash of the content of every <tag>...</tag>
// block in body (tags matched in any case), each as " 'sha256-...'". It
// scans with strings.Index: a regular expression with a lazy group took
// 16 ms over the 120 KB page, on every NewServer.
func blockHashes(body, tag string) string {
	lower := asciiLower(body) // same length, so offsets carry over
	open, end := "<"+tag+">", "</"+tag+">"
	var b strings.Builder
	for i := 0; ; {
		j := strings.Index(lower[i:], open)
		if j < 0 {
			break
		}
		from := i + j + len(open)
		k := strings.Index(lower[from:], end)
		if k < 0 {
			break
		}
		sum := sha256.Sum256([]byte(body[from : from+k]))
		b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
		i = from + k + len(end)
	}
	return b.String()
}

// asciiLower lowers ASCII letters only, keeping every byte where it was.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func (h *handler) servePage(w http.ResponseWriter, r *http.Request) {
	pg := h.page()
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", pg.csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(pg.body)
	}
}

// pageTitle is the explorer page's title: runtime.Options.Title, else
// [runtime.DefaultTitle].
func pageTitle(o *runtime.Options) string {
	if o.Title == "" {
		return runtime.DefaultTitle
	}
	return o.Title
}
