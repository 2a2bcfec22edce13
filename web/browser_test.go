package web_test

// Browser tests of the Tool Explorer page: a real Chromium, headless, drives
// the page that runtime.NewServer serves. They need Chromium ($CHROME, else
// /usr/bin/chromium); without it they skip, unless the CI environment
// variable is set, in which case they fail.
//
// Every wait is on a condition in the page (chromedp.Poll), never a sleep.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/explorer"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

const (
	testToken = "s3cret-token-42"
	// testTimeout bounds each test's time in the browser.
	testTimeout = 60 * time.Second
	// waitTimeout bounds one wait for a condition in the page.
	waitTimeout = 20 * time.Second
)

// ---------- the browser, shared by the tests ----------

var shared struct {
	once   sync.Once
	ctx    context.Context // the browser; each test opens its own tab in its own browser context
	cancel []context.CancelFunc
	dir    string
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(shared.cancel) - 1; i >= 0; i-- {
		shared.cancel[i]()
	}
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

func chromePath() string {
	if p := os.Getenv("CHROME"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// browserContext starts Chromium once for the package. Without Chromium the
// test skips, or fails when $CI is set: CI must run these tests for real.
// -short skips them, for a quick loop.
func browserContext(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Chromium: run without -short (CI does)")
	}
	path := chromePath()
	if _, err := exec.LookPath(path); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("Chromium not found (%v); install it (apt-get install chromium) or set $CHROME. With $CI set this is a failure.", err)
		}
		t.Fatalf("Chromium not found and $CI is set: %v", err)
	}
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "toolgen-chromium-")
		if shared.err != nil {
			return
		}
		alloc, cancel := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(path),
			chromedp.Flag("headless", true),
			chromedp.Flag("no-sandbox", true),
			chromedp.Flag("disable-gpu", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("no-first-run", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("hide-scrollbars", true),
			chromedp.UserDataDir(shared.dir),
			chromedp.WindowSize(1280, 900),
		)
		shared.cancel = append(shared.cancel, cancel)
		ctx, cancel := chromedp.NewContext(alloc)
		shared.cancel = append(shared.cancel, cancel)
		// The first Do starts the browser and ties it to ctx, which has no
		// deadline; a watchdog bounds the start instead.
		done := make(chan struct{})
		go func() {
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				cancel()
			}
		}()
		shared.err = chromedp.Do(ctx)
		close(done)
		shared.ctx = ctx
	})
	if shared.err != nil {
		t.Fatalf("start Chromium %s: %v", path, shared.err)
	}
	return shared.ctx
}

// ---------- the server under test ----------

// fixture is a runtime.Server over httptest, recording the requests it gets.
type fixture struct {
	srv     *httptest.Server
	url     string // the page
	mu      sync.Mutex
	reqs    []string      // "METHOD /path" in arrival order
	auth    []string      // the Authorization header of each tool call
	release chan struct{} // slow_echo returns once this is closed
	started chan struct{} // slow_echo has started (and its call is pending in the history)
}

func (f *fixture) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reqs...)
}

func (f *fixture) count(req string) int {
	n := 0
	for _, r := range f.requests() {
		if r == req {
			n++
		}
	}
	return n
}

func (f *fixture) authHeaders() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.auth...)
}

type fixtureOptions struct {
	opts     runtime.Options
	surfaces serve.Options                   // the surfaces' own options
	extra    runtime.ToolList                // tools served besides testTools
	prefix   string                          // mount the server under this path with http.StripPrefix
	wrap     func(http.Handler) http.Handler // middleware in front of the server
}

func newFixture(t *testing.T, fo fixtureOptions) *fixture {
	t.Helper()
	f := &fixture{release: make(chan struct{}), started: make(chan struct{}, 16)}
	opts := fo.opts
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	h := serve.NewHandler(runtime.NewServer(append(testTools(f), fo.extra...), &opts), &fo.surfaces)
	if fo.wrap != nil {
		h = fo.wrap(h)
	}
	if fo.prefix != "" {
		mux := http.NewServeMux()
		mux.Handle(fo.prefix+"/", http.StripPrefix(fo.prefix, h))
		h = mux
	}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.reqs = append(f.reqs, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		f.mu.Lock()
		select {
		case <-f.release:
		default:
			close(f.release)
		}
		f.mu.Unlock()
		f.srv.Close()
	})
	f.url = f.srv.URL + fo.prefix + "/"
	return f
}

// post sends a request to the fixture's server from the test, as another
// client of the server would: method POST, a JSON body, the headers given
// as name, value pairs. It answers the status and the body.
func (f *fixture) post(t *testing.T, path, body string, header ...string) (int, string) {
	t.Helper()
	return send(t, http.MethodPost, f.srv.URL+path, body, header...)
}

func send(t *testing.T, method, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// callV1 calls a tool through the /v1 surface and answers the invocation's
// id.
func callV1(t *testing.T, base, name, input string, header ...string) string {
	t.Helper()
	code, body := send(t, http.MethodPost, base+"/v1/tools/"+name, `{"input":`+input+`}`, header...)
	var resp struct {
		InvocationID string `json:"invocation_id"`
	}
	if err := json.Unmarshal([]byte(body), &resp); code != http.StatusOK || err != nil || resp.InvocationID == "" {
		t.Fatalf("POST /v1/tools/%s: %d %s", name, code, body)
	}
	return resp.InvocationID
}

// callMCP calls a tool through the MCP surface, with a client of its own.
func callMCP(t *testing.T, base, name string, args map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "browser-test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("MCP connect: %v", err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args}); err != nil {
		t.Fatalf("MCP call %s: %v", name, err)
	}
}

func (f *fixture) releaseSlow() {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.release)
}

// weatherSchema is a flat object schema: the console offers a form for it.
const weatherSchema = `{
  "type": "object",
  "properties": {
    "city": {"type": "string", "minLength": 1, "description": "City name, for example \"Paris\"."},
    "units": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius", "description": "Temperature scale."},
    "days": {"type": "integer", "minimum": 1, "maximum": 14, "default": 1, "description": "Days of forecast."},
    "detailed": {"type": "boolean", "description": "Include hourly data."}
  },
  "required": ["city", "units"],
  "additionalProperties": false
}`

// weatherOutput nests objects and arrays the ways Go types come out of the
// generator: a slice of structs is an array or null, a pointer to a struct
// an object or null (here through a $ref).
const weatherOutput = `{
  "type": "object",
  "properties": {
    "city": {"type": "string"},
    "high": {"type": "number", "description": "Highest temperature."},
    "forecast": {"type": ["array", "null"], "description": "One entry a day.", "items": {"type": "object", "properties": {
      "date": {"type": "string", "description": "Date in YYYY-MM-DD form."},
      "high": {"type": "number"}}}},
    "station": {"anyOf": [{"$ref": "#/$defs/Station"}, {"type": "null"}]}
  },
  "$defs": {"Station": {"type": "object", "properties": {
    "id": {"type": "string"},
    "location": {"type": ["object", "null"], "properties": {"lat": {"type": "number"}}}}}}
}`

