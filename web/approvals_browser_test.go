package web_test

// Browser tests of the explorer's Approvals view: the human-in-the-loop
// API's pending requests (a tool's call waiting for an operator, a
// question asked through /v1/human) answered from the page, with the
// token typed into it. Every wait is a condition polled with a generous
// ceiling, never a sleep.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// The principals of approvalFixture's server, by their bearer tokens.
const (
	agentToken    = "agent-token"    // calls tools; no scope
	operatorToken = "operator-token" // scope approvals: answers others' calls
	readerToken   = "reader-token"   // scope history:read: sees every request, answers no tool's call
	leadToken     = "lead-token"     // scope approvals, and calls tools too
)

// deployArgs are the arguments of the calls of deploy in these tests: the
// build number is larger than a double holds exactly (a uint64, beyond
// int64's range, so its schema says so), and the page must show it as
// sent.
const deployArgs = `{"env":"prod","replicas":3,"build":12345678901234567890}`

// approvalFixture serves the test tools and deploy, whose every call
// waits for an operator's approval, behind bearer tokens with scopes.
func approvalFixture(t *testing.T) *fixture {
	t.Helper()
	deploy := runtime.Tool{
		Name:        "deploy",
		Description: "Deploy a service; an operator approves each call.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"env":{"type":"string"},"replicas":{"type":"integer"},"build":{"type":"integer","minimum":0,"maximum":18446744073709551615}},"required":["env"]}`),
		Approval:    runtime.ApprovalOperator,
		Handler: func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct {
				Env      string
				Replicas int
			}
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return runtime.TextResult(fmt.Sprintf("deployed %s x%d", in.Env, in.Replicas)), nil
		},
	}
	return newFixture(t, fixtureOptions{extra: runtime.ToolList{deploy}, opts: runtime.Options{AuthHook: runtime.BearerCredentials(
		runtime.Credential{Secret: agentToken, Subject: "agent"},
		runtime.Credential{Secret: operatorToken, Subject: "operator", Scopes: []string{runtime.ScopeApprovals}},
		runtime.Credential{Secret: readerToken, Subject: "reader", Scopes: []string{runtime.ScopeHistoryRead}},
		runtime.Credential{Secret: leadToken, Subject: "lead", Scopes: []string{runtime.ScopeApprovals}},
	)}})
}

type callAnswer struct {
	code int
	body string
}

// callWaiting calls tool over /v1 with token in a goroutine, as an agent
// would, and answers where its answer arrives. The call ends when the
// test does (its cleanup runs before the server's closes, which waits for
// every request), so that a call still waiting for approval does not hold
// the server.
func (f *fixture) callWaiting(t *testing.T, tool, input, token string) <-chan callAnswer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL+"/v1/tools/"+tool, strings.NewReader(`{"input":`+input+`}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	ch := make(chan callAnswer, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			ch <- callAnswer{0, err.Error()}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ch <- callAnswer{resp.StatusCode, string(b)}
	}()
	return ch
}

// awaitCall waits for a call's answer.
func awaitCall(t *testing.T, ch <-chan callAnswer, what string) callAnswer {
	t.Helper()
	select {
	case a := <-ch:
		return a
	case <-time.After(3 * waitTimeout):
		t.Fatalf("%s: no answer", what)
		return callAnswer{}
	}
}

// awaitPending polls the server, as the operator, until caller's call of
// tool waits for approval, and answers the request's id (the call's
// invocation id).
func (f *fixture) awaitPending(t *testing.T, caller, tool string) string {
	t.Helper()
	deadline := time.Now().Add(3 * waitTimeout)
	for {
		code, body := send(t, http.MethodGet, f.srv.URL+"/v1/human/requests?status=pending&request_type=approval", "", "Authorization", "Bearer "+operatorToken)
		var page struct {
			Requests []struct {
				ID      string
				Context struct{ Tool, Caller string }
			}
		}
		if err := json.Unmarshal([]byte(body), &page); code != http.StatusOK || err != nil {
			t.Fatalf("GET /v1/human/requests: %d %s", code, body)
		}
		for _, r := range page.Requests {
			if r.Context.Tool == tool && r.Context.Caller == caller {
				return r.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's call of %s is not pending: %s", caller, tool, body)
		}
		time.Sleep(20 * time.Millisecond) // the poll's pace, not a wait for time to pass
	}
}

// pendingIDs are the ids of the pending requests, as the server lists
// them.
func (f *fixture) pendingIDs(t *testing.T) []string {
	t.Helper()
	code, body := send(t, http.MethodGet, f.srv.URL+"/v1/human/requests?status=pending", "", "Authorization", "Bearer "+operatorToken)
	var page struct{ Requests []struct{ ID string } }
	if err := json.Unmarshal([]byte(body), &page); code != http.StatusOK || err != nil {
		t.Fatalf("GET /v1/human/requests: %d %s", code, body)
	}
	var ids []string
	for _, r := range page.Requests {
		ids = append(ids, r.ID)
	}
	return ids
}

// requestStatus is a request's status as the server answers it.
func (f *fixture) requestStatus(t *testing.T, id string) string {
	t.Helper()
	code, body := send(t, http.MethodGet, f.srv.URL+"/v1/human/requests/"+id, "", "Authorization", "Bearer "+operatorToken)
	var resp struct{ Request struct{ Status string } }
	if err := json.Unmarshal([]byte(body), &resp); code != http.StatusOK || err != nil {
		t.Fatalf("GET /v1/human/requests/%s: %d %s", id, code, body)
	}
	return resp.Request.Status
}

func pendingItem(id string) string  { return `#pending-list li.approval[data-id=` + js(id) + `]` }
func answeredItem(id string) string { return `#answered-list li.approval[data-id=` + js(id) + `]` }

// openApprovals shows the Approvals view and waits for its first answer.
func (p *tab) openApprovals() {
	p.t.Helper()
	p.click("#tab-approvals")
	p.waitFor(`(function () { var s = document.getElementById('approvals-view').dataset.state; return s && s !== 'loading'; })()`, "the approvals to load")
}

// waitGone waits until nothing matches sel.
func (p *tab) waitGone(sel string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`!document.querySelector(%s)`, js(sel)), sel+" to go")
}

