package web_test

// Browser tests of the Prompts and Resources tabs and of the header's
// OpenAPI link, in the style of browser_test.go: a fixture server, a real
// Chromium, and waits on conditions in the page.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/ops"
	"github.com/toolgen-go/toolgen/runtime/oxp"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

const hostilePrompt = `<b id="pwn-prompt">bold</b>`

// testBlob is the bytes of test://files/data.bin.
var testBlob = func() []byte {
	b := make([]byte, 1500)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}()

// testMCP are the prompts and resources the Prompts and Resources tabs
// show.
// testMCP is options with prompts, resources and a template.
func testMCP() runtime.Options {
	fixed := func(rc runtime.ResourceContents) runtime.ResourceHandler {
		return func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{rc}, nil
		}
	}
	return runtime.Options{
		Prompts: []runtime.Prompt{
			{
				Name: "explain", Title: "Explain a value", Description: "Explain a value to a reader.\nIn one short paragraph.",
				Arguments: []runtime.PromptArgument{
					{Name: "value", Title: "Value", Description: "The value to explain.", Required: true},
					{Name: "tone", Description: "How to say it."},
				},
				Handler: func(_ context.Context, args map[string]string) (*runtime.PromptResult, error) {
					return &runtime.PromptResult{
						Description: "An explanation of " + args["value"] + ".",
						Messages: []runtime.PromptMessage{
							runtime.UserMessage("Explain " + args["value"] + ", " + args["tone"] + "."),
							runtime.AssistantMessage(`{"value":"` + args["value"] + `","n":12345678901234567890}`),
							{Role: "assistant", Content: runtime.Image(testPNG(), "image/png")},
						},
					}, nil
				},
			},
			{
				Name: "summarize", Description: "Summarize the day.",
				Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
					return &runtime.PromptResult{Messages: []runtime.PromptMessage{runtime.UserMessage("Summarize the day.")}}, nil
				},
			},
			{
				Name: "broken", Description: "A prompt that always fails.",
				Handler: func(context.Context, map[string]string) (*runtime.PromptResult, error) {
					return nil, errors.New("the model is out of <b>words</b>")
				},
			},
			{
				Name: hostilePrompt, Title: `<i id="pwn-ptitle">title</i>`,
				Description: `<img src=x onerror="window.__pwned=7"> & friends`,
				Arguments:   []runtime.PromptArgument{{Name: `<i>q</i>`, Description: `<img src=x onerror="window.__pwned=8">`}},
				Handler: func(_ context.Context, args map[string]string) (*runtime.PromptResult, error) {
					return &runtime.PromptResult{Messages: []runtime.PromptMessage{
						{Role: `<b>role</b>`, Content: runtime.Text(`<img src=x onerror="window.__pwned=9"><b>not bold</b> ` + args[`<i>q</i>`])},
					}}, nil
				},
			},
		},
		Resources: []runtime.Resource{
			{URI: "test://docs/readme.txt", Name: "readme", Title: "Read me", Description: "How to use the server.\nSecond line.", MIMEType: "text/plain",
				Read: fixed(runtime.ResourceContents{Text: "{\"kept\": \"as written\"}\nHello <b>world</b> & friends."})},
			{URI: "test://config.json", Name: "config", MIMEType: "application/json",
				Read: fixed(runtime.ResourceContents{Text: `{"name":"demo","id":12345678901234567890,"tags":["a","b"]}`})},
			{URI: "test://logo.png", Name: "logo", Description: "The logo.", MIMEType: "image/png", Read: fixed(runtime.ResourceContents{Blob: testPNG()})},
			{URI: "test://files/data.bin", Name: "data", MIMEType: "application/octet-stream", Read: fixed(runtime.ResourceContents{Blob: testBlob})},
			{URI: "test://broken", Name: "broken", Read: func(context.Context, string, map[string]string) ([]runtime.ResourceContents, error) {
				return nil, errors.New("the disk is on <i>fire</i>")
			}},
			{URI: "test://hostile", Name: `<b id="pwn-res">res</b>`, Title: `<i>t</i>`, Description: `<img src=x onerror="window.__pwned=10">`, MIMEType: `text/<b>html</b>`,
				Read: fixed(runtime.ResourceContents{Text: `<img src=x onerror="window.__pwned=11"><b>not bold</b>`})},
		},
		ResourceTemplates: []runtime.ResourceTemplate{
			{URITemplate: "test://items/{id}", Name: "item", Title: "Item by id", Description: "One item.", MIMEType: "application/json",
				Read: func(_ context.Context, _ string, vars map[string]string) ([]runtime.ResourceContents, error) {
					b, err := json.Marshal(map[string]any{"id": vars["id"], "price": 1.50})
					return []runtime.ResourceContents{{Text: string(b)}}, err
				}},
			{URITemplate: "test://search{?q,limit}", Name: "search", MIMEType: "text/plain",
				Read: func(_ context.Context, uri string, vars map[string]string) ([]runtime.ResourceContents, error) {
					return []runtime.ResourceContents{{Text: fmt.Sprintf("q=%s limit=%s", vars["q"], vars["limit"])}}, nil
				}},
		},
	}
}