func testTools(f *fixture) runtime.ToolList {
	text := func(s string) runtime.Handler {
		return func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult(s), nil }
	}
	return runtime.ToolList{
		{
			Name:         "get_weather",
			Title:        "Get weather",
			Description:  "Look up the current weather and a forecast for a city.\nThe data is made up.",
			Annotations:  &runtime.Annotations{ReadOnlyHint: runtime.Bool(true), IdempotentHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(false)},
			InputSchema:  json.RawMessage(weatherSchema),
			OutputSchema: json.RawMessage(weatherOutput),
			Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				if r, ok := runtime.RequestFromContext(ctx); ok {
					f.mu.Lock()
					f.auth = append(f.auth, r.Header.Get("Authorization"))
					f.mu.Unlock()
				}
				var in struct {
					City, Units string
					Days        int
				}
				if err := runtime.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				// The id is larger than a double holds exactly: the page must
				// show it as sent.
				return runtime.TextResult(fmt.Sprintf(`{"city":%q,"units":%q,"days":%d,"high":21.5,"id":12345678901234567890}`, in.City, in.Units, in.Days)), nil
			},
		},
		{
			Name:        "delete_record",
			Description: "Delete a record by its ID. This cannot be undone.",
			Annotations: &runtime.Annotations{DestructiveHint: runtime.Bool(true), OpenWorldHint: runtime.Bool(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"Record ID."}},"required":["id"]}`),
			Handler:     text("deleted"),
		},
		{
			Name:        "render_chart",
			Description: "Draw a small chart as a PNG image.",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return runtime.ContentResult(runtime.Text("Here is the chart."), runtime.Image(testPNG(), "image/png")), nil
			},
		},
		{
			Name:        "always_fails",
			Description: "A tool that always reports an error.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return runtime.ErrorResult("The upstream service is unavailable."), nil
			},
		},
		{
			Name:        "inject_html",
			Title:       `<b id="pwn-title">bold</b>`,
			Description: `Shows <img src=x onerror="window.__pwned=1"> & <script>window.__pwned=2</script> literally.`,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"<img src=x onerror=\"window.__pwned=4\">","enum":["<b>a</b>","<i>b</i>"]}}}`),
			Handler:     text(`<img src=x onerror="window.__pwned=3"><b>not bold</b>`),
		},
		{
			Name:        "slow_echo",
			Description: "Echo the arguments back, once the test lets it.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`),
			Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				select {
				case f.started <- struct{}{}:
				default:
				}
				select {
				case <-f.release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				return runtime.TextResult(string(args)), nil
			},
		},
		{
			Name:        "create_order",
			Description: "Create an order with line items.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"customer":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},"items":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"}}}}},"required":["customer","items"]}`),
			Handler:     text("ordered"),
		},
	}
}

func testPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 12, 8))
	for x := range 12 {
		for y := range 8 {
			img.Set(x, y, color.RGBA{R: uint8(20 * x), G: 120, B: uint8(30 * y), A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ---------- a tab on the page ----------

// instrument runs in the page before its own scripts: it records uncaught
// errors, CSP violations and every fetch the page makes.
const instrument = `
window.__errors = [];
window.__fetches = [];
addEventListener('error', function (e) { __errors.push('error: ' + e.message); });
addEventListener('unhandledrejection', function (e) { __errors.push('unhandled rejection: ' + e.reason); });
document.addEventListener('securitypolicyviolation', function (e) {
  __errors.push('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample);
});
(function () {
  var orig = window.fetch;
  window.fetch = function (url, opts) {
    __fetches.push(((opts && opts.method) || 'GET') + ' ' + new URL(url, location.href).pathname);
    return orig.apply(this, arguments);
  };
})();
`

type tab struct {
	t   *testing.T
	ctx context.Context
}

// openTab opens the page at url in a fresh browser context (its own
// localStorage and cookies) and waits until the tool list has loaded.
func openTab(t *testing.T, url string) *tab {
	t.Helper()
	bctx := browserContext(t)
	tctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(tctx); err != nil { // opens the tab, with no deadline
		t.Fatalf("open tab: %v", err)
	}
	ctx, cancelTimeout := context.WithTimeout(tctx, testTimeout)
	t.Cleanup(cancelTimeout)
	p := &tab{t: t, ctx: ctx}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: instrument}); err != nil {
		t.Fatalf("instrument: %v", err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}},
	}); err != nil {
		t.Fatalf("emulate light scheme: %v", err)
	}
	p.navigate(url)
	// Runs before the tab closes (cleanups run last-in first-out).
	t.Cleanup(p.checkNoErrors)
	return p
}

func (p *tab) navigate(url string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(url)); err != nil {
		p.t.Fatalf("navigate %s: %v", url, err)
	}
	p.waitLoaded()
}

func (p *tab) reload() {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		p.t.Fatalf("reload: %v", err)
	}
	p.waitLoaded()
}

func (p *tab) waitLoaded() {
	p.t.Helper()
	p.waitFor(`document.readyState === 'complete' && document.getElementById('tool-count') &&
		(document.getElementById('tool-count').textContent !== '' || !document.getElementById('notice').hidden)`, "the tool list")
}

func (p *tab) checkNoErrors() {
	if p.t.Skipped() {
		return
	}
	errs, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]string](`window.__errors || []`))
	if err != nil {
		p.t.Errorf("read page errors: %v", err)
		return
	}
	for _, e := range errs {
		p.t.Errorf("page reported %s", e)
	}
}

// waitFor waits until the JavaScript expression is truthy.
func (p *tab) waitFor(expr, what string) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(waitTimeout)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v\n--- page text ---\n%s", what, err, p.pageText())
	}
}

func (p *tab) pageText() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
	if err != nil {
		return "(unavailable: " + err.Error() + ")"
	}
	return s
}

func evalJS[T any](p *tab, expr string, opts ...chromedp.EvaluateOption) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// visible is an expression true when sel matches a rendered element.
func visible(sel string) string {
	return fmt.Sprintf(`(function () { var e = document.querySelector(%s); return !!(e && e.getClientRects().length); })()`, js(sel))
}

func (p *tab) waitVisible(sel string) {
	p.t.Helper()
	p.waitFor(visible(sel), sel+" to be visible")
}

func (p *tab) text(sel string) string {
	p.t.Helper()
	return evalJS[string](p, fmt.Sprintf(`(function () { var e = document.querySelector(%s); return e ? e.textContent : '<no element>'; })()`, js(sel)))
}

func (p *tab) waitText(sel, want string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`(function () { var e = document.querySelector(%s); return !!e && e.textContent === %s; })()`, js(sel), js(want)),
		fmt.Sprintf("%s to read %q", sel, want))
}

func (p *tab) waitTextContains(sel, want string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`(function () { var e = document.querySelector(%s); return !!e && e.textContent.indexOf(%s) >= 0; })()`, js(sel), js(want)),
		fmt.Sprintf("%s to contain %q", sel, want))
}

func (p *tab) click(sel string) {
	p.t.Helper()
	p.waitVisible(sel)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("click %s: %v", sel, err)
	}
}

// typeInto empties a text field and types text into it, key by key.
func (p *tab) typeInto(sel, text string) {
	p.t.Helper()
	p.waitVisible(sel)
	evalJS[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%s).value = ''`, js(sel)))
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS(sel), text)); err != nil {
		p.t.Fatalf("type into %s: %v", sel, err)
	}
}

// choose selects the option with the given visible text, as a user would.
func (p *tab) choose(sel, option string) {
	p.t.Helper()
	p.waitVisible(sel)
	ok := evalJS[bool](p, fmt.Sprintf(`(function () {
		var s = document.querySelector(%s);
		for (var i = 0; i < s.options.length; i++) {
			if (s.options[i].text === %s) {
				s.selectedIndex = i;
				s.dispatchEvent(new Event('input', { bubbles: true }));
				s.dispatchEvent(new Event('change', { bubbles: true }));
				return true;
			}
		}
		return false;
	})()`, js(sel), js(option)))
	if !ok {
		p.t.Fatalf("%s has no option %q", sel, option)
	}
}

// tool is the selector of a tool's card.
func tool(name string) string { return fmt.Sprintf(`li.tool[data-tool=%s]`, js(name)) }

// expand opens a tool's card and waits for its detail.
func (p *tab) expand(name string) {
	p.t.Helper()
	p.click(tool(name) + " .tool-header")
	p.waitVisible(tool(name) + " .try-it")
}

func (p *tab) setToken(token string) {
	p.t.Helper()
	p.typeInto("#token-input", token)
}

// run clicks a tool's Run button and waits for the result.
func (p *tab) run(name string) {
	p.t.Helper()
	p.click(tool(name) + " .run-btn")
	p.waitVisible(tool(name) + " .result")
}

// useJSON switches a console to the JSON editor.
func (p *tab) useJSON(name string) {
	p.t.Helper()
	if evalJS[bool](p, visible(tool(name)+` .segmented`)) {
		p.click(tool(name) + ` .segmented button[data-mode="json"]`)
	}
	p.waitVisible(tool(name) + " textarea.editor")
}

// colour is a computed CSS colour of the first match of sel.
func (p *tab) colour(sel, property string) rgb {
	p.t.Helper()
	s := evalJS[string](p, fmt.Sprintf(`getComputedStyle(document.querySelector(%s))[%s]`, js(sel), js(property)))
	m := regexp.MustCompile(`rgba?\((\d+), (\d+), (\d+)`).FindStringSubmatch(s)
	if m == nil {
		p.t.Fatalf("%s %s = %q, not a colour", sel, property, s)
	}
	var c rgb
	for i := range c {
		c[i], _ = strconv.Atoi(m[i+1])
	}
	return c
}

type rgb [3]int

// hue names the dominant channel of a clearly coloured colour.
func (c rgb) hue() string {
	r, g, b := c[0], c[1], c[2]
	switch {
	case r > g+40 && r > b+40:
		return "red"
	case g > r+40 && g > b+20:
		return "green"
	case b > r+40 && b > g+20:
		return "blue"
	}
	return "neutral"
}

func (c rgb) luminance() int { return (299*c[0] + 587*c[1] + 114*c[2]) / 1000 }

// ---------- the tests ----------

func TestBrowserListRenders(t *testing.T) {
	f := newFixture(t, fixtureOptions{surfaces: serve.Options{Explorer: explorer.Options{ProjectName: "toolgen", ProjectURL: "https://example.com/toolgen"}}})
	p := openTab(t, f.url)

	names := evalJS[[]string](p, `Array.from(document.querySelectorAll('#tool-list .tool-name')).map(function (e) { return e.textContent; })`)
	want := []string{"get_weather", "delete_record", "render_chart", "always_fails", "inject_html", "slow_echo", "create_order"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("tools listed: %q, want %q", names, want)
	}
	if got := p.text("#tool-count"); got != "7 tools" {
		t.Errorf("tool count reads %q", got)
	}
	if got := evalJS[string](p, `document.title`); got != runtime.DefaultTitle {
		t.Errorf("title %q, want %q", got, runtime.DefaultTitle)
	}
	if got := p.text(tool("get_weather") + " .tool-summary"); got != "Look up the current weather and a forecast for a city." {
		t.Errorf("summary %q: want the description's first line", got)
	}
	if href := evalJS[string](p, `document.querySelector('.project-link a').href`); href != "https://example.com/toolgen" {
		t.Errorf("project link %q", href)
	}
	// The header links to the OXP listing, which answers.
	oxp := evalJS[string](p, `document.querySelector('.protocol-links a').href`)
	if oxp != f.srv.URL+"/oxp/tools" {
		t.Errorf("OXP link %q", oxp)
	}
	if got := evalJS[string](p, `fetch(document.querySelector('.protocol-links a').href).then(function (r) { return r.json(); }).then(function (j) { return j["$schema"] + " " + j.items.length; })`, chromedp.EvalAwaitPromise); got != "urn:oxp:1.0 7" {
		t.Errorf("the OXP listing the link leads to: %q", got)
	}

	// Badges: read-only green, destructive red, idempotent blue, "closed
	// world" only when openWorldHint is false.
	badges := func(name string) string {
		return strings.Join(evalJS[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (e) { return e.textContent; })`, js(tool(name)+" .badge"))), ",")
	}
	if got := badges("get_weather"); got != "read-only,idempotent,closed world" {
		t.Errorf("get_weather badges: %s", got)
	}
	if got := badges("delete_record"); got != "destructive" {
		t.Errorf("delete_record badges: %s (open world must not say closed world)", got)
	}
	if got := badges("render_chart"); got != "" {
		t.Errorf("render_chart badges: %s", got)
	}
	for sel, hue := range map[string]string{
		tool("get_weather") + " .badge-readonly":      "green",
		tool("delete_record") + " .badge-destructive": "red",
		tool("get_weather") + " .badge-idempotent":    "blue",
	} {
		if got := p.colour(sel, "color").hue(); got != hue {
			t.Errorf("%s is %s, want %s", sel, got, hue)
		}
	}
	// Nothing is fetched before a tool is opened but the list.
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "GET /tools/") {
			t.Errorf("detail loaded before any click: %s", r)
		}
	}
}

func TestBrowserListError(t *testing.T) {
	f := newFixture(t, fixtureOptions{wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/tools" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"error":"Failed to list <tools>."}`))
				return
			}
			h.ServeHTTP(w, r)
		})
	}})
	p := openTab(t, f.url)
	if got := p.text("#notice"); got != "Could not load the tools: Failed to list <tools>." {
		t.Errorf("notice %q", got)
	}
	if evalJS[bool](p, visible("#empty")) {
		t.Errorf("the loading message is still shown")
	}
}

func TestBrowserSearchFilters(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	p := openTab(t, f.url)
	shown := func() string {
		return strings.Join(evalJS[[]string](p, `Array.from(document.querySelectorAll('#tool-list > li')).filter(function (li) { return !li.hidden; }).map(function (li) { return li.dataset.tool; })`), ",")
	}
	p.typeInto("#search", "weather")
	p.waitText("#tool-count", "1 of 7 tools")
	if got := shown(); got != "get_weather" {
		t.Errorf("search weather shows %s", got)
	}
	// Several words must all match, in the name or the description.
	p.typeInto("#search", "PNG chart")
	p.waitText("#tool-count", "1 of 7 tools")
	if got := shown(); got != "render_chart" {
		t.Errorf("search 'PNG chart' shows %s", got)
	}
	p.typeInto("#search", "zzz-nothing")
	p.waitText("#tool-count", "0 of 7 tools")
	p.waitVisible("#empty")
	if got := p.text("#empty"); !strings.Contains(got, "zzz-nothing") {
		t.Errorf("empty message %q", got)
	}
	p.typeInto("#search", "")
	evalJS[chromedp.Void](p, `document.getElementById('search').dispatchEvent(new Event('input'))`)
	p.waitText("#tool-count", "7 tools")
}

