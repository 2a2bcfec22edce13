package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/sqlite"
)

// The /v1 human-in-the-loop API, as specs/README.md words it, on each
// history store: every endpoint, status code and detail message.

// send makes a request with an optional JSON body and bearer token and
// returns the status and body.
func send(t *testing.T, method, url, tok, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// expect sends a request and checks its status and, when detail is set,
// that the body is exactly {"detail": detail}. It returns the body.
func expect(t *testing.T, method, url, tok, body string, wantStatus int, detail string) string {
	t.Helper()
	code, got := send(t, method, url, tok, body)
	if code != wantStatus {
		t.Fatalf("%s %s %s: %d %s, want %d", method, url, body, code, got, wantStatus)
	}
	if detail != "" {
		want, _ := json.Marshal(map[string]string{"detail": detail})
		if got != string(want) {
			t.Errorf("%s %s %s:\n got %s\nwant %s", method, url, body, got, want)
		}
	}
	return got
}

// stores are the history stores the API is tested on: memory, SQLite,
// and PostgreSQL when a cluster is at hand (CI always has one).
func stores(t *testing.T) map[string]func(t *testing.T) history.Store {
	out := map[string]func(t *testing.T) history.Store{
		"memory": func(t *testing.T) history.Store { return history.NewMemory(history.Retention{}) },
		"sqlite": func(t *testing.T) history.Store {
			s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "h.db"), history.Retention{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
	dsn := os.Getenv("TOOLGEN_TEST_POSTGRES")
	switch {
	case dsn != "":
		out["postgres"] = func(t *testing.T) history.Store {
			sep := "?"
			if strings.Contains(dsn, "?") {
				sep = "&"
			}
			s, err := history.Open(t.Context(), dsn+sep+"search_path=human_"+strconv.FormatInt(time.Now().UnixNano(), 36), history.Retention{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	case os.Getenv("CI") != "":
		t.Fatal("TOOLGEN_TEST_POSTGRES is not set: CI runs this test under .ci/postgres")
	}
	return out
}

func TestHumanAPI(t *testing.T) {
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{}, &runtime.Options{History: store, Logger: discardLogger()})))
			t.Cleanup(hs.Close)
			testHumanAPI(t, hs.URL, store.(history.Humans))
		})
	}
}

type fullRequest struct {
	ID             string          `json:"id"`
	RequestType    string          `json:"request_type"`
	Prompt         string          `json:"prompt"`
	Options        []string        `json:"options"`
	Context        json.RawMessage `json:"context"`
	TimeoutSeconds int             `json:"timeout_seconds"`
	Status         string          `json:"status"`
	CreatedAt      string          `json:"created_at"`
	ExpiresAt      string          `json:"expires_at"`
	CorrelationID  *string         `json:"correlation_id"`
}

type humanResponse struct {
	ID          string  `json:"id"`
	RequestID   string  `json:"request_id"`
	Response    string  `json:"response"`
	RespondedBy *string `json:"responded_by"`
	CreatedAt   string  `json:"created_at"`
}