var timeLeft = regexp.MustCompile(`^(\d+s|\d+m \d\ds|\d+h \d\dm) left$`)

// The tab shows when the server has the human-in-the-loop API, and works
// as the other tabs do; without the API there is no tab.
func TestBrowserApprovalsTab(t *testing.T) {
	t.Run("shown", func(t *testing.T) {
		f := newFixture(t, fixtureOptions{})
		p := openTab(t, f.url)
		p.waitListed()
		if got := p.tabs(); got != "Tools:true,History:false,Approvals:false" {
			t.Errorf("tabs %q", got)
		}
		if n := f.count("GET /v1/human/requests"); n != 0 {
			t.Errorf("the requests were read %d times before the tab was opened", n)
		}
		p.openApprovals()
		if got := p.tabs(); got != "Tools:false,History:false,Approvals:true" {
			t.Errorf("tabs in the view %q", got)
		}
		for sel, want := range map[string]string{"#pending-empty": "Nothing is waiting for an answer.", "#answered-empty": "No request has been answered yet.", "#approvals-count": "0 pending"} {
			p.waitVisible(sel)
			if got := p.text(sel); got != want {
				t.Errorf("%s: %q, want %q", sel, got, want)
			}
		}
		if got := evalJS[string](p, `(function () { var v = document.getElementById('approvals-view'); return v.getAttribute('role') + ' ' + v.getAttribute('aria-labelledby') + ' ' + document.getElementById('tab-approvals').getAttribute('aria-controls'); })()`); got != "tabpanel tab-approvals approvals-view" {
			t.Errorf("role, label and control: %s", got)
		}
		if h := evalJS[string](p, `location.hash`); h != "#approvals" {
			t.Errorf("hash %q", h)
		}
		// A request made meanwhile shows without a click: the view refreshes.
		if code, body := f.post(t, "/v1/human/requests", `{"id":"q-1","request_type":"input","prompt":"Which region?","options":["eu","us"]}`); code != http.StatusCreated {
			t.Fatalf("create a request: %d %s", code, body)
		}
		p.waitVisible(pendingItem("q-1"))
		if got := p.text("#approvals-count"); got != "1 pending" {
			t.Errorf("count %q", got)
		}
		// The arrow keys move between the tabs, the view's one among them.
		if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS("#tab-approvals"), kb.ArrowLeft)); err != nil {
			t.Fatal(err)
		}
		p.waitVisible("#history-view")
		if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.CSS("#tab-history"), kb.End)); err != nil {
			t.Fatal(err)
		}
		p.waitVisible("#approvals-view")
		if got := evalJS[string](p, `document.activeElement.id + ' ' + document.activeElement.tabIndex + ' ' + document.getElementById('tab-tools').tabIndex`); got != "tab-approvals 0 -1" {
			t.Errorf("focus and tab stops after End: %s", got)
		}
		// A link opens the view.
		p.navigate(f.url + "#approvals")
		p.waitVisible(pendingItem("q-1"))
		if evalJS[bool](p, visible("#tool-list")) {
			t.Errorf("the tools are shown at #approvals")
		}
	})
	check := func(t *testing.T, fo fixtureOptions, wantTabs string) {
		f := newFixture(t, fo)
		p := openTab(t, f.url+"#approvals")
		p.waitListed()
		if got := p.tabs(); got != wantTabs {
			t.Errorf("tabs %q, want %q", got, wantTabs)
		}
		if evalJS[bool](p, visible("#tab-approvals")) || evalJS[bool](p, visible("#approvals-view")) || !evalJS[bool](p, visible("#tool-list")) {
			t.Errorf("#approvals does not show the tools")
		}
		for _, r := range f.requests() {
			if strings.Contains(r, "/v1/human") {
				t.Errorf("request to /v1/human without it: %s", r)
			}
		}
	}
	t.Run("a history store without human requests", func(t *testing.T) {
		check(t, fixtureOptions{opts: runtime.Options{History: history.Discard}}, "Tools:true,History:false")
	})
	t.Run("no /v1", func(t *testing.T) {
		check(t, fixtureOptions{surfaces: serve.Options{V1: qmcp.Options{Disable: true}}}, "")
	})
}