func TestBrowserExpandLoadsDetailLazily(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	if n := f.count("GET /tools/get_weather"); n != 0 {
		t.Fatalf("detail requested %d times before the click", n)
	}
	p.expand("get_weather")
	if n := f.count("GET /tools/get_weather"); n != 1 {
		t.Errorf("detail requested %d times after one expand, want 1", n)
	}
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "GET /tools/") && r != "GET /tools/get_weather" {
			t.Errorf("another tool's detail was loaded: %s", r)
		}
	}

	// The version the tool serves, where the tool is opened.
	card := tool("get_weather")
	if got := p.text(card + " .tool-version"); got != "Version 1.0.0" {
		t.Errorf("the opened tool's version: %q, want Version 1.0.0", got)
	}

	// The arguments table.
	heads := evalJS[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (e) { return e.textContent; })`, js(card+" .input-schema table.args th")))
	if got := strings.Join(heads, ","); got != "Name,Type,Required,Default,Description" {
		t.Errorf("table headings: %s", got)
	}
	rows := evalJS[[][]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (tr) {
		return Array.from(tr.cells).map(function (td) { return td.textContent; });
	})`, js(card+" .input-schema table.args tbody tr")))
	wantRows := [][]string{
		{"city", "string", "required", "—", `City name, for example "Paris".min length 1`},
		{"units", "string", "required", `"celsius"`, `Temperature scale.One of:"celsius""fahrenheit"`},
		{"days", "integer", "optional", "1", "Days of forecast.≥ 1≤ 14"},
		{"detailed", "boolean", "optional", "—", "Include hourly data."},
	}
	if fmt.Sprint(rows) != fmt.Sprint(wantRows) {
		t.Errorf("argument rows:\n got %q\nwant %q", rows, wantRows)
	}
	enum := evalJS[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (e) { return e.textContent; })`, js(card+` tr[data-arg="units"] code.chip`)))
	if strings.Join(enum, ",") != `"celsius","fahrenheit"` {
		t.Errorf("enum values %q", enum)
	}

	// The raw schema, one click away.
	raw := card + " .input-schema pre.raw-schema"
	if evalJS[bool](p, visible(raw)) {
		t.Errorf("raw schema shown before the click")
	}
	p.click(card + " .input-schema .raw-toggle")
	p.waitVisible(raw)
	var got, want any
	if err := json.Unmarshal([]byte(p.text(raw)), &got); err != nil {
		t.Fatalf("raw schema is not JSON: %v", err)
	}
	_ = json.Unmarshal([]byte(weatherSchema), &want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("raw schema %v, want %v", got, want)
	}
	p.waitText(card+" .input-schema .raw-toggle", "Hide raw schema")

	// The output schema likewise.
	p.waitVisible(card + " .output-schema table.args")
	if got := p.text(card + ` .output-schema tr[data-arg="high"]`); !strings.Contains(got, "number") || !strings.Contains(got, "Highest temperature.") {
		t.Errorf("output schema row: %q", got)
	}
	p.click(card + " .output-schema .raw-toggle")
	p.waitVisible(card + " .output-schema pre.raw-schema")

	// The console's JSON holds only the required keys, each its default or null.
	p.useJSON("get_weather")
	if v := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).value`, js(card+" textarea.editor"))); v != "{\n  \"city\": null,\n  \"units\": \"celsius\"\n}" {
		t.Errorf("prefilled arguments:\n%s", v)
	}

	// Collapsing and opening again does not load the detail again.
	p.click(card + " .tool-header")
	p.waitFor(fmt.Sprintf(`!%s`, visible(card+" .tool-body")), "the card to collapse")
	p.click(card + " .tool-header")
	p.waitVisible(card + " .try-it")
	if n := f.count("GET /tools/get_weather"); n != 1 {
		t.Errorf("detail requested %d times after reopening, want 1", n)
	}
	// A tool without an output schema has no output section.
	p.expand("delete_record")
	if evalJS[bool](p, visible(tool("delete_record")+" .output-schema")) {
		t.Errorf("delete_record shows an output schema")
	}
}

// The output table expands nested objects and arrays of objects as the
// input table does.
func TestBrowserOutputTableNested(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	p := openTab(t, f.url)
	p.expand("get_weather")
	card := tool("get_weather")
	p.waitVisible(card + " .output-schema table.args")
	rows := evalJS[[][]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (tr) {
		return [tr.dataset.arg, tr.cells[0].textContent, tr.cells[1].textContent, tr.cells[tr.cells.length - 1].textContent];
	})`, js(card+" .output-schema table.args tbody tr")))
	want := [][]string{
		{"city", "city", "string", "—"},
		{"high", "high", "number", "Highest temperature."},
		{"forecast", "forecast", "object[] | null", "One entry a day."},
		{"forecast[].date", "forecast[].date", "string", "Date in YYYY-MM-DD form."},
		{"forecast[].high", "forecast[].high", "number", "—"},
		{"station", "station", "object | null", "—"},
		{"station.id", "station.id", "string", "—"},
		{"station.location", "station.location", "object | null", "—"},
		{"station.location.lat", "station.location.lat", "number", "—"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("output rows:\n got %q\nwant %q", rows, want)
	}
	// The path is muted, the name in bold, as in the input table.
	if got := p.text(card + ` .output-schema tr[data-arg="forecast[].date"] .arg-path`); got != "forecast[]." {
		t.Errorf("path prefix %q", got)
	}
	// The input table of a tool with nested arguments, likewise.
	p.expand("create_order")
	args := evalJS[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (tr) { return tr.dataset.arg; })`,
		js(tool("create_order")+" .input-schema table.args tbody tr")))
	if got := strings.Join(args, ","); got != "customer,customer.name,items,items[].sku,items[].qty" {
		t.Errorf("input rows: %s", got)
	}
}

func TestBrowserDeepLink(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	p := openTab(t, f.url+"#delete_record")
	p.waitVisible(tool("delete_record") + " .try-it")
	if n := f.count("GET /tools/get_weather"); n != 0 {
		t.Errorf("a tool not linked was loaded")
	}
	// Opening another tool puts it in the address.
	p.expand("render_chart")
	if h := evalJS[string](p, `location.hash`); h != "#render_chart" {
		t.Errorf("hash %q after opening render_chart", h)
	}
}

// The token box shows only when the server has an auth hook, or when a
// call was answered 401 all the same (by a proxy in front of the server).
func TestBrowserAuthBar(t *testing.T) {
	t.Run("no hook", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
		p := openTab(t, f.url)
		if evalJS[bool](p, visible("#auth")) || evalJS[bool](p, visible("#token-input")) {
			t.Errorf("the auth bar is shown without an auth hook")
		}
		p.expand("delete_record")
		p.waitTextContains(tool("delete_record")+" .curl-command", "curl -X POST")
		if got := p.text(tool("delete_record") + " .curl-command"); strings.Contains(got, "Authorization") {
			t.Errorf("cURL without a token box has a token:\n%s", got)
		}
	})
	t.Run("hook", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{opts: runtime.Options{AuthHook: runtime.BearerTokens(testToken)}})
		p := openTab(t, f.url)
		p.waitVisible("#token-input")
		if got := p.text("#token-status"); got != "No token" {
			t.Errorf("token status %q", got)
		}
		if evalJS[bool](p, visible("#token-clear")) {
			t.Errorf("Clear shown without a token")
		}
	})
	t.Run("401 from a proxy", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{
			opts: runtime.Options{AllowExecute: true},
			wrap: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasSuffix(r.URL.Path, "/call") && r.Header.Get("Authorization") != "Bearer "+testToken {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusUnauthorized)
						_, _ = w.Write([]byte(`{"error":"Unauthorized"}`))
						return
					}
					h.ServeHTTP(w, r)
				})
			},
		})
		p := openTab(t, f.url)
		if evalJS[bool](p, visible("#auth")) {
			t.Fatalf("the auth bar is shown before any 401")
		}
		p.expand("render_chart")
		p.run("render_chart")
		p.waitVisible(tool("render_chart") + " .unauthorized")
		p.waitVisible("#token-input")
		p.click(tool("render_chart") + " .unauthorized button")
		p.waitFor(`document.activeElement === document.getElementById('token-input')`, "the token field to get the focus")
		p.setToken(testToken)
		p.waitText("#token-status", "Token set")
		evalJS[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%s).dataset.old = '1'`, js(tool("render_chart")+" .result")))
		p.click(tool("render_chart") + " .run-btn")
		p.waitVisible(tool("render_chart") + " .result:not([data-old])")
		if got := p.text(tool("render_chart") + " .result .status"); got != "200 OK" {
			t.Errorf("status with the token %q", got)
		}
	})
}

func TestBrowserCallWithToken(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens(testToken)}})
	p := openTab(t, f.url)
	if got := p.text("#token-status"); got != "No token" {
		t.Errorf("token status %q before a token", got)
	}
	p.setToken(testToken) // without "Bearer ": the page adds it
	p.waitText("#token-status", "Token set")

	p.expand("get_weather")
	card := tool("get_weather")
	p.useJSON("get_weather")
	p.typeInto(card+" textarea.editor", `{"city": "Oslo", "units": "celsius", "days": 2}`)
	p.waitTextContains(card+" .validation", "Arguments are valid")
	before := len(f.requests())
	p.run("get_weather")

	if got := f.authHeaders(); len(got) != 1 || got[0] != "Bearer "+testToken {
		t.Errorf("the tool saw Authorization %q, want one call with %q", got, "Bearer "+testToken)
	}
	// Validation ran before the call was sent.
	reqs := f.requests()[before:]
	if len(reqs) < 2 || reqs[len(reqs)-1] != "POST /tools/get_weather/call" || reqs[len(reqs)-2] != "POST /tools/get_weather/validate" {
		t.Errorf("requests of the run: %q, want a validation then the call", reqs)
	}

	// Result tab: the text of content[0], pretty-printed, numbers exact.
	wantText := "{\n  \"city\": \"Oslo\",\n  \"units\": \"celsius\",\n  \"days\": 2,\n  \"high\": 21.5,\n  \"id\": 12345678901234567890\n}"
	if got := p.text(card + " .result-view .result-text"); got != wantText {
		t.Errorf("result text:\n%s\nwant\n%s", got, wantText)
	}
	if got := p.text(card + " .result .status"); got != "200 OK" {
		t.Errorf("status %q", got)
	}
	if cls := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).className`, js(card+" .result"))); strings.Contains(cls, "is-error") {
		t.Errorf("a good result is marked as an error")
	}
	if got := p.text(card + " .result .elapsed"); !regexp.MustCompile(`^(\d+ ms|\d+\.\d\d s)$`).MatchString(got) {
		t.Errorf("elapsed time %q", got)
	}
	// Raw MCP tab: the whole response.
	p.click(card + ` .tabs button[data-tab="raw"]`)
	p.waitVisible(card + " .raw-view")
	if evalJS[bool](p, visible(card+" .result-view")) {
		t.Errorf("Result tab still shown beside Raw MCP")
	}
	raw := p.text(card + " .raw-view pre")
	var resp struct {
		Content []struct{ Type, Text string }
		IsError *bool
	}
	if err := json.Unmarshal([]byte(raw), &resp); err != nil || len(resp.Content) != 1 || resp.IsError == nil || *resp.IsError {
		t.Errorf("raw tab does not hold the response (%v):\n%s", err, raw)
	}
	if !strings.Contains(raw, "12345678901234567890") {
		t.Errorf("raw tab lost the exact id:\n%s", raw)
	}
	p.click(card + ` .tabs button[data-tab="result"]`)
	p.waitVisible(card + " .result-view")
}