// keys are the names of a JSON object's members, in order.
func keys(t *testing.T, body string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	var out []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", body)
	}
	for dec.More() {
		k, _ := dec.Token()
		out = append(out, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func testHumanAPI(t *testing.T, url string, store history.Humans) {
	reqs, resps := url+"/v1/human/requests", url+"/v1/human/responses"
	timeRE := func(t *testing.T, name, v string) time.Time {
		t.Helper()
		at, err := time.Parse(history.TimeLayout, v)
		if err != nil || at.Format(history.TimeLayout) != v {
			t.Errorf("%s = %q, not RFC 3339 UTC with three fractional digits", name, v)
		}
		return at
	}

	// Create: 201 with the short form.
	body := expect(t, "POST", reqs, "", `{"id":"deploy-001","request_type":"approval","prompt":"Deploy to production?","options":["approve","reject"],"context":{"env":"prod"},"timeout_seconds":120,"correlation_id":"wf-1"}`, 201, "")
	if got := strings.Join(keys(t, body), ","); got != "id,request_type,prompt,status,created_at,expires_at" {
		t.Errorf("create answers the keys %s", got)
	}
	var created fullRequest
	json.Unmarshal([]byte(body), &created)
	if created.ID != "deploy-001" || created.Status != "pending" || created.RequestType != "approval" || created.Prompt != "Deploy to production?" {
		t.Errorf("created %+v", created)
	}
	c, e := timeRE(t, "created_at", created.CreatedAt), timeRE(t, "expires_at", created.ExpiresAt)
	if e.Sub(c) != 120*time.Second {
		t.Errorf("expires_at - created_at = %s, want 120s", e.Sub(c))
	}

	// Defaults: no options, {} context, an hour.
	expect(t, "POST", reqs, "", `{"id":"ask-1","request_type":"input","prompt":"Which region?"}`, 201, "")

	// Refusals of create.
	for _, tc := range []struct{ body, detail string }{
		{`{"id":"deploy-001","request_type":"approval","prompt":"again"}`, "Request with ID 'deploy-001' already exists"},
	} {
		expect(t, "POST", reqs, "", tc.body, 409, tc.detail)
	}
	for _, tc := range []string{
		`{"request_type":"approval","prompt":"no id"}`,
		`{"id":"x1","prompt":"no type"}`,
		`{"id":"x2","request_type":"approval"}`,
		`{"id":"x3","request_type":"approval","prompt":"?","timeout_seconds":59}`,
		`{"id":"x4","request_type":"approval","prompt":"?","timeout_seconds":86401}`,
		`{"id":"x5","request_type":"approval","prompt":"?","timeout_seconds":"soon"}`,
		`{"id":"x6","request_type":"approval","prompt":"?","context":[1]}`,
		`{"id":"x7","request_type":"approval","prompt":"?","options":"approve"}`,
		`not json`,
	} {
		got := expect(t, "POST", reqs, "", tc, 422, "")
		if !strings.HasPrefix(got, `{"detail":"`) || goText.MatchString(got) {
			t.Errorf("POST %s: %s", tc, got)
		}
	}
	expect(t, "POST", reqs, "", `{"id":"x8","request_type":"approval","prompt":"?","timeout_seconds":60}`, 201, "")
	expect(t, "POST", reqs, "", `{"id":"x9","request_type":"approval","prompt":"?","timeout_seconds":86400}`, 201, "")

	// Get: the full request and no response yet.
	body = expect(t, "GET", reqs+"/deploy-001", "", "", 200, "")
	if got := strings.Join(keys(t, body), ","); got != "request,response" {
		t.Errorf("get answers the keys %s", got)
	}
	var got struct {
		Request  fullRequest     `json:"request"`
		Response json.RawMessage `json:"response"`
	}
	json.Unmarshal([]byte(body), &got)
	r := got.Request
	if r.ID != "deploy-001" || strings.Join(r.Options, ",") != "approve,reject" || string(r.Context) != `{"env":"prod"}` ||
		r.TimeoutSeconds != 120 || r.Status != "pending" || r.CorrelationID == nil || *r.CorrelationID != "wf-1" ||
		r.CreatedAt != created.CreatedAt || r.ExpiresAt != created.ExpiresAt || string(got.Response) != "null" {
		t.Errorf("get: %s", body)
	}
	full := `{"request":` // a full request has every field
	if k := keys(t, body[len(full):strings.Index(body, `,"response"`)]); strings.Join(k, ",") != "id,request_type,prompt,options,context,timeout_seconds,status,created_at,expires_at,correlation_id" {
		t.Errorf("a full request has the keys %s", k)
	}
	body = expect(t, "GET", reqs+"/ask-1", "", "", 200, "")
	if !strings.Contains(body, `"options":null,"context":{},"timeout_seconds":3600`) {
		t.Errorf("defaults: %s", body)
	}
	expect(t, "GET", reqs+"/nope", "", "", 404, "Request 'nope' not found")

	// Respond: not an option (400), then an answer (201), then again (409).
	expect(t, "POST", resps, "", `{"request_id":"deploy-001","response":"maybe"}`, 400, "Response must be one of: ['approve', 'reject']")
	body = expect(t, "POST", resps, "", `{"request_id":"deploy-001","response":"approve","responded_by":"alice","response_metadata":{"note":"ok"}}`, 201, "")
	if got := strings.Join(keys(t, body), ","); got != "id,request_id,response,responded_by,created_at" {
		t.Errorf("respond answers the keys %s", got)
	}
	var answer humanResponse
	json.Unmarshal([]byte(body), &answer)
	if answer.RequestID != "deploy-001" || answer.Response != "approve" || answer.RespondedBy == nil || *answer.RespondedBy != "alice" || answer.ID == "" {
		t.Errorf("respond: %s", body)
	}
	timeRE(t, "response created_at", answer.CreatedAt)
	expect(t, "POST", resps, "", `{"request_id":"deploy-001","response":"reject"}`, 409, "Request has already been responded to")
	expect(t, "POST", resps, "", `{"request_id":"nope","response":"approve"}`, 404, "Request 'nope' not found")
	expect(t, "POST", resps, "", `{"response":"approve"}`, 422, "")
	body = expect(t, "GET", reqs+"/deploy-001", "", "", 200, "")
	if !strings.Contains(body, `"status":"responded"`) || !strings.Contains(body, `"response":{"id":"`+answer.ID+`","request_id":"deploy-001","response":"approve","responded_by":"alice","response_metadata":{"note":"ok"},"created_at":"`+answer.CreatedAt+`"}`) {
		t.Errorf("get after the answer: %s", body)
	}
	// Any answer to a request without options; no responder is null.
	body = expect(t, "POST", resps, "", `{"request_id":"ask-1","response":"eu-west-1"}`, 201, "")
	if !strings.Contains(body, `"responded_by":null`) {
		t.Errorf("respond without responded_by: %s", body)
	}

	// Expiry: a request filed two minutes ago with a minute to live.
	if err := store.CreateRequest(t.Context(), &history.Request{ID: "old", Type: "approval", Prompt: "Too late?", TimeoutSeconds: 60, CreatedAt: time.Now().Add(-2 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	body = expect(t, "GET", reqs+"/old", "", "", 200, "")
	if !strings.Contains(body, `"status":"expired"`) {
		t.Errorf("an expired request: %s", body)
	}
	expect(t, "POST", resps, "", `{"request_id":"old","response":"approve"}`, 410, "Request has expired")

	// List: newest first, filters, paging, and bad parameters.
	list := func(query string) (ids []string, count, total int) {
		t.Helper()
		var page struct {
			Requests []fullRequest `json:"requests"`
			Count    int           `json:"count"`
			Total    int           `json:"total"`
		}
		b := expect(t, "GET", reqs+query, "", "", 200, "")
		if err := json.Unmarshal([]byte(b), &page); err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Requests {
			ids = append(ids, r.ID)
		}
		return ids, page.Count, page.Total
	}
	all, count, total := list("")
	// "old" was filed two minutes before the others, so it comes last.
	if count != 5 || total != 5 || strings.Join(all, ",") != "x9,x8,ask-1,deploy-001,old" {
		t.Errorf("list: %q count %d total %d", all, count, total)
	}
	if ids, _, total := list("?status=pending"); strings.Join(ids, ",") != "x9,x8" || total != 2 {
		t.Errorf("pending: %q (%d)", ids, total)
	}
	if ids, _, _ := list("?status=expired"); strings.Join(ids, ",") != "old" {
		t.Errorf("expired: %q", ids)
	}
	if ids, _, _ := list("?status=responded&request_type=input"); strings.Join(ids, ",") != "ask-1" {
		t.Errorf("responded input: %q", ids)
	}
	if ids, count, total := list("?limit=2&offset=1"); len(ids) != 2 || ids[0] != all[1] || count != 2 || total != 5 {
		t.Errorf("page: %q count %d total %d", ids, count, total)
	}
	for _, q := range []string{"?limit=0", "?limit=501", "?offset=-1", "?limit=ten", "?status=done", "?limit=%zz", "?limit=2;offset=1"} {
		expect(t, "GET", reqs+q, "", "", 422, "")
	}
	expect(t, "DELETE", reqs, "", "", 405, "")
	// Options that list nothing are not set (as the reference's
	// "if request.options"): any answer is one.
	expect(t, "POST", reqs, "", `{"id":"empty-options","request_type":"input","prompt":"Anything?","options":[]}`, 201, "")
	expect(t, "POST", resps, "", `{"request_id":"empty-options","response":"whatever"}`, 201, "")
}

// A request, and its answer, outlive the server: they are in the store.
func TestHumanRequestSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	serve := func() (string, func()) {
		store, err := sqlite.Open(context.Background(), path, history.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{}, &runtime.Options{History: store, Logger: discardLogger()})))
		return hs.URL, func() { hs.Close(); store.Close() }
	}
	url, stop := serve()
	expect(t, "POST", url+"/v1/human/requests", "", `{"id":"r1","request_type":"review","prompt":"Review the plan?"}`, 201, "")
	expect(t, "POST", url+"/v1/human/requests", "", `{"id":"r2","request_type":"review","prompt":"And this one?"}`, 201, "")
	expect(t, "POST", url+"/v1/human/responses", "", `{"request_id":"r2","response":"fine"}`, 201, "")
	stop()

	url, stop = serve()
	defer stop()
	if body := expect(t, "GET", url+"/v1/human/requests/r1", "", "", 200, ""); !strings.Contains(body, `"status":"pending"`) || !strings.Contains(body, `"prompt":"Review the plan?"`) {
		t.Errorf("after a restart: %s", body)
	}
	if body := expect(t, "GET", url+"/v1/human/requests/r2", "", "", 200, ""); !strings.Contains(body, `"response":"fine"`) {
		t.Errorf("after a restart: %s", body)
	}
	expect(t, "POST", url+"/v1/human/responses", "", `{"request_id":"r1","response":"ok"}`, 201, "")
}

// A store that keeps no human requests answers 501, in words.
func TestHumanAPIWithoutHumans(t *testing.T) {
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{}, &runtime.Options{History: history.Discard, Logger: discardLogger()})))
	defer hs.Close()
	expect(t, "GET", hs.URL+"/v1/human/requests", "", "", 501, "This server's history store does not keep human requests.")
	expect(t, "POST", hs.URL+"/v1/human/responses", "", `{"request_id":"a","response":"b"}`, 501, "This server's history store does not keep human requests.")
}