// The whole round trip: an agent's call of a tool that needs an operator's
// approval waits; the operator, with their token typed into the page, sees
// it (tool, caller, arguments, time left) and approves it; the call runs
// and answers the tool's result, and the request shows as answered, by
// the operator.
func TestBrowserApprovalsApprove(t *testing.T) {
	f := approvalFixture(t)
	done := f.callWaiting(t, "deploy", deployArgs, agentToken)
	id := f.awaitPending(t, "agent", "deploy")

	p := openTab(t, f.url)
	// Without a token the view asks for one, as the history does.
	p.openApprovals()
	p.waitVisible("#approvals-notice .unauthorized")
	if got := p.text("#approvals-notice .unauthorized p"); !strings.Contains(got, "Bearer token") {
		t.Errorf("401 message %q does not ask for a Bearer token", got)
	}
	p.click("#approvals-notice .unauthorized button")
	p.waitFor(`document.activeElement === document.getElementById('token-input')`, "the token field to get the focus")
	p.setToken(operatorToken) // the view reads again by itself
	item := pendingItem(id)
	p.waitVisible(item)
	if evalJS[bool](p, visible("#approvals-notice")) {
		t.Errorf("the 401 message is still shown")
	}
	for sel, want := range map[string]string{
		" .approval-title":             "deploy",
		" .approval-prompt":            "Approve the call of deploy?",
		" .approval-caller dd":         "agent",
		" .approval-args":              deployArgs,
		" button[data-answer=approve]": "Approve",
		" button[data-answer=reject]":  "Reject",
	} {
		if got := p.text(item + sel); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	if evalJS[bool](p, visible(item+" .badge-type")) {
		t.Errorf("an approval shows its request type")
	}
	left := p.text(item + " .approval-left")
	if !timeLeft.MatchString(left) {
		t.Errorf("time left %q", left)
	}
	p.waitFor(fmt.Sprintf(`(function () { var e = document.querySelector(%s); return !!e && e.textContent !== %s; })()`, js(item+" .approval-left"), js(left)), "the time left to count down")

	p.click(item + " button[data-answer=approve]")
	a := awaitCall(t, done, "the approved call")
	var resp struct {
		Result       any     `json:"result"`
		Error        *string `json:"error"`
		InvocationID string  `json:"invocation_id"`
	}
	if err := json.Unmarshal([]byte(a.body), &resp); a.code != http.StatusOK || err != nil || resp.Error != nil ||
		resp.InvocationID != id || !strings.Contains(fmt.Sprint(resp.Result), "deployed prod x3") {
		t.Fatalf("the approved call answered %d %s", a.code, a.body)
	}
	p.waitGone(item)
	done2 := answeredItem(id)
	p.waitText(done2+" .approval-outcome", "Approved")
	p.waitVisible(done2 + " .approval-by")
	for sel, want := range map[string]string{" .approval-title": "deploy", " .approval-by dd": "operator", " .approval-response dd": "approve", " .approval-args": deployArgs} {
		if got := p.text(done2 + sel); got != want {
			t.Errorf("answered %s: %q, want %q", sel, got, want)
		}
	}
	if got := p.text("#approvals-count"); got != "0 pending" {
		t.Errorf("count %q", got)
	}
	if evalJS[bool](p, visible(done2+" button")) {
		t.Errorf("an answered request has buttons")
	}
}

// Reject: the call fails, saying who rejected it; the request shows as
// rejected.
func TestBrowserApprovalsReject(t *testing.T) {
	f := approvalFixture(t)
	p := openTab(t, f.url)
	p.setToken(operatorToken)
	p.openApprovals()
	p.waitVisible("#pending-empty")
	done := f.callWaiting(t, "deploy", `{"env":"staging"}`, agentToken)
	id := f.awaitPending(t, "agent", "deploy")
	p.click(pendingItem(id) + " button[data-answer=reject]")
	a := awaitCall(t, done, "the rejected call")
	if a.code != http.StatusOK || !strings.Contains(a.body, "rejected by operator") || strings.Contains(a.body, "deployed") {
		t.Fatalf("the rejected call answered %d %s", a.code, a.body)
	}
	p.waitGone(pendingItem(id))
	p.waitText(answeredItem(id)+" .approval-outcome", "Rejected")
	p.waitVisible(answeredItem(id) + " .approval-by")
	if got := p.text(answeredItem(id) + " .approval-by dd"); got != "operator" {
		t.Errorf("rejected by %q", got)
	}
	if got := p.colour(answeredItem(id)+" .approval-outcome", "color").hue(); got != "red" {
		t.Errorf("Rejected is %s, want red", got)
	}
}

// A refusal shows its detail beside the request, which stays pending: a
// token without the scope approvals (that still sees every request), and
// the caller's own token, even with the scope.
func TestBrowserApprovalsRefused(t *testing.T) {
	f := approvalFixture(t)
	agentCall := f.callWaiting(t, "deploy", deployArgs, agentToken)
	agentID := f.awaitPending(t, "agent", "deploy")
	leadCall := f.callWaiting(t, "deploy", `{"env":"dev"}`, leadToken)
	leadID := f.awaitPending(t, "lead", "deploy")

	p := openTab(t, f.url)
	p.setToken(readerToken)
	p.openApprovals()
	p.waitVisible(pendingItem(agentID))
	p.waitVisible(pendingItem(leadID))
	// In the server's order, newest first.
	if got, want := evalJS[[]string](p, `Array.from(document.querySelectorAll('#pending-list li')).map(function (li) { return li.dataset.id; })`), f.pendingIDs(t); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("pending %q, want %q", got, want)
	}
	p.click(pendingItem(agentID) + " button[data-answer=approve]")
	p.waitText(pendingItem(agentID)+" .approval-error", `Answering the approval of a tool's call needs the scope "approvals".`)
	if got := p.colour(pendingItem(agentID)+" .approval-error", "color").hue(); got != "red" {
		t.Errorf("the refusal is %s, want red", got)
	}

	// The lead may approve others' calls, not its own. A new token clears
	// the old one's refusal.
	p.setToken(leadToken)
	p.waitText(pendingItem(agentID)+" .approval-error", "")
	p.click(pendingItem(leadID) + " button[data-answer=approve]")
	p.waitText(pendingItem(leadID)+" .approval-error", "The caller of a tool cannot approve its own call.")
	// Both still wait, in the page (across refreshes) and on the server.
	p.waitFor(fmt.Sprintf(`document.getElementById('approvals-view').dataset.state === 'ready' && !!document.querySelector(%s)`, js(pendingItem(agentID))), "the view to refresh")
	for _, id := range []string{agentID, leadID} {
		if got := f.requestStatus(t, id); got != "pending" {
			t.Errorf("request %s is %s after a refusal", id, got)
		}
	}
	select {
	case a := <-agentCall:
		t.Errorf("the agent's call answered %d %s without approval", a.code, a.body)
	case a := <-leadCall:
		t.Errorf("the lead's call answered %d %s without approval", a.code, a.body)
	default:
	}
	// The lead approves the agent's call.
	p.click(pendingItem(agentID) + " button[data-answer=approve]")
	if a := awaitCall(t, agentCall, "the agent's call"); a.code != http.StatusOK || !strings.Contains(a.body, "deployed prod x3") {
		t.Fatalf("the agent's call answered %d %s", a.code, a.body)
	}
	p.waitText(answeredItem(agentID)+" .approval-outcome", "Approved")
	p.waitVisible(answeredItem(agentID) + " .approval-by")
	if got := p.text(answeredItem(agentID) + " .approval-by dd"); got != "lead" {
		t.Errorf("approved by %q", got)
	}
}