func TestBrowserExecutingState(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.expand("slow_echo")
	card := tool("slow_echo")
	btn := card + " .run-btn"
	if got := p.text(btn); got != "Run tool" {
		t.Errorf("button reads %q", got)
	}
	// The arguments go out as typed: a number beyond a double's precision
	// stays exact.
	p.useJSON("slow_echo")
	p.typeInto(card+" textarea.editor", `{"message": "hi", "n": 12345678901234567890}`)
	p.waitTextContains(card+" .curl-command", `-d '{"message":"hi","n":12345678901234567890}'`)
	p.click(btn)
	// The handler waits for the test, so the state cannot be missed.
	p.waitFor(fmt.Sprintf(`(function () { var b = document.querySelector(%s); return b.disabled && b.textContent === 'Executing...'; })()`, js(btn)),
		"the button to be disabled and read Executing...")
	f.releaseSlow()
	p.waitVisible(card + " .result")
	p.waitFor(fmt.Sprintf(`(function () { var b = document.querySelector(%s); return !b.disabled && b.textContent === 'Run tool'; })()`, js(btn)),
		"the button to come back")
	if got := p.text(card + " .result-view .result-text"); got != "{\n  \"message\": \"hi\",\n  \"n\": 12345678901234567890\n}" {
		t.Errorf("echoed arguments:\n%s", got)
	}
}

func TestBrowserCallWithoutToken(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens(testToken)}})
	p := openTab(t, f.url)
	p.expand("delete_record")
	p.useJSON("delete_record")
	p.typeInto(tool("delete_record")+" textarea.editor", `{"id": "r-1"}`)
	p.run("delete_record")
	card := tool("delete_record")
	if got := p.text(card + " .result .status"); got != "401 Unauthorized" {
		t.Errorf("status %q", got)
	}
	msg := p.text(card + " .result-view .unauthorized")
	if !strings.Contains(msg, "Bearer token") {
		t.Errorf("401 message %q does not ask for a Bearer token", msg)
	}
	if f.count("POST /tools/delete_record/call") != 1 {
		t.Errorf("requests: %q", f.requests())
	}
	p.click(card + " .unauthorized button")
	p.waitFor(`document.activeElement === document.getElementById('token-input')`, "the token field to get the focus")

	// With a wrong token typed with its scheme, still 401, and the page does
	// not add a second "Bearer".
	p.setToken("Bearer wrong")
	p.waitText("#token-status", "Token set")
	evalJS[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%s).dataset.old = '1'`, js(card+" .result")))
	p.click(card + " .run-btn")
	p.waitVisible(card + " .result:not([data-old])")
	p.waitFor(fmt.Sprintf(`!document.querySelector(%s).disabled`, js(card+" .run-btn")), "the second call to end")
	if got := p.text(card + " .result .status"); got != "401 Unauthorized" {
		t.Errorf("status with a wrong token %q", got)
	}
	if got := p.text(card + " .curl-command"); !strings.Contains(got, "Authorization: Bearer ••••••") || strings.Contains(got, "Bearer Bearer") {
		t.Errorf("cURL with a token typed as \"Bearer wrong\":\n%s", got)
	}
}

func TestBrowserExecutionDisabled(t *testing.T) {
	const msg = "Tool execution is disabled. Launch with --allow-execute to enable."
	t.Run("flag", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{}) // AllowExecute false
		p := openTab(t, f.url)
		p.expand("get_weather")
		card := tool("get_weather")
		if got := strings.TrimSpace(p.text(card + " .try-it .disabled-msg")); got != msg {
			t.Errorf("disabled message %q", got)
		}
		if n := evalJS[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, js(card+" .run-btn, "+card+" textarea.editor, "+card+" .curl"))); n != 0 {
			t.Errorf("the console is still there (%d elements)", n)
		}
		for _, r := range f.requests() {
			if strings.HasPrefix(r, "POST ") {
				t.Errorf("request with execution disabled: %s", r)
			}
		}
	})
	t.Run("403", func(t *testing.T) {
		// The page was told execution is allowed, but the server says 403.
		f := newFixture(t, fixtureOptions{
			opts: runtime.Options{AllowExecute: true},
			wrap: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasSuffix(r.URL.Path, "/call") {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusForbidden)
						_, _ = w.Write([]byte(`{"error":"Tool execution is disabled."}`))
						return
					}
					h.ServeHTTP(w, r)
				})
			},
		})
		p := openTab(t, f.url)
		p.expand("render_chart")
		card := tool("render_chart")
		p.click(card + " .run-btn")
		p.waitVisible(card + " .try-it .disabled-msg")
		if got := strings.TrimSpace(p.text(card + " .try-it .disabled-msg")); got != msg {
			t.Errorf("disabled message %q", got)
		}
		if evalJS[bool](p, visible(card+" .run-btn")) {
			t.Errorf("Run button still shown after 403")
		}
	})
}

func TestBrowserImageResult(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.expand("render_chart")
	p.run("render_chart")
	img := tool("render_chart") + " .result-view img"
	p.waitFor(fmt.Sprintf(`(function () { var i = document.querySelector(%s); return !!i && i.complete && i.naturalWidth > 0; })()`, js(img)),
		"the image to load")
	if w := evalJS[int](p, fmt.Sprintf(`document.querySelector(%s).naturalWidth`, js(img))); w != 12 {
		t.Errorf("image naturalWidth %d, want 12", w)
	}
	if src := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).src`, js(img))); !strings.HasPrefix(src, "data:image/png;base64,") {
		t.Errorf("image src %.40q", src)
	}
	if got := p.text(tool("render_chart") + " .result-view .result-text"); got != "Here is the chart." {
		t.Errorf("text block %q", got)
	}
}

func TestBrowserEscaping(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{
		AllowExecute: true,
		Title:        `<i id="pwn-page">Tools</i> & more`,
	}, surfaces: serve.Options{Explorer: explorer.Options{ProjectName: `<b id="pwn-link">x</b>`, ProjectURL: "javascript:window.__pwned=5"}}})
	p := openTab(t, f.url)
	card := tool("inject_html")
	desc := `Shows <img src=x onerror="window.__pwned=1"> & <script>window.__pwned=2</script> literally.`
	if got := p.text(card + " .tool-summary"); got != desc {
		t.Errorf("summary %q, want the markup as text", got)
	}
	if got := p.text(card + " .tool-title"); got != `<b id="pwn-title">bold</b>` {
		t.Errorf("title %q", got)
	}
	if got := evalJS[string](p, `document.title`); got != `<i id="pwn-page">Tools</i> & more` {
		t.Errorf("document title %q", got)
	}
	if got := p.text("#page-title"); got != `<i id="pwn-page">Tools</i> & more` {
		t.Errorf("page heading %q", got)
	}
	if n := evalJS[int](p, `document.querySelectorAll('.project-link a').length`); n != 0 {
		t.Errorf("a javascript: project URL made a link")
	}
	p.expand("inject_html")
	if got := p.text(card + " .description"); got != desc {
		t.Errorf("description %q", got)
	}
	if got := p.text(card + ` tr[data-arg="q"] .arg-desc`); !strings.Contains(got, `<img src=x onerror="window.__pwned=4">`) || !strings.Contains(got, `"<b>a</b>"`) {
		t.Errorf("argument description %q", got)
	}
	p.run("inject_html")
	if got := p.text(card + " .result-view .result-text"); got != `<img src=x onerror="window.__pwned=3"><b>not bold</b>` {
		t.Errorf("result %q", got)
	}
	// No element came from the server's strings, and no script ran.
	if n := evalJS[int](p, `document.querySelectorAll('#pwn-title, #pwn-page, #pwn-link, b, i').length`); n != 0 {
		t.Errorf("%d elements were created from server strings", n)
	}
	if n := evalJS[int](p, `document.querySelectorAll('img').length`); n != 0 {
		t.Errorf("%d <img> elements", n)
	}
	if pwned := evalJS[bool](p, `window.__pwned !== undefined`); pwned {
		t.Errorf("injected script ran: __pwned = %v", evalJS[any](p, `window.__pwned`))
	}
}

func TestBrowserIsErrorInRed(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.expand("always_fails")
	p.run("always_fails")
	card := tool("always_fails")
	if got := p.text(card + " .result-view .result-text"); got != "The upstream service is unavailable." {
		t.Errorf("error text %q", got)
	}
	if got := p.text(card + " .result .status"); got != "500 Error · isError" {
		t.Errorf("status %q", got)
	}
	if hue := p.colour(card+" .result-view .result-text", "color").hue(); hue != "red" {
		t.Errorf("isError text is %s, want red", hue)
	}
	if hue := p.colour(card+" .result", "borderTopColor").hue(); hue != "red" {
		t.Errorf("isError border is %s, want red", hue)
	}
}