// css quotes s as a CSS string.
func css(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\a `).Replace(s) + `"`
}

func prompt(name string) string  { return `#prompt-list li.prompt[data-prompt=` + css(name) + `]` }
func resource(uri string) string { return `#resource-list li.resource[data-uri=` + css(uri) + `]` }
func template(tpl string) string { return `#template-list li.template[data-template=` + css(tpl) + `]` }

func listTexts(sel string) string {
	return fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (e) { return e.textContent; })`, js(sel))
}
func (p *tab) texts(sel string) string { return strings.Join(evalJS[[]string](p, listTexts(sel)), "|") }

// tabs are the view tabs shown, each with whether it is selected.
func (p *tab) tabs() string {
	p.t.Helper()
	return strings.Join(evalJS[[]string](p, `Array.from(document.querySelectorAll('#views [role=tab]')).filter(function (b) { return b.getClientRects().length; }).map(function (b) { return b.textContent + ':' + b.getAttribute('aria-selected'); })`), ",")
}

// waitListed waits until the page has the server's prompts and resources.
func (p *tab) waitListed() {
	p.t.Helper()
	p.waitFor(`document.getElementById('prompts-view').dataset.state === 'ready' && document.getElementById('resources-view').dataset.state === 'ready'`, "the prompts and resources")
}

// openPrompts shows the Prompts tab once the page knows the server's
// prompts.
func (p *tab) openPrompts() {
	p.t.Helper()
	p.click("#tab-prompts")
	p.waitVisible("#prompt-list li.prompt")
}

func (p *tab) openResources() {
	p.t.Helper()
	p.click("#tab-resources")
	p.waitVisible("#resources-view li.entry")
}

// openEntry opens a prompt's or a resource's card.
func (p *tab) openEntry(card string) {
	p.t.Helper()
	p.click(card + " .tool-header")
	p.waitVisible(card + " .run-btn")
}

// press clicks a card's button and waits for a new answer.
func (p *tab) press(card string) {
	p.t.Helper()
	evalJS[chromedp.Void](p, fmt.Sprintf(`(function () { var r = document.querySelector(%s); if (r) r.dataset.old = '1'; })()`, js(card+" .result")))
	p.click(card + " .run-btn")
	p.waitVisible(card + " .result:not([data-old])")
}

func (p *tab) waitImage(sel string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`(function () { var i = document.querySelector(%s); return !!i && i.complete && i.naturalWidth > 0; })()`, js(sel)), sel+" to load")
}

func TestBrowserPromptsList(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: testMCP()})
	p := openTab(t, f.url)
	p.waitVisible("#tab-prompts")
	p.waitVisible("#tab-resources")
	if got := p.tabs(); got != "Tools:true,Prompts:false,Resources:false,History:false,Approvals:false" {
		t.Errorf("tabs %q", got)
	}
	p.openPrompts()
	if got := p.tabs(); got != "Tools:false,Prompts:true,Resources:false,History:false,Approvals:false" {
		t.Errorf("tabs %q", got)
	}
	if h := evalJS[string](p, `location.hash`); h != "#prompts" {
		t.Errorf("hash %q", h)
	}
	if evalJS[bool](p, visible("#tool-list")) || evalJS[bool](p, visible("#history-view")) {
		t.Errorf("another view is shown beside the prompts")
	}
	if got := p.texts("#prompt-list .tool-name"); got != "explain|summarize|broken|"+hostilePrompt {
		t.Errorf("prompts listed: %s", got)
	}
	if got := p.text("#prompt-count"); got != "4 prompts" {
		t.Errorf("count %q", got)
	}
	if got := p.text(prompt("explain") + " .tool-title"); got != "Explain a value" {
		t.Errorf("title %q", got)
	}
	if got := p.texts("#prompt-list .entry-note"); got != "2 arguments, 1 required|no arguments|no arguments|1 argument" {
		t.Errorf("argument notes %q", got)
	}
	if got := p.text(prompt("explain") + " .tool-summary"); got != "Explain a value to a reader." {
		t.Errorf("summary %q: want the description's first line", got)
	}
	// Listing is all: nothing is got before a click.
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "POST /prompts/") {
			t.Errorf("prompt got before any click: %s", r)
		}
	}
}

// A prompt's form has a field for each argument, the required ones
// marked; Get shows the messages by role, content blocks as the console
// shows them; a missing argument and a failing prompt show the server's
// error.
func TestBrowserPromptGet(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: testMCP()})
	p := openTab(t, f.url)
	p.openPrompts()
	card := prompt("explain")
	p.openEntry(card)
	if h := evalJS[string](p, `location.hash`); h != "#prompts/explain" {
		t.Errorf("hash %q with explain open", h)
	}
	if got := p.text(card + " .description"); got != "Explain a value to a reader.\nIn one short paragraph." {
		t.Errorf("description %q", got)
	}
	labels := evalJS[[]string](p, listTexts(card+" .form-grid label"))
	if strings.Join(labels, "|") != "value* (required)|tone" {
		t.Errorf("labels %q", labels)
	}
	if got := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).getAttribute('aria-required')`, js(card+` input[data-arg="value"]`))); got != "true" {
		t.Errorf("value's aria-required %q", got)
	}
	if got := p.texts(card + " .hint"); got != "Value · The value to explain.|How to say it." {
		t.Errorf("hints %q", got)
	}
	// The label names its field.
	p.click(card + " .form-grid label")
	p.waitFor(fmt.Sprintf(`document.activeElement === document.querySelector(%s)`, js(card+` input[data-arg="value"]`)), "the label to focus its field")

	p.typeInto(card+` input[data-arg="value"]`, "42")
	p.typeInto(card+` input[data-arg="tone"]`, "gently")
	p.press(card)
	if got := p.text(card + " .result .status"); got != "200 OK" {
		t.Errorf("status %q", got)
	}
	if got := p.text(card + " .prompt-description"); got != "An explanation of 42." {
		t.Errorf("result description %q", got)
	}
	if got := p.texts(card + " .message .message-role"); got != "user|assistant|assistant" {
		t.Errorf("roles %q", got)
	}
	texts := evalJS[[]string](p, listTexts(card+" .message .result-text"))
	want := []string{"Explain 42, gently.", "{\n  \"value\": \"42\",\n  \"n\": 12345678901234567890\n}"}
	if strings.Join(texts, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("message texts %q, want %q", texts, want)
	}
	img := card + ` .message[data-role="assistant"] img.result-image`
	p.waitImage(img)
	if w := evalJS[int](p, fmt.Sprintf(`document.querySelector(%s).naturalWidth`, js(img))); w != 12 {
		t.Errorf("image naturalWidth %d", w)
	}
	if u, a := p.colour(card+" .message-user .message-role", "color").hue(), p.colour(card+" .message-assistant .message-role", "color").hue(); u != "blue" || a != "green" {
		t.Errorf("role colours: user %s, assistant %s", u, a)
	}
	// The raw answer is a tab away.
	p.click(card + ` .result .tabs button[data-tab="raw"]`)
	p.waitVisible(card + " .raw-view pre")
	if got := p.text(card + " .raw-view pre"); !strings.Contains(got, `"role": "user"`) || !strings.Contains(got, "12345678901234567890") {
		t.Errorf("raw answer %q", got)
	}
	p.click(card + ` .result .tabs button[data-tab="result"]`)
	p.waitVisible(card + " .result-view .message")

	// Without the required argument: the server's 400, in red.
	p.typeInto(card+` input[data-arg="value"]`, "")
	p.press(card)
	if got := p.text(card + " .result .status"); got != "400 Bad Request" {
		t.Errorf("status %q", got)
	}
	if got := p.text(card + " .result-view .error-box"); got != "prompt explain: missing required argument value" {
		t.Errorf("error %q", got)
	}
	if hue := p.colour(card+" .result-view .error-box", "color").hue(); hue != "red" {
		t.Errorf("the error is %s, want red", hue)
	}
	// Enter in a field gets the prompt too.
	p.typeInto(card+` input[data-arg="value"]`, "7")
	evalJS[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%s).dataset.old = '1'`, js(card+" .result")))
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS(card+` input[data-arg="value"]`), kb.Enter)); err != nil {
		t.Fatal(err)
	}
	p.waitVisible(card + " .result:not([data-old])")
	if got := p.text(card + " .message-user .result-text"); got != "Explain 7, gently." {
		t.Errorf("after Enter: %q", got)
	}

	// A prompt without arguments.
	card = prompt("summarize")
	p.openEntry(card)
	if got := p.text(card + " .plain-note"); got != "This prompt takes no arguments." {
		t.Errorf("note %q", got)
	}
	p.press(card)
	if got := p.text(card + " .message-user .result-text"); got != "Summarize the day." {
		t.Errorf("message %q", got)
	}
	// A prompt that fails.
	card = prompt("broken")
	p.openEntry(card)
	p.press(card)
	if got := p.text(card + " .result .status"); got != "500 Error" {
		t.Errorf("status %q", got)
	}
	if got := p.text(card + " .result-view .error-box"); got != "the model is out of <b>words</b>" {
		t.Errorf("error %q", got)
	}
	if n := f.count("POST /prompts/explain/get"); n != 3 {
		t.Errorf("%d gets of explain, want 3", n)
	}
}

// Behind the auth hook, the listings are public; a get or a read without
// the token shows the console's 401 guidance, and works once the token is
// typed.
func TestBrowserPromptsResourcesUnauthorized(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	f := newFixture(t, fixtureOptions{
		opts: func() runtime.Options { o := testMCP(); o.AuthHook = runtime.BearerTokens(testToken); return o }(),
		wrap: func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/prompts/") || strings.HasPrefix(r.URL.Path, "/resources/") {
					mu.Lock()
					auth = append(auth, r.URL.Path+" "+r.Header.Get("Authorization"))
					mu.Unlock()
				}
				h.ServeHTTP(w, r)
			})
		},
	})
	p := openTab(t, f.url+"#prompts")
	card := prompt("explain")
	p.openEntry(card)
	p.typeInto(card+` input[data-arg="value"]`, "42")
	p.press(card)
	if got := p.text(card + " .result .status"); got != "401 Unauthorized" {
		t.Errorf("status %q", got)
	}
	if got := p.text(card + " .unauthorized p"); got != "Unauthorized: this server requires a Bearer token. Enter your token in the field at the top of the page and get the prompt again." {
		t.Errorf("401 message %q", got)
	}
	p.click(card + " .unauthorized button")
	p.waitFor(`document.activeElement === document.getElementById('token-input')`, "the token field to get the focus")
	p.setToken(testToken)
	p.waitText("#token-status", "Token set")
	p.press(card)
	if got := p.text(card + " .message-user .result-text"); got != "Explain 42, ." {
		t.Errorf("message with the token %q", got)
	}

	p.click("#token-clear")
	p.waitText("#token-status", "No token")
	p.openResources()
	card = resource("test://docs/readme.txt")
	p.openEntry(card)
	p.press(card)
	if got := p.text(card + " .unauthorized p"); !strings.Contains(got, "read the resource again") {
		t.Errorf("401 message %q", got)
	}
	p.setToken("Bearer " + testToken)
	p.press(card)
	if got := p.text(card + " .result .status"); got != "200 OK" {
		t.Errorf("status with the token %q", got)
	}
	mu.Lock()
	got := strings.Join(auth, "\n")
	mu.Unlock()
	want := strings.Join([]string{
		"/prompts/explain/get ", "/prompts/explain/get Bearer " + testToken,
		"/resources/read ", "/resources/read Bearer " + testToken,
	}, "\n")
	if got != want {
		t.Errorf("requests and their Authorization:\n%s\nwant\n%s", got, want)
	}
}

// The Resources tab lists resources and templates; reading one shows text
// as it is, JSON pretty (numbers exact), an image, or the size of other
// bytes with a download.
func TestBrowserResourcesRead(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: testMCP()})
	p := openTab(t, f.url)
	p.openResources()
	if h := evalJS[string](p, `location.hash`); h != "#resources" {
		t.Errorf("hash %q", h)
	}
	if got := p.texts("#resource-list .tool-name"); got != `readme|config|logo|data|broken|<b id="pwn-res">res</b>` {
		t.Errorf("resources %s", got)
	}
	if got := p.texts("#template-list .tool-name"); got != "item|search" {
		t.Errorf("templates %s", got)
	}
	if got := p.texts("#resources-view .list-heading"); got != "Resources|Resource templates" {
		t.Errorf("headings %s", got)
	}
	if got := p.text("#resource-count"); got != "6 resources, 2 templates" {
		t.Errorf("count %q", got)
	}
	if got := p.text(resource("test://docs/readme.txt") + " .tool-summary"); got != "test://docs/readme.txt — How to use the server." {
		t.Errorf("summary %q", got)
	}
	if got := p.text(resource("test://config.json") + " .mime"); got != "application/json" {
		t.Errorf("MIME type %q", got)
	}

	// Text, exactly as it is.
	card := resource("test://docs/readme.txt")
	p.openEntry(card)
	if h := evalJS[string](p, `location.hash`); h != "#resources/test%3A%2F%2Fdocs%2Freadme.txt" {
		t.Errorf("hash %q", h)
	}
	if got := p.text(card + " .entry-meta"); got != "URItest://docs/readme.txtMIME typetext/plain" {
		t.Errorf("meta %q", got)
	}
	if n := f.count("GET /resources/read"); n != 0 {
		t.Errorf("read before the click (%d)", n)
	}
	p.press(card)
	if got := p.text(card + " .result-view .result-text"); got != "{\"kept\": \"as written\"}\nHello <b>world</b> & friends." {
		t.Errorf("text %q", got)
	}
	if got := p.text(card + " .result-view .content-label"); got != "test://docs/readme.txt (text/plain)" {
		t.Errorf("label %q", got)
	}
	// JSON, pretty, the id exact.
	card = resource("test://config.json")
	p.openEntry(card)
	p.press(card)
	if got := p.text(card + " .result-view .result-text"); got != "{\n  \"name\": \"demo\",\n  \"id\": 12345678901234567890,\n  \"tags\": [\n    \"a\",\n    \"b\"\n  ]\n}" {
		t.Errorf("JSON %q", got)
	}
	// An image.
	card = resource("test://logo.png")
	p.openEntry(card)
	p.press(card)
	p.waitImage(card + " .result-view img.result-image")
	if w := evalJS[int](p, fmt.Sprintf(`document.querySelector(%s).naturalWidth`, js(card+" .result-view img"))); w != 12 {
		t.Errorf("image naturalWidth %d", w)
	}
	if got := p.text(card + " .blob-note"); got != fmt.Sprintf("Image, %d bytes", len(testPNG())) {
		t.Errorf("image note %q", got)
	}
	// Other bytes: their size, and a download of exactly them.
	card = resource("test://files/data.bin")
	p.openEntry(card)
	p.press(card)
	if got := p.text(card + " .blob-note"); got != "Binary content, application/octet-stream, 1.5 KB (1500 bytes)Download" {
		t.Errorf("blob note %q", got)
	}
	if name, b := p.download(card + " .download-btn"); name != "data.bin" || !bytes.Equal(b, testBlob) {
		t.Errorf("downloaded %q, %d bytes (equal: %v)", name, len(b), bytes.Equal(b, testBlob))
	}
	// A read that fails.
	card = resource("test://broken")
	p.openEntry(card)
	p.press(card)
	if got := p.text(card + " .result .status"); got != "500 Error" {
		t.Errorf("status %q", got)
	}
	if got := p.text(card + " .result-view .error-box"); got != "the disk is on <i>fire</i>" {
		t.Errorf("error %q", got)
	}
}

// download clicks a download button and answers the file Chromium saved:
// its suggested name and its bytes.
func (p *tab) download(button string) (string, []byte) {
	p.t.Helper()
	dir := p.t.TempDir()
	yes := true
	if _, err := chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &yes,
		BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID,
	}); err != nil {
		p.t.Fatalf("allow downloads: %v", err)
	}
	type done struct {
		name, guid string
		state      browser.DownloadProgressState
	}
	ch := make(chan done, 4)
	var mu sync.Mutex
	names := map[string]string{}
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	err := chromedp.ListenBrowser(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *browser.EventDownloadWillBegin:
			names[ev.GUID] = ev.SuggestedFilename
		case *browser.EventDownloadProgress:
			if ev.State != browser.DownloadProgressStateInProgress {
				ch <- done{names[ev.GUID], ev.GUID, ev.State}
			}
		}
	})
	if err != nil {
		p.t.Fatalf("listen for downloads: %v", err)
	}
	p.click(button)
	select {
	case d := <-ch:
		if d.state != browser.DownloadProgressStateCompleted {
			p.t.Fatalf("download %s: %s", d.name, d.state)
		}
		b, err := os.ReadFile(filepath.Join(dir, d.guid))
		if err != nil {
			p.t.Fatal(err)
		}
		return d.name, b
	case <-p.ctx.Done():
		p.t.Fatalf("no download: %v", p.ctx.Err())
	}
	return "", nil
}

// A template's fields build its URI, which is read.
func TestBrowserResourceTemplate(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: testMCP()})
	p := openTab(t, f.url+"#resources")
	card := template("test://items/{id}")
	p.openEntry(card)
	if got := p.text(card + " .entry-meta"); got != "URI templatetest://items/{id}MIME typeapplication/json" {
		t.Errorf("meta %q", got)
	}
	if got := p.texts(card + " .form-grid label"); got != "id" {
		t.Errorf("fields %q", got)
	}
	if got := p.text(card + " .uri-preview"); got != "test://items/" {
		t.Errorf("URI before a value %q", got)
	}
	p.typeInto(card+` input[data-var="id"]`, "a b/7")
	p.waitText(card+" .uri-preview", "test://items/a%20b%2F7")
	p.press(card)
	if got := p.text(card + " .result-view .result-text"); got != "{\n  \"id\": \"a b/7\",\n  \"price\": 1.5\n}" {
		t.Errorf("JSON %q", got)
	}
	if got := p.text(card + " .result-view .content-label"); got != "test://items/a%20b%2F7 (application/json)" {
		t.Errorf("label %q", got)
	}

	// Query variables, left out when empty.
	card = template("test://search{?q,limit}")
	p.openEntry(card)
	if got := p.texts(card + " .form-grid label"); got != "q|limit" {
		t.Errorf("fields %q", got)
	}
	p.typeInto(card+` input[data-var="limit"]`, "5")
	p.waitText(card+" .uri-preview", "test://search?limit=5")
	p.typeInto(card+` input[data-var="q"]`, "sun & rain")
	p.waitText(card+" .uri-preview", "test://search?q=sun%20%26%20rain&limit=5")
	p.press(card)
	if got := p.text(card + " .result-view .result-text"); got != "q=sun & rain limit=5" {
		t.Errorf("text %q", got)
	}
}

// Every string from the prompts and resources is text on the page, never
// markup; a name that needs escaping in a URL reaches the server intact.
func TestBrowserPromptsResourcesEscaping(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: testMCP()})
	p := openTab(t, f.url)
	p.openPrompts()
	card := prompt(hostilePrompt)
	if got := p.text(card + " .tool-title"); got != `<i id="pwn-ptitle">title</i>` {
		t.Errorf("title %q", got)
	}
	p.openEntry(card)
	if got := p.text(card + " .description"); got != `<img src=x onerror="window.__pwned=7"> & friends` {
		t.Errorf("description %q", got)
	}
	if got := p.texts(card + " .form-grid label"); got != "<i>q</i>" {
		t.Errorf("label %q", got)
	}
	p.typeInto(card+" .form-grid input", `<script>window.__pwned=12</script>`)
	p.press(card)
	if got := p.text(card + " .message .result-text"); got != `<img src=x onerror="window.__pwned=9"><b>not bold</b> <script>window.__pwned=12</script>` {
		t.Errorf("message %q", got)
	}
	if got := p.text(card + " .message-role"); got != "<b>role</b>" {
		t.Errorf("role %q", got)
	}
	p.openResources()
	card = resource("test://hostile")
	if got := p.text(card + " .tool-name"); got != `<b id="pwn-res">res</b>` {
		t.Errorf("name %q", got)
	}
	p.openEntry(card)
	p.press(card)
	if got := p.text(card + " .result-view .result-text"); got != `<img src=x onerror="window.__pwned=11"><b>not bold</b>` {
		t.Errorf("text %q", got)
	}
	if n := evalJS[int](p, `document.querySelectorAll('#pwn-prompt, #pwn-ptitle, #pwn-res, main b, main i, main img, main script').length`); n != 0 {
		t.Errorf("%d elements were created from the server's strings", n)
	}
	if pwned := evalJS[bool](p, `window.__pwned !== undefined`); pwned {
		t.Errorf("injected script ran: __pwned = %v", evalJS[any](p, `window.__pwned`))
	}
}

// Without prompts or resources their tabs are not shown, nor is the bar
// when there is nothing beside the tools; links to them show the tools.
func TestBrowserPromptsResourcesHidden(t *testing.T) {
	t.Run("none", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{})
		p := openTab(t, f.url+"#prompts")
		p.waitListed()
		if got := p.tabs(); got != "Tools:true,History:false,Approvals:false" {
			t.Errorf("tabs %q", got)
		}
		if !evalJS[bool](p, visible("#tool-list")) || evalJS[bool](p, visible("#prompts-view")) {
			t.Errorf("#prompts without prompts does not show the tools")
		}
		// A link to the resources, from the history, shows the tools.
		evalJS[chromedp.Void](p, `location.hash = '#history'`)
		p.waitVisible("#history-view")
		evalJS[chromedp.Void](p, `location.hash = '#resources'`)
		p.waitVisible("#tool-list")
		if evalJS[bool](p, visible("#resources-view")) || evalJS[bool](p, visible("#history-view")) {
			t.Errorf("another view than the tools at #resources")
		}
	})
	t.Run("prompts only", func(t *testing.T) {
		mcp := testMCP()
		mcp.Resources, mcp.ResourceTemplates = nil, nil
		f := newFixture(t, fixtureOptions{opts: mcp})
		p := openTab(t, f.url+"#resources")
		p.waitListed()
		if got := p.tabs(); got != "Tools:true,Prompts:false,History:false,Approvals:false" {
			t.Errorf("tabs %q", got)
		}
		if !evalJS[bool](p, visible("#tool-list")) {
			t.Errorf("#resources without resources does not show the tools")
		}
	})
	t.Run("templates only, no /v1", func(t *testing.T) {
		mcp := testMCP()
		mcp.Prompts, mcp.Resources = nil, nil
		f := newFixture(t, fixtureOptions{opts: mcp, surfaces: serve.Options{V1: qmcp.Options{Disable: true}}})
		p := openTab(t, f.url)
		p.waitListed()
		if got := p.tabs(); got != "Tools:true,Resources:false" {
			t.Errorf("tabs %q", got)
		}
		p.openResources()
		if evalJS[bool](p, visible("#resource-list")) || evalJS[bool](p, visible("#resources-heading")) {
			t.Errorf("an empty list of resources is shown")
		}
		if got := p.text("#resource-count"); got != "2 templates" {
			t.Errorf("count %q", got)
		}
	})
	t.Run("no /v1, no prompts or resources", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{surfaces: serve.Options{V1: qmcp.Options{Disable: true}}})
		p := openTab(t, f.url)
		p.waitListed()
		if evalJS[bool](p, visible("#views")) {
			t.Errorf("a tab bar with only the tools")
		}
		if got := evalJS[string](p, `document.getElementById('tools-view').getAttribute('role') + ' ' + document.getElementById('tools-view').getAttribute('aria-label')`); got != "null Tools" {
			t.Errorf("the tool list's role and label: %s", got)
		}
	})
}

// #prompts and #resources open their tabs, and #prompts/NAME and
// #resources/URI what is in them; the arrow keys go through every tab.
func TestBrowserPromptsResourcesLinks(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: testMCP()})
	p := openTab(t, f.url+"#prompts")
	p.waitVisible("#prompt-list li.prompt")
	if got := p.tabs(); got != "Tools:false,Prompts:true,Resources:false,History:false,Approvals:false" {
		t.Errorf("tabs at #prompts: %q", got)
	}
	if evalJS[bool](p, visible("#tool-list")) {
		t.Errorf("the tools are shown at #prompts")
	}
	p.navigate(f.url + "#prompts/explain")
	p.waitVisible(prompt("explain") + " .run-btn")
	p.navigate(f.url + "#resources/test%3A%2F%2Fitems%2F%7Bid%7D")
	p.waitVisible(template("test://items/{id}") + " .uri-preview")
	if got := p.tabs(); got != "Tools:false,Prompts:false,Resources:true,History:false,Approvals:false" {
		t.Errorf("tabs at a template's link: %q", got)
	}

	// The arrow keys go through the tabs, and round.
	keys := []struct{ key, view string }{
		{kb.ArrowRight, "history"}, {kb.ArrowRight, "approvals"}, {kb.ArrowRight, "tools"}, {kb.ArrowRight, "prompts"},
		{kb.ArrowLeft, "tools"}, {kb.End, "approvals"}, {kb.Home, "tools"},
	}
	for _, k := range keys {
		from := evalJS[string](p, `document.querySelector('#views [aria-selected=true]').id`)
		if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS("#"+from), k.key)); err != nil {
			t.Fatal(err)
		}
		p.waitVisible("#" + k.view + "-view")
		if got := evalJS[string](p, `document.activeElement.id`); got != "tab-"+k.view {
			t.Errorf("focus on %q after a key from %s, want tab-%s", got, from, k.view)
		}
	}
	// Back in a view, its last opened entry is in the link again.
	p.click("#tab-resources")
	if h := evalJS[string](p, `location.hash`); h != "#resources/test%3A%2F%2Fitems%2F%7Bid%7D" {
		t.Errorf("hash %q back in the resources", h)
	}
	p.click(template("test://items/{id}") + " .tool-header") // closed
	if h := evalJS[string](p, `location.hash`); h != "#resources" {
		t.Errorf("hash %q with nothing open", h)
	}
	// Links followed within the page.
	evalJS[chromedp.Void](p, `location.hash = '#prompts/summarize'`)
	p.waitVisible(prompt("summarize") + " .run-btn")
	evalJS[chromedp.Void](p, `location.hash = '#render_chart'`)
	p.waitVisible(tool("render_chart") + " .try-it")
	evalJS[chromedp.Void](p, `location.hash = '#resources'`)
	p.waitVisible("#resource-list")
}

// Mounted under a prefix, the tabs ask under the prefix.
func TestBrowserPromptsResourcesUnderPrefix(t *testing.T) {
	f := newFixture(t, fixtureOptions{prefix: "/explorer", opts: testMCP()})
	p := openTab(t, f.url)
	p.openPrompts()
	p.openEntry(prompt(hostilePrompt))
	p.press(prompt(hostilePrompt))
	if got := p.text(prompt(hostilePrompt) + " .result .status"); got != "200 OK" {
		t.Errorf("status %q", got)
	}
	p.openResources()
	p.openEntry(template("test://items/{id}"))
	p.typeInto(template("test://items/{id}")+" input", "9")
	p.press(template("test://items/{id}"))
	if got := p.text(template("test://items/{id}") + " .result .status"); got != "200 OK" {
		t.Errorf("status %q", got)
	}
	for _, want := range []string{"GET /explorer/prompts", "GET /explorer/resources", "POST /explorer/prompts/" + hostilePrompt + "/get", "GET /explorer/resources/read"} {
		if f.count(want) != 1 {
			t.Errorf("%d of %s in %q", f.count(want), want, f.requests())
		}
	}
}

// The header links to the OpenAPI document beside the OXP listing, where
// the server serves it, under a prefix too; not when it is off.
func TestBrowserOpenAPILink(t *testing.T) {
	// check opens the page at page (under the fixture's URL) and follows
	// the OpenAPI link, which must be path.
	check := func(t *testing.T, fo fixtureOptions, page, path string) {
		f := newFixture(t, fo)
		p := openTab(t, f.url+page)
		p.waitFor(`document.querySelector('.protocol-links').dataset.openapi`, "the OpenAPI link")
		want := "OXP|OpenAPI"
		if fo.surfaces.OXP.Disable {
			want = "OpenAPI"
		}
		if got := p.texts(".protocol-links a"); got != want {
			t.Errorf("links %q, want %q", got, want)
		}
		if href := evalJS[string](p, `document.querySelector('.protocol-links a[data-protocol="openapi"]').href`); href != f.srv.URL+path {
			t.Errorf("OpenAPI link %q, want %q", href, f.srv.URL+path)
		}
		doc := evalJS[string](p, `fetch(document.querySelector('.protocol-links a[data-protocol="openapi"]').href).then(function (r) { return r.json(); }).then(function (j) { return j.openapi + ' ' + Object.keys(j.paths).length; })`, chromedp.EvalAwaitPromise)
		if !strings.HasPrefix(doc, "3.1") || strings.HasSuffix(doc, " 0") {
			t.Errorf("the OpenAPI document the link leads to: %q", doc)
		}
	}
	t.Run("root", func(t *testing.T) { check(t, fixtureOptions{}, "", "/openapi.json") })
	t.Run("mounted under a prefix", func(t *testing.T) { check(t, fixtureOptions{prefix: "/explorer"}, "", "/explorer/openapi.json") })
	t.Run("explorer moved", func(t *testing.T) {
		check(t, fixtureOptions{surfaces: serve.Options{Explorer: explorer.Options{Prefix: "/ui"}}, prefix: "/x"}, "ui/", "/x/openapi.json")
	})
	t.Run("no OXP", func(t *testing.T) {
		check(t, fixtureOptions{surfaces: serve.Options{Explorer: explorer.Options{Prefix: "/ui"}, OXP: oxp.Options{Disable: true}}}, "ui/", "/openapi.json")
	})
	t.Run("off", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{surfaces: serve.Options{OpenAPI: ops.EndpointOptions{Disable: true}}})
		p := openTab(t, f.url)
		p.waitFor(`document.querySelector('.protocol-links').dataset.openapi`, "the OpenAPI probe")
		if got := p.texts(".protocol-links a"); got != "OXP" {
			t.Errorf("links %q with the document off", got)
		}
	})
}