// Requests made through the API: a button for each of their options, a
// field for a free answer when they have none, their request type shown;
// a call given up on shows as cancelled. Their strings are text, never
// markup.
func TestBrowserApprovalsQuestions(t *testing.T) {
	f := approvalFixture(t)
	auth := []string{"Authorization", "Bearer " + operatorToken}
	for _, body := range []string{
		`{"id":"q-region","request_type":"input","prompt":"Which region? <img src=x onerror=\"window.__pwned=1\">","options":["eu-west","us-east"],"context":{"service":"<b id=\"pwn\">api</b>"}}`,
		`{"id":"q-notes","request_type":"review","prompt":"Any notes on the release?","options":null}`,
	} {
		if code, resp := f.post(t, "/v1/human/requests", body, auth...); code != http.StatusCreated {
			t.Fatalf("create a request: %d %s", code, resp)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.srv.URL+"/v1/tools/deploy", strings.NewReader(`{"input":{"env":"qa"}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+agentToken)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	callID := f.awaitPending(t, "agent", "deploy")

	p := openTab(t, f.url)
	p.setToken(operatorToken)
	p.openApprovals()
	region, notes := pendingItem("q-region"), pendingItem("q-notes")
	p.waitVisible(region)
	p.waitVisible(notes)
	if got := p.text(region + " .approval-title"); got != `Which region? <img src=x onerror="window.__pwned=1">` {
		t.Errorf("title %q", got)
	}
	if got := p.text(region + " .badge-type"); got != "input" {
		t.Errorf("type %q", got)
	}
	if got := p.text(region + " .approval-context"); got != `{"service":"<b id=\"pwn\">api</b>"}` {
		t.Errorf("context %q", got)
	}
	if got := p.texts(region + " .approval-actions button"); got != "eu-west|us-east" {
		t.Errorf("buttons %q", got)
	}
	if got := p.text(notes + " .badge-type"); got != "review" {
		t.Errorf("type %q", got)
	}
	if n := evalJS[int](p, `document.querySelectorAll('#approvals-view img, #pwn').length`); n != 0 || evalJS[bool](p, `window.__pwned !== undefined`) {
		t.Errorf("markup from a request was rendered")
	}

	// The call's client goes away: its request is cancelled.
	cancel()
	<-gone
	p.waitGone(pendingItem(callID))
	p.waitText(answeredItem(callID)+" .approval-outcome", "Cancelled")

	p.click(region + ` button[data-answer="eu-west"]`)
	p.waitGone(region)
	p.waitVisible(answeredItem("q-region") + " .approval-response")
	if got := p.text(answeredItem("q-region") + " .approval-response dd"); got != "eu-west" {
		t.Errorf("answer %q", got)
	}
	if got := p.text(answeredItem("q-region") + " .approval-outcome"); got != "Answered" {
		t.Errorf("outcome %q", got)
	}
	// An empty answer is not sent; Enter sends one.
	p.click(notes + " .answer-send")
	p.waitText(notes+" .approval-error", "Type an answer first.")
	p.typeInto(notes+" .answer-input", "Ship it"+kb.Enter)
	p.waitGone(notes)
	p.waitVisible(answeredItem("q-notes") + " .approval-response")
	for sel, want := range map[string]string{" .approval-response dd": "Ship it", " .approval-by dd": "operator"} {
		if got := p.text(answeredItem("q-notes") + sel); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	got := evalJS[[]string](p, `Array.from(document.querySelectorAll('#answered-list li')).map(function (li) { return li.dataset.id; })`)
	slices.Sort(got)
	if want := []string{callID, "q-notes", "q-region"}; !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("answered %q", got)
	}
	// The page only ever posts answers.
	for _, r := range evalJS[[]string](p, `window.__fetches`) {
		if strings.HasPrefix(r, "POST ") && r != "POST /v1/human/responses" {
			t.Errorf("the page sent %s", r)
		}
	}
}