func TestBrowserForm(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.expand("get_weather")
	card := tool("get_weather")
	// A flat schema opens in the form; the JSON editor is the alternative.
	p.waitVisible(card + " .form-mode")
	if evalJS[bool](p, visible(card+" textarea.editor")) {
		t.Errorf("JSON editor shown in form mode")
	}
	field := func(name string) string { return card + fmt.Sprintf(` [data-field=%s]`, js(name)) }
	kinds := evalJS[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(function (e) { return e.dataset.field + ':' + e.tagName.toLowerCase() + ':' + (e.type || ''); })`, js(card+" [data-field]")))
	if got := strings.Join(kinds, ","); got != "city:input:text,units:select:select-one,days:input:number,detailed:select:select-one" {
		t.Errorf("form fields: %s", got)
	}
	if v := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).selectedOptions[0].text`, js(field("units")))); v != "celsius" {
		t.Errorf("units starts as %q, want its default", v)
	}
	p.typeInto(field("city"), "Paris")
	p.choose(field("units"), "fahrenheit")
	p.typeInto(field("days"), "3")
	p.choose(field("detailed"), "true")
	p.waitTextContains(card+" .validation", "Arguments are valid")
	wantJSON := "{\n  \"city\": \"Paris\",\n  \"units\": \"fahrenheit\",\n  \"days\": 3,\n  \"detailed\": true\n}"
	if v := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).value`, js(card+" textarea.editor"))); v != wantJSON {
		t.Errorf("the form wrote:\n%s\nwant\n%s", v, wantJSON)
	}
	p.waitTextContains(card+" .curl-command", `-d '{"city":"Paris","units":"fahrenheit","days":3,"detailed":true}'`)
	p.run("get_weather")
	p.waitTextContains(card+" .result-view .result-text", `"city": "Paris"`)
	if got := p.text(card + " .result-view .result-text"); !strings.Contains(got, `"units": "fahrenheit"`) || !strings.Contains(got, `"days": 3`) {
		t.Errorf("result %q", got)
	}
	// Switching to JSON shows what the form built, and edits there come back
	// to the form.
	p.useJSON("get_weather")
	p.typeInto(card+" textarea.editor", `{"city": "Rome", "units": "celsius"}`)
	p.click(card + ` .segmented button[data-mode="form"]`)
	p.waitVisible(card + " .form-mode")
	if v := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).value`, js(field("city")))); v != "Rome" {
		t.Errorf("form city %q after editing the JSON", v)
	}
	// A schema that is not flat gets only the JSON editor.
	p.expand("create_order")
	if n := evalJS[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, js(tool("create_order")+" .form-mode, "+tool("create_order")+" .segmented"))); n != 0 {
		t.Errorf("create_order has a form")
	}
	p.waitVisible(tool("create_order") + " textarea.editor")
}

func TestBrowserInvalidJSON(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.expand("delete_record")
	card := tool("delete_record")
	p.useJSON("delete_record")
	evalJS[chromedp.Void](p, `window.__fetches.length = 0`)
	p.typeInto(card+" textarea.editor", `{"id": "r-1",`)
	p.click(card + " .run-btn")
	p.waitVisible(card + " .json-error")
	if got := p.text(card + " .json-error"); !strings.HasPrefix(got, "Invalid JSON") {
		t.Errorf("inline error %q", got)
	}
	// The click handler runs to its end before Click returns: had it sent
	// anything, the fetch would be recorded by now.
	if got := evalJS[[]string](p, `window.__fetches`); len(got) != 0 {
		t.Errorf("requests sent for invalid JSON: %q", got)
	}
	if evalJS[bool](p, visible(card+" .result")) {
		t.Errorf("a result is shown")
	}
	if b := evalJS[bool](p, fmt.Sprintf(`document.querySelector(%s).disabled`, js(card+" .run-btn"))); b {
		t.Errorf("Run button left disabled")
	}
	// Fixing the JSON clears the error and the call goes out, once.
	p.typeInto(card+" textarea.editor", `{"id": "r-1"}`)
	p.run("delete_record")
	if evalJS[bool](p, visible(card+" .json-error")) {
		t.Errorf("inline error still shown")
	}
	if n := f.count("POST /tools/delete_record/call"); n != 1 {
		t.Errorf("%d calls, want 1: %q", n, f.requests())
	}
}

func TestBrowserValidationBeforeSending(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.expand("get_weather")
	card := tool("get_weather")
	// A fresh console does not open with complaints.
	if evalJS[bool](p, visible(card+" .validation")) {
		t.Errorf("validation shown before any edit: %q", p.text(card+" .validation"))
	}
	p.useJSON("get_weather")
	p.typeInto(card+" textarea.editor", `{"city": "Oslo", "units": "kelvin", "days": 99}`)
	p.waitTextContains(card+" .validation", "/days")
	if got := p.text(card + " .validation"); !strings.Contains(got, "2 problems") || !strings.Contains(got, "/units") {
		t.Errorf("validation %q", got)
	}
	p.click(card + " .run-btn")
	p.waitTextContains(card+" .run-hint", "Fix the arguments")
	p.waitFor(fmt.Sprintf(`!document.querySelector(%s).disabled`, js(card+" .run-btn")), "the button to come back")
	if n := f.count("POST /tools/get_weather/call"); n != 0 {
		t.Errorf("invalid arguments were sent")
	}
}

func TestBrowserCurlCopy(t *testing.T) {
	// An auth hook, so that the page has a token box and the command a token.
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens(testToken)}})
	p := openTab(t, f.url)
	bc := chromedp.FromContext(p.ctx).BrowserContextID
	for _, perm := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(p.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: perm}, Setting: browser.PermissionSettingGranted,
			Origin: f.srv.URL, BrowserContextID: bc,
		}); err != nil {
			t.Fatalf("grant %s: %v", perm, err)
		}
	}
	// The clipboard API wants a focused page; headless windows may not be.
	if _, err := chromedp.Call(p.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("emulate focus: %v", err)
	}
	p.setToken(testToken)
	p.waitText("#token-status", "Token set")
	p.expand("get_weather")
	card := tool("get_weather")
	wantShown := "curl -X POST '" + f.srv.URL + "/tools/get_weather/call' \\\n" +
		"  -H 'Content-Type: application/json' \\\n" +
		"  -H 'Authorization: Bearer ••••••' \\\n" +
		`  -d '{"city":null,"units":"celsius"}'`
	p.waitText(card+" .curl-command", wantShown)

	btn := card + " .copy-btn"
	// The page records when the button's label changes, so that the 1.5 s
	// is measured where it happens, not through the polling.
	evalJS[chromedp.Void](p, fmt.Sprintf(`(function () {
		var b = document.querySelector(%s);
		window.__labels = [];
		new MutationObserver(function () { __labels.push([b.textContent, performance.now()]); })
			.observe(b, { childList: true, characterData: true, subtree: true });
	})()`, js(btn)))
	p.click(btn)
	p.waitText(btn, "Copied!")
	p.waitText(btn, "Copy")
	var labels [][2]any
	if err := json.Unmarshal(evalJS[[]byte](p, `window.__labels`), &labels); err != nil {
		t.Fatal(err)
	}
	if len(labels) != 2 || labels[0][0] != "Copied!" || labels[1][0] != "Copy" {
		t.Fatalf("button labels: %v", labels)
	}
	if d := labels[1][1].(float64) - labels[0][1].(float64); d < 1450 || d > 10000 {
		t.Errorf(`"Copied!" was shown for %.0f ms, want 1500`, d)
	}
	clip, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, awaitPromise))
	if err != nil {
		t.Fatalf("read the clipboard: %v", err)
	}
	wantCopied := strings.Replace(wantShown, "Bearer ••••••", "Bearer "+testToken, 1)
	if clip != wantCopied {
		t.Errorf("clipboard:\n%s\nwant\n%s", clip, wantCopied)
	}
}

func TestBrowserDarkModePersists(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	p := openTab(t, f.url)
	theme := func() string { return evalJS[string](p, `document.documentElement.getAttribute('data-theme')`) }
	if got := theme(); got != "light" {
		t.Fatalf("theme %q at first, want light", got)
	}
	if l := p.colour("body", "backgroundColor").luminance(); l < 180 {
		t.Errorf("light background has luminance %d", l)
	}
	p.click("#theme-toggle")
	p.waitFor(`document.documentElement.getAttribute('data-theme') === 'dark'`, "dark mode")
	if l := p.colour("body", "backgroundColor").luminance(); l > 60 {
		t.Errorf("dark background has luminance %d", l)
	}
	p.reload()
	if got := theme(); got != "dark" {
		t.Errorf("theme %q after reload, want dark", got)
	}
	if got := evalJS[string](p, `localStorage.getItem('toolgen-explorer-theme')`); got != "dark" {
		t.Errorf("stored theme %q", got)
	}
	p.click("#theme-toggle")
	p.waitFor(`document.documentElement.getAttribute('data-theme') === 'light'`, "light mode")
	p.reload()
	if got := theme(); got != "light" {
		t.Errorf("theme %q after switching back and reloading", got)
	}
}

func TestBrowserTokenNeverStored(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens(testToken)}})
	p := openTab(t, f.url)
	p.click("#theme-toggle") // something the page does store
	p.setToken(testToken)
	p.waitText("#token-status", "Token set")
	p.expand("delete_record")
	p.useJSON("delete_record")
	p.typeInto(tool("delete_record")+" textarea.editor", `{"id": "r-9"}`)
	p.run("delete_record")
	if got := p.text(tool("delete_record") + " .result .status"); got != "200 OK" {
		t.Fatalf("call with the token: %s", got)
	}
	stored := evalJS[string](p, `JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie, location.href])`)
	if strings.Contains(stored, testToken) {
		t.Errorf("the token is stored: %s", stored)
	}
	if !strings.Contains(stored, "toolgen-explorer-theme") {
		t.Errorf("storage not read (theme missing): %s", stored)
	}
	cookies, err := chromedp.CallBrowser(p.ctx, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID})
	if err != nil {
		t.Fatalf("get cookies: %v", err)
	}
	if len(cookies.Cookies) != 0 {
		t.Errorf("cookies set: %v", cookies.Cookies)
	}
	// A reload forgets the token.
	p.reload()
	if got := p.text("#token-status"); got != "No token" {
		t.Errorf("token status after reload %q", got)
	}
	if v := evalJS[string](p, `document.getElementById('token-input').value`); v != "" {
		t.Errorf("token input after reload %q", v)
	}
}

func TestBrowserUnderPrefix(t *testing.T) {
	f := newFixture(t, fixtureOptions{prefix: "/explorer", opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	if got := p.text("#tool-count"); got != "7 tools" {
		t.Errorf("tool count %q", got)
	}
	p.expand("delete_record")
	card := tool("delete_record")
	p.waitTextContains(card+" .curl-command", "'"+f.srv.URL+"/explorer/tools/delete_record/call'")
	p.useJSON("delete_record")
	p.typeInto(card+" textarea.editor", `{"id": "r-2"}`)
	p.run("delete_record")
	if got := p.text(card + " .result-view .result-text"); got != "deleted" {
		t.Errorf("result %q", got)
	}
	for _, r := range f.requests() {
		if !strings.HasPrefix(strings.SplitN(r, " ", 2)[1], "/explorer/") {
			t.Errorf("request outside the prefix: %s", r)
		}
	}
	for _, want := range []string{"GET /explorer/tools", "GET /explorer/tools/delete_record", "POST /explorer/tools/delete_record/validate", "POST /explorer/tools/delete_record/call"} {
		if f.count(want) == 0 {
			t.Errorf("no %s in %q", want, f.requests())
		}
	}
}

// awaitPromise makes Evaluate wait for the promise the expression returns.
func awaitPromise(p *cdpruntime.EvaluateParams) {
	yes := true
	p.AwaitPromise = &yes
}

// ---------- the History view ----------

// openHistory shows the History view and waits until it has loaded.
func (p *tab) openHistory() {
	p.t.Helper()
	p.click("#tab-history")
	p.waitHistory()
}

// waitHistory waits until the History view's last request is answered.
// Every action that loads it sets the state to "loading" at once.
func (p *tab) waitHistory() {
	p.t.Helper()
	p.waitFor(`(function () { var s = document.getElementById('history-view').dataset.state; return s && s !== 'loading'; })()`, "the history to load")
}

// historyRows are the rows shown: the id, then the text of each cell
// (tool, status, surface, duration, time).
func (p *tab) historyRows() [][]string {
	p.t.Helper()
	return evalJS[[][]string](p, `Array.from(document.querySelectorAll('#history-rows tr.inv')).map(function (tr) {
		return [tr.dataset.id].concat(Array.from(tr.cells).map(function (td) { return td.textContent; }));
	})`)
}

// column is one column of historyRows (0 is the id, 1 the tool...).
func column(rows [][]string, i int) string {
	var out []string
	for _, r := range rows {
		out = append(out, r[i])
	}
	return strings.Join(out, ",")
}

func invRow(id string) string    { return fmt.Sprintf(`#history-rows tr.inv[data-id=%s]`, js(id)) }
func invDetail(id string) string { return invRow(id) + " + tr.inv-detail" }

// openInvocation opens a row with a click on the row (not its button) and
// waits for the detail.
func (p *tab) openInvocation(id string) {
	p.t.Helper()
	p.click(invRow(id) + " .inv-time")
	p.waitVisible(invDetail(id) + " .inv-input")
}

// invocations is the list the server itself answers, newest first.
func (f *fixture) invocations(t *testing.T, header ...string) []map[string]any {
	t.Helper()
	code, body := send(t, http.MethodGet, f.srv.URL+"/v1/invocations?limit=500", "", header...)
	var resp struct{ Invocations []map[string]any }
	if err := json.Unmarshal([]byte(body), &resp); code != http.StatusOK || err != nil {
		t.Fatalf("GET /v1/invocations: %d %s", code, body)
	}
	return resp.Invocations
}

var durationText = regexp.MustCompile(`^(< 0\.01 ms|\d+(\.\d\d?)? ms|\d+\.\d\d s)$`)

// The history lists the calls made from the console and from every other
// surface, newest first, with their surface, status, duration and time; a
// row opens on its input, result and error.
func TestBrowserHistoryListsCalls(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.waitVisible("#tab-history")
	if got := p.tabs(); got != "Tools:true,History:false,Approvals:false" {
		t.Errorf("tabs %q", got)
	}
	// Nothing is asked of the history before it is shown.
	if n := f.count("GET /v1/invocations"); n != 0 {
		t.Errorf("history loaded before it was shown (%d requests)", n)
	}
	p.openHistory()
	p.waitVisible("#history-empty")
	if got := p.text("#history-empty"); !strings.HasPrefix(got, "No invocations yet.") {
		t.Errorf("empty history reads %q", got)
	}
	if evalJS[bool](p, visible("#tool-list")) || evalJS[bool](p, visible("#search")) {
		t.Errorf("the tool list is shown beside the history")
	}
	if h := evalJS[string](p, `location.hash`); h != "#history" {
		t.Errorf("hash %q in the History view", h)
	}

	// A call from the console...
	p.click("#tab-tools")
	p.waitVisible("#tool-list")
	p.expand("delete_record")
	p.useJSON("delete_record")
	p.typeInto(tool("delete_record")+" textarea.editor", `{"id": "r-1"}`)
	p.run("delete_record")
	// ... and from the other surfaces.
	weather := callV1(t, f.srv.URL, "get_weather", `{"city":"Oslo","units":"celsius"}`, "X-Correlation-ID", "corr-oslo")
	if code, body := f.post(t, "/tools/always_fails/call", `{}`); code != http.StatusInternalServerError { // isError
		t.Fatalf("explorer call: %d %s", code, body)
	}
	callMCP(t, f.srv.URL, "render_chart", map[string]any{})
	if code, body := f.post(t, "/oxp/tools/call", `{"request":{"tool_id":"Tools.DeleteRecord","input":{"id":"r-2","n":12345678901234567890}}}`); code != http.StatusOK {
		t.Fatalf("OXP call: %d %s", code, body)
	}

	p.openHistory() // loaded again: the calls made since are there
	rows := p.historyRows()
	if got := column(rows, 1); got != "delete_record,render_chart,always_fails,get_weather,delete_record" {
		t.Errorf("tools, newest first: %s", got)
	}
	if got := column(rows, 2); got != "Success,Success,Failed,Success,Success" {
		t.Errorf("statuses: %s", got)
	}
	if got := column(rows, 3); got != "oxp,mcp,explorer,v1,explorer" {
		t.Errorf("surfaces: %s", got)
	}
	if got := p.text("#history-count"); got != "5 invocations" {
		t.Errorf("count %q", got)
	}
	server := f.invocations(t)
	for i, r := range rows {
		if r[0] != server[i]["id"] {
			t.Errorf("row %d is %s, the server's %d-th record %s", i, r[0], i, server[i]["id"])
		}
		if !durationText.MatchString(r[4]) {
			t.Errorf("row %d duration %q", i, r[4])
		}
		// The time is local and readable, the exact time in UTC its tooltip.
		sel := invRow(r[0]) + " .inv-time time"
		if dt := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).dateTime`, js(sel))); dt != server[i]["created_at"] {
			t.Errorf("row %d datetime %q, want %q", i, dt, server[i]["created_at"])
		}
		if !regexp.MustCompile(`^\D+ \d{1,2}, \d{1,2}:\d\d:\d\d( [AP]M)?$`).MatchString(r[5]) {
			t.Errorf("row %d time %q, want a readable local time", i, r[5])
		}
		if title := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).title`, js(sel))); !strings.HasSuffix(title, " UTC") {
			t.Errorf("row %d time tooltip %q", i, title)
		}
	}
	// Success is green and a failure red, as the console's statuses are.
	if hue := p.colour(invRow(weather)+" .inv-status", "color").hue(); hue != "green" {
		t.Errorf("success is %s", hue)
	}
	failed := rows[2][0]
	if hue := p.colour(invRow(failed)+" .inv-status", "color").hue(); hue != "red" {
		t.Errorf("failed is %s", hue)
	}

	// A row opens on its input and result, pretty and exact.
	p.openInvocation(weather)
	if got := p.text(invDetail(weather) + " .inv-input pre"); got != "{\n  \"city\": \"Oslo\",\n  \"units\": \"celsius\"\n}" {
		t.Errorf("input:\n%s", got)
	}
	wantResult := "{\n  \"city\": \"Oslo\",\n  \"units\": \"celsius\",\n  \"days\": 0,\n  \"high\": 21.5,\n  \"id\": 12345678901234567890\n}"
	if got := p.text(invDetail(weather) + " .inv-result pre"); got != wantResult {
		t.Errorf("result:\n%s\nwant\n%s", got, wantResult)
	}
	if n := evalJS[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, js(invDetail(weather)+" .j-key"))); n == 0 {
		t.Errorf("the result is not coloured as JSON")
	}
	// Numbers stay as the server sent them, in the input too.
	p.openInvocation(rows[0][0])
	if got := p.text(invDetail(rows[0][0]) + " .inv-input pre"); got != "{\n  \"id\": \"r-2\",\n  \"n\": 12345678901234567890\n}" {
		t.Errorf("OXP call's input:\n%s", got)
	}
	if evalJS[bool](p, visible(invDetail(weather)+" .inv-error")) {
		t.Errorf("an error is shown for a success")
	}
	if got := p.text(invDetail(weather) + " .inv-meta"); !strings.Contains(got, "corr-oslo") || !strings.Contains(got, weather) {
		t.Errorf("meta %q lacks the correlation id or the invocation id", got)
	}
	if got := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).getAttribute('aria-expanded')`, js(invRow(weather)+" .inv-toggle"))); got != "true" {
		t.Errorf("aria-expanded %q on an open row", got)
	}

	// From the keyboard: Enter on the row's button opens it.
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS(invRow(failed)+" .inv-toggle"), kb.Enter)); err != nil {
		t.Fatalf("press Enter: %v", err)
	}
	p.waitVisible(invDetail(failed) + " .inv-error")
	if got := p.text(invDetail(failed) + " .inv-error .error-box"); got != "The upstream service is unavailable." {
		t.Errorf("error %q", got)
	}
	if hue := p.colour(invDetail(failed)+" .inv-error .error-box", "color").hue(); hue != "red" {
		t.Errorf("the error is %s", hue)
	}
	if got := p.text(invDetail(failed) + " .inv-input pre"); got != "{}" {
		t.Errorf("input of a call without arguments %q", got)
	}
	// A second press closes it.
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS(invRow(failed)+" .inv-toggle"), kb.Enter)); err != nil {
		t.Fatalf("press Enter: %v", err)
	}
	p.waitFor("!"+visible(invDetail(failed)), "the row to close")

	// Refresh keeps the open rows open.
	p.click("#history-refresh")
	p.waitHistory()
	p.waitVisible(invDetail(weather) + " .inv-result")

	// Dark mode: the table is dark, the statuses keep their colours.
	p.click("#theme-toggle")
	p.waitFor(`document.documentElement.getAttribute('data-theme') === 'dark'`, "dark mode")
	if l := p.colour(invRow(rows[0][0])+" td", "backgroundColor").luminance(); l > 60 {
		t.Errorf("a row's background in dark mode has luminance %d", l)
	}
	if l := p.colour(invDetail(weather)+" .inv-result pre", "backgroundColor").luminance(); l > 60 {
		t.Errorf("the result's background in dark mode has luminance %d", l)
	}
	if hue := p.colour(invRow(weather)+" .inv-status", "color").hue(); hue != "green" {
		t.Errorf("success is %s in dark mode", hue)
	}
	if hue := p.colour(invRow(failed)+" .inv-status", "color").hue(); hue != "red" {
		t.Errorf("failed is %s in dark mode", hue)
	}
}

// A call still running shows as pending; opening it reads it again.
func TestBrowserHistoryPending(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	done := make(chan string, 1)
	go func() {
		resp, err := http.Post(f.srv.URL+"/v1/tools/slow_echo", "application/json", strings.NewReader(`{"input":{"message":"late"}}`))
		if err != nil {
			done <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- string(b)
	}()
	select {
	case <-f.started:
	case <-time.After(waitTimeout):
		t.Fatal("slow_echo did not start")
	}
	p := openTab(t, f.url)
	p.openHistory()
	rows := p.historyRows()
	if len(rows) != 1 || rows[0][1] != "slow_echo" || rows[0][2] != "Pending" || rows[0][4] != "—" {
		t.Fatalf("rows %q, want slow_echo pending without a duration", rows)
	}
	id := rows[0][0]
	// Pending is amber, neither the green of a success nor the red of a
	// failure.
	amber := evalJS[string](p, `(function () {
		var e = document.createElement('span');
		e.style.color = 'var(--amber)';
		document.body.appendChild(e);
		var c = getComputedStyle(e).color;
		e.remove();
		return c;
	})()`)
	if got := evalJS[string](p, fmt.Sprintf(`getComputedStyle(document.querySelector(%s)).color`, js(invRow(id)+" .inv-status"))); got != amber {
		t.Errorf("pending is %s, want amber %s", got, amber)
	}
	p.openInvocation(id)
	p.waitFor(fmt.Sprintf(`document.querySelector(%s).dataset.state === 'ready'`, js(invDetail(id))), "the record to be read again")
	if got := p.text(invDetail(id) + " .inv-result"); !strings.Contains(got, "Still running") {
		t.Errorf("result of a pending call %q", got)
	}
	if n := f.count("GET /v1/invocations/" + id); n != 1 {
		t.Errorf("the record was read %d times, want once", n)
	}
	f.releaseSlow()
	select {
	case body := <-done:
		if !strings.Contains(body, `"invocation_id"`) {
			t.Fatalf("the call answered %s", body)
		}
	case <-time.After(waitTimeout):
		t.Fatal("slow_echo did not answer")
	}
	p.click(invDetail(id) + " .inv-result button")
	p.waitText(invRow(id)+" .inv-status", "Success")
	p.waitVisible(invDetail(id) + " .inv-result pre")
	if got := p.text(invDetail(id) + " .inv-result pre"); got != "{\n  \"message\": \"late\"\n}" {
		t.Errorf("result once done %q", got)
	}
	if got := p.text(invRow(id) + " .inv-duration"); !durationText.MatchString(got) {
		t.Errorf("duration once done %q", got)
	}
}

// Filters by tool, status and surface go to the server; the tool filter
// offers the tools the page knows.
func TestBrowserHistoryFilters(t *testing.T) {
	var mu sync.Mutex
	var queries []string
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}, wrap: func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/invocations" {
				mu.Lock()
				queries = append(queries, r.URL.RawQuery)
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	}})
	for range 3 {
		callV1(t, f.srv.URL, "get_weather", `{"city":"Rome","units":"celsius"}`)
	}
	for range 2 {
		callV1(t, f.srv.URL, "always_fails", `{}`)
	}
	callV1(t, f.srv.URL, "get_weather", `{"city":""}`) // invalid: failed
	f.post(t, "/tools/delete_record/call", `{"id":"r-1"}`)

	p := openTab(t, f.url)
	p.openHistory()
	if n := len(p.historyRows()); n != 7 {
		t.Fatalf("%d rows, want 7", n)
	}
	opts := evalJS[[]string](p, `Array.from(document.querySelectorAll('#history-tool option')).map(function (o) { return o.value + '=' + o.text; })`)
	want := "=All tools,always_fails=always_fails,create_order=create_order,delete_record=delete_record,get_weather=get_weather,inject_html=inject_html,render_chart=render_chart,slow_echo=slow_echo"
	if got := strings.Join(opts, ","); got != want {
		t.Errorf("tool filter options %s", got)
	}
	filter := func(sel, option, wantTools, wantStatuses string) {
		t.Helper()
		p.choose(sel, option)
		p.waitHistory()
		rows := p.historyRows()
		if got := column(rows, 1); got != wantTools {
			t.Errorf("%s %s: tools %s, want %s", sel, option, got, wantTools)
		}
		if got := column(rows, 2); got != wantStatuses {
			t.Errorf("%s %s: statuses %s, want %s", sel, option, got, wantStatuses)
		}
	}
	filter("#history-tool", "always_fails", "always_fails,always_fails", "Failed,Failed")
	if got := p.text("#history-count"); got != "2 invocations" {
		t.Errorf("count %q", got)
	}
	filter("#history-tool", "All tools", "delete_record,get_weather,always_fails,always_fails,get_weather,get_weather,get_weather", "Success,Failed,Failed,Failed,Success,Success,Success")
	filter("#history-status", "Success", "delete_record,get_weather,get_weather,get_weather", "Success,Success,Success,Success")
	filter("#history-tool", "get_weather", "get_weather,get_weather,get_weather", "Success,Success,Success")
	filter("#history-status", "Failed", "get_weather", "Failed")
	id := p.historyRows()[0][0]
	p.openInvocation(id)
	if got := p.text(invDetail(id) + " .inv-error"); !strings.Contains(got, "/city") {
		t.Errorf("error of the invalid call %q", got)
	}
	filter("#history-status", "Pending", "", "")
	p.waitVisible("#history-empty")
	if got := p.text("#history-empty"); got != "No invocations match these filters." {
		t.Errorf("empty message %q", got)
	}
	if evalJS[bool](p, visible("#history-table")) {
		t.Errorf("an empty table is shown")
	}
	p.choose("#history-status", "Any status")
	filter("#history-tool", "All tools", "delete_record,get_weather,always_fails,always_fails,get_weather,get_weather,get_weather", "Success,Failed,Failed,Failed,Success,Success,Success")
	filter("#history-surface", "explorer", "delete_record", "Success")

	mu.Lock()
	defer mu.Unlock()
	for _, w := range []string{"tool_name=always_fails", "status=success", "tool_name=get_weather&status=failed", "surface=explorer"} {
		found := false
		for _, q := range queries {
			if strings.Contains(q, w) && strings.Contains(q, "limit=25&offset=0") {
				found = true
			}
		}
		if !found {
			t.Errorf("no request with %s in %q", w, queries)
		}
	}
}

// "Load more" brings the next page, by offset, without showing a record
// twice when newer calls have moved the pages along.
func TestBrowserHistoryLoadMore(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	for i := range 30 {
		callV1(t, f.srv.URL, "delete_record", fmt.Sprintf(`{"id":"r-%d"}`, i))
	}
	p := openTab(t, f.url)
	p.openHistory()
	if n := len(p.historyRows()); n != 25 {
		t.Fatalf("%d rows in the first page, want 25", n)
	}
	if got := p.text("#history-count"); got != "Showing 25 of 30" {
		t.Errorf("count %q", got)
	}
	p.waitVisible("#history-more")
	p.click("#history-more")
	p.waitHistory()
	rows := p.historyRows()
	server := f.invocations(t)
	var ids []string
	for _, r := range server {
		ids = append(ids, r["id"].(string))
	}
	if got := column(rows, 0); got != strings.Join(ids, ",") {
		t.Errorf("rows after Load more:\n%s\nwant the server's\n%s", got, strings.Join(ids, ","))
	}
	if got := p.text("#history-count"); got != "30 invocations" {
		t.Errorf("count %q", got)
	}
	if evalJS[bool](p, visible("#history-more")) {
		t.Errorf("Load more shown with every record loaded")
	}
	// The focus was on Load more, which went away: it moves to the first
	// row the page brought.
	if got := evalJS[string](p, `document.activeElement.closest('tr') ? document.activeElement.closest('tr').dataset.id : document.activeElement.tagName`); got != ids[25] {
		t.Errorf("focus on %q after the last page, want the row %s", got, ids[25])
	}

	// Newer calls between two pages: the next page starts two records
	// later than it would have, and those two are not shown twice.
	p.click("#history-refresh")
	p.waitHistory()
	callV1(t, f.srv.URL, "get_weather", `{"city":"Oslo","units":"celsius"}`)
	callV1(t, f.srv.URL, "get_weather", `{"city":"Oslo","units":"celsius"}`)
	p.click("#history-more")
	p.waitHistory()
	rows = p.historyRows()
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r[0]] {
			t.Errorf("record %s shown twice", r[0])
		}
		seen[r[0]] = true
	}
	if len(rows) != 30 {
		t.Errorf("%d rows, want the 30 older records", len(rows))
	}
	if got := p.text("#history-count"); got != "Showing 30 of 32" {
		t.Errorf("count %q", got)
	}
}

// With an auth hook the history needs the token: a 401 shows the console's
// guidance, and once a token is typed the history loads with it.
func TestBrowserHistoryUnauthorized(t *testing.T) {
	var mu sync.Mutex
	var auth []string
	f := newFixture(t, fixtureOptions{
		opts: runtime.Options{AllowExecute: true, AuthHook: runtime.BearerTokens(testToken)},
		wrap: func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/v1/invocations") {
					mu.Lock()
					auth = append(auth, r.Header.Get("Authorization"))
					mu.Unlock()
				}
				h.ServeHTTP(w, r)
			})
		},
	})
	id := callV1(t, f.srv.URL, "delete_record", `{"id":"r-1"}`, "Authorization", "Bearer "+testToken)
	p := openTab(t, f.url)
	p.openHistory()
	p.waitVisible("#history-notice.unauthorized")
	if got := p.text("#history-notice.unauthorized p"); !strings.Contains(got, "Bearer token") {
		t.Errorf("401 message %q does not ask for a Bearer token", got)
	}
	if evalJS[bool](p, visible("#history-table")) {
		t.Errorf("a table is shown without the token")
	}
	p.click("#history-notice.unauthorized button")
	p.waitFor(`document.activeElement === document.getElementById('token-input')`, "the token field to get the focus")
	p.setToken(testToken)
	// The history loads again by itself once the token is typed.
	p.waitVisible(invRow(id))
	p.waitHistory()
	if evalJS[bool](p, visible("#history-notice")) {
		t.Errorf("the 401 message is still shown")
	}
	p.openInvocation(id)
	if got := p.text(invDetail(id) + " .inv-meta"); !strings.Contains(got, "Caller") {
		t.Errorf("meta %q has no caller", got)
	}
	mu.Lock()
	first, last := auth[0], auth[len(auth)-1]
	mu.Unlock()
	if first != "" || last != "Bearer "+testToken {
		t.Errorf("the history was read with Authorization %q, then %q", first, last)
	}
	// A call from the console with the token, then the history has it.
	p.click("#tab-tools")
	p.expand("render_chart")
	p.run("render_chart")
	p.openHistory()
	if got := column(p.historyRows(), 3); got != "explorer,v1" {
		t.Errorf("surfaces after a console call: %s", got)
	}
}

// Every string from the history is text on the page, never markup.
func TestBrowserHistoryEscaping(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	p := openTab(t, f.url)
	p.expand("inject_html")
	p.run("inject_html") // the result is markup
	code, body := f.post(t, "/v1/tools/inject_html", `{"input":{"q":"<img src=x onerror=\"window.__pwned=6\">"},"correlation_id":"<b id=\"pwn-corr\">x</b>"}`)
	if code != http.StatusOK {
		t.Fatalf("v1 call: %d %s", code, body)
	}
	p.openHistory()
	rows := p.historyRows()
	if len(rows) != 2 {
		t.Fatalf("rows %q", rows)
	}
	for _, r := range rows {
		p.openInvocation(r[0])
	}
	console, v1 := rows[1][0], rows[0][0]
	if got := p.text(invDetail(console) + " .inv-result pre"); got != `<img src=x onerror="window.__pwned=3"><b>not bold</b>` {
		t.Errorf("result %q", got)
	}
	if got := p.text(invDetail(v1) + " .inv-input pre"); got != "{\n  \"q\": \"<img src=x onerror=\\\"window.__pwned=6\\\">\"\n}" {
		t.Errorf("input %q", got)
	}
	if got := p.text(invDetail(v1) + " .inv-meta"); !strings.Contains(got, `<b id="pwn-corr">x</b>`) {
		t.Errorf("correlation id %q", got)
	}
	if got := p.text(invDetail(v1) + " .inv-error .error-box"); got != "invalid arguments:\n- /q: value must be one of \"<b>a</b>\", \"<i>b</i>\" (enum)" {
		t.Errorf("error %q", got)
	}
	if n := evalJS[int](p, `document.querySelectorAll('#history-view img, #history-view b, #history-view i, #pwn-corr').length`); n != 0 {
		t.Errorf("%d elements were created from the history's strings", n)
	}
	if pwned := evalJS[bool](p, `window.__pwned !== undefined`); pwned {
		t.Errorf("injected script ran: __pwned = %v", evalJS[any](p, `window.__pwned`))
	}
}

// #history opens the History view; the tabs work from the keyboard; the
// tools' own links still work beside it.
func TestBrowserHistoryLinks(t *testing.T) {
	f := newFixture(t, fixtureOptions{opts: runtime.Options{AllowExecute: true}})
	callV1(t, f.srv.URL, "delete_record", `{"id":"r-1"}`)
	p := openTab(t, f.url+"#history")
	p.waitVisible("#history-rows tr.inv")
	if evalJS[bool](p, visible("#tool-list")) {
		t.Errorf("the tool list is shown at #history")
	}
	if got := evalJS[string](p, `document.getElementById('tab-history').getAttribute('aria-selected')`); got != "true" {
		t.Errorf("History tab aria-selected %q", got)
	}
	// Arrow keys move between the tabs.
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS("#tab-history"), kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	p.waitVisible("#tool-list")
	if got := evalJS[string](p, `document.activeElement.id`); got != "tab-tools" {
		t.Errorf("focus on %q after ArrowLeft", got)
	}
	if h := evalJS[string](p, `location.hash`); h != "" {
		t.Errorf("hash %q in the tool list with no tool open", h)
	}
	// A tool opened, then the history, then back: the tool's link again.
	p.expand("render_chart")
	if h := evalJS[string](p, `location.hash`); h != "#render_chart" {
		t.Errorf("hash %q", h)
	}
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS("#tab-tools"), kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	p.waitHistory()
	if h := evalJS[string](p, `location.hash`); h != "#history" {
		t.Errorf("hash %q in the history", h)
	}
	p.click("#tab-tools")
	if h := evalJS[string](p, `location.hash`); h != "#render_chart" {
		t.Errorf("hash %q back in the tool list", h)
	}
	// "/" goes to the search box, from the history too.
	p.click("#tab-history")
	p.waitHistory()
	evalJS[chromedp.Void](p, `document.activeElement.blur()`)
	// One keyDown with its text, as a key press is (chromedp.KeyEvent sends
	// the character as an event of its own, which no page can stop).
	for _, ev := range []input.DispatchKeyEventParams{
		{Type: input.DispatchKeyEventTypeKeyDown, Key: "/", Code: "Slash", Text: "/", WindowsVirtualKeyCode: 191},
		{Type: input.DispatchKeyEventTypeKeyUp, Key: "/", Code: "Slash", WindowsVirtualKeyCode: 191},
	} {
		if _, err := chromedp.Call(p.ctx, input.DispatchKeyEvent, ev); err != nil {
			t.Fatalf("press /: %v", err)
		}
	}
	p.waitFor(`document.activeElement === document.getElementById('search')`, "the search box to get the focus")
	if v := evalJS[string](p, `document.getElementById('search').value`); v != "" {
		t.Errorf("the key typed %q into the search box", v)
	}
	// Links followed within the page.
	evalJS[chromedp.Void](p, `location.hash = '#history'`)
	p.waitVisible("#history-rows tr.inv")
	evalJS[chromedp.Void](p, `location.hash = '#delete_record'`)
	p.waitVisible(tool("delete_record") + " .try-it")
	// A deep link to a tool still opens it.
	p.navigate(f.url + "#get_weather")
	p.waitVisible(tool("get_weather") + " .try-it")
	if evalJS[bool](p, visible("#history-view")) {
		t.Errorf("the history is shown at #get_weather")
	}
}

// Without the /v1 surface there is no history: no tab, nothing asked of
// /v1, and #history is the tool list.
func TestBrowserHistoryDisabled(t *testing.T) {
	f := newFixture(t, fixtureOptions{surfaces: serve.Options{V1: qmcp.Options{Disable: true}}})
	p := openTab(t, f.url+"#history")
	if evalJS[bool](p, visible("#views")) || evalJS[bool](p, visible("#tab-history")) {
		t.Errorf("the History tab is shown without /v1")
	}
	if evalJS[bool](p, visible("#history-view")) || !evalJS[bool](p, visible("#tool-list")) {
		t.Errorf("the history is shown instead of the tools")
	}
	p.expand("delete_record")
	for _, r := range f.requests() {
		if strings.Contains(r, "/v1/") {
			t.Errorf("request to /v1 without it: %s", r)
		}
	}
}

// Mounted under a prefix, the history is read under the prefix too.
func TestBrowserHistoryUnderPrefix(t *testing.T) {
	f := newFixture(t, fixtureOptions{prefix: "/explorer"})
	p := openTab(t, f.url)
	p.openHistory()
	p.waitVisible("#history-empty")
	if n := f.count("GET /explorer/v1/invocations"); n != 1 {
		t.Errorf("requests: %q", f.requests())
	}
}

// The list is what the caller may call: a tool that needs a scope shows
// once a token that grants it is typed, with its policy as badges, and goes
// again for a token that does not.
func TestBrowserScopedTools(t *testing.T) {
	closeIssue := runtime.Tool{Name: "close_issue", Description: "Closes an issue.", Scopes: []string{"issues:write"},
		RateLimit: runtime.Rate{N: 10, Per: time.Minute}, Timeout: 30 * time.Second,
		Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return runtime.TextResult("closed"), nil
		}}
	f := newFixture(t, fixtureOptions{extra: runtime.ToolList{closeIssue}, opts: runtime.Options{AuthHook: runtime.BearerCredentials(
		runtime.Credential{Secret: "writer-token", Scopes: []string{"issues:write"}},
		runtime.Credential{Secret: "reader-token"},
	)}})
	p := openTab(t, f.url)
	p.waitVisible(tool("get_weather"))
	listed := `!!document.querySelector(` + js(tool("close_issue")) + `)`
	if evalJS[bool](p, listed) {
		t.Error("close_issue listed without a token")
	}
	p.setToken("writer-token")
	p.waitFor(listed, "close_issue to be listed for the writer")
	for sel, want := range map[string]string{".badge-scopes": "needs issues:write", ".badge-ratelimit": "10/m", ".badge-timeout": "timeout 30s"} {
		if got := p.text(tool("close_issue") + " " + sel); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	p.setToken("reader-token")
	p.waitFor("!"+listed, "close_issue to go for the reader")
	p.checkNoErrors()
}

// A catalog of 10,000 tools: the page renders a few hundred rows at most,
// and a search, which asks the server's index, finds a tool of the whole
// catalog and opens it.
func TestBrowserLargeCatalog(t *testing.T) {
	h := func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.TextResult("ok"), nil }
	extra := make(runtime.ToolList, 10000)
	for i := range extra {
		extra[i] = runtime.Tool{Name: fmt.Sprintf("tool_%05d", i), Description: fmt.Sprintf("Does chore number %d of the catalog.", i), Handler: h}
	}
	extra[9876].Name, extra[9876].Description = "refund_order", "Refunds a customer's order, in full or in part."
	f := newFixture(t, fixtureOptions{extra: extra})
	p := openTab(t, f.url)
	rows := func() int { return evalJS[int](p, `document.querySelectorAll('#tool-list > li').length`) }
	p.waitText("#tool-count", "10007 tools (the first 200 shown: search to find the others)")
	if n := rows(); n > 300 {
		t.Errorf("%d rows rendered for 10,007 tools", n)
	}
	p.typeInto("#search", "refund the order of a customer")
	p.waitTextContains("#tool-count", " of 10007 tools")
	first := evalJS[string](p, `(document.querySelector('#tool-list > li') || {dataset: {}}).dataset.tool || ''`)
	if first != "refund_order" {
		t.Errorf("the search's first row is %q, want refund_order", first)
	}
	if n := rows(); n > 100 {
		t.Errorf("%d rows for a search", n)
	}
	p.click(`#tool-list > li[data-tool="refund_order"] .tool-header`)
	p.waitVisible(`#tool-list > li[data-tool="refund_order"] .tool-body`)
	p.typeInto("#search", "")
	evalJS[chromedp.Void](p, `document.getElementById('search').dispatchEvent(new Event('input'))`)
	p.waitText("#tool-count", "10007 tools (the first 200 shown: search to find the others)")
	if n := rows(); n != 200 {
		t.Errorf("%d rows after clearing the search, want 200", n)
	}
}
