package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// qmcp's Python client (qmcp/client/mcp_client.py) drives the human-in-
// the-loop API with five methods. pyClient makes the same HTTP calls, in
// the same order, with the same bodies, reads the fields they read, and
// raises where they raise (a Go error here), so that the client works
// unchanged against this server. It sends no credentials, as qmcp's
// client does not.
type pyClient struct {
	t    *testing.T
	base string
}

type pyHumanRequest struct {
	ID, RequestType, Prompt, Status, CreatedAt string
	ExpiresAt                                  *string
	Options                                    []string
	Context                                    map[string]any
}

type pyHumanResponse struct {
	ID, RequestID, Response string
	RespondedBy             *string
	CreatedAt               string
}

// do sends a JSON body (nil: none) and decodes a JSON answer.
func (c *pyClient) do(method, path string, payload any) (int, map[string]any) {
	c.t.Helper()
	var body io.Reader
	if payload != nil {
		b, _ := json.Marshal(payload)
		body = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, body)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var data map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &data); err != nil {
		c.t.Fatalf("%s %s: not a JSON object: %s", method, path, raw)
	}
	return resp.StatusCode, data
}

// str is data[key] as a string, failing as Python's data["key"] would.
func (c *pyClient) str(data map[string]any, key string) string {
	c.t.Helper()
	v, ok := data[key].(string)
	if !ok {
		c.t.Fatalf("data[%q] = %#v, not a string: %v", key, data[key], data)
	}
	return v
}

// optStr is data.get(key): absent or null is nil.
func (c *pyClient) optStr(data map[string]any, key string) *string {
	c.t.Helper()
	switch v := data[key].(type) {
	case nil:
		return nil
	case string:
		return &v
	default:
		c.t.Fatalf("data[%q] = %#v, not a string", key, v)
	}
	return nil
}

// raiseForStatus is httpx's: any 4xx or 5xx raises.
func raiseForStatus(code int, data map[string]any) error {
	if code >= 400 {
		return fmt.Errorf("HTTP %d: %v", code, data)
	}
	return nil
}

func (c *pyClient) createHumanRequest(id, typ, prompt string, options []string, context map[string]any, timeoutSeconds int, correlationID string) (*pyHumanRequest, error) {
	payload := map[string]any{"id": id, "request_type": typ, "prompt": prompt, "timeout_seconds": timeoutSeconds}
	if len(options) > 0 {
		payload["options"] = options
	}
	if len(context) > 0 {
		payload["context"] = context
	}
	if correlationID != "" {
		payload["correlation_id"] = correlationID
	}
	code, data := c.do("POST", "/v1/human/requests", payload)
	if code == 409 {
		return nil, fmt.Errorf("HumanRequestConflictError: Request ID '%s' already exists", id)
	}
	if err := raiseForStatus(code, data); err != nil {
		return nil, err
	}
	return &pyHumanRequest{ID: c.str(data, "id"), RequestType: c.str(data, "request_type"), Prompt: c.str(data, "prompt"),
		Status: c.str(data, "status"), CreatedAt: c.str(data, "created_at"), ExpiresAt: c.optStr(data, "expires_at")}, nil
}

func (c *pyClient) getHumanRequest(id string) (*pyHumanRequest, *pyHumanResponse, error) {
	code, data := c.do("GET", "/v1/human/requests/"+id, nil)
	if code == 404 {
		return nil, nil, fmt.Errorf("MCPClientError: Request '%s' not found", id)
	}
	if err := raiseForStatus(code, data); err != nil {
		return nil, nil, err
	}
	rd, ok := data["request"].(map[string]any)
	if !ok {
		c.t.Fatalf(`data["request"] is not an object: %v`, data)
	}
	req := &pyHumanRequest{ID: c.str(rd, "id"), RequestType: c.str(rd, "request_type"), Prompt: c.str(rd, "prompt"),
		Status: c.str(rd, "status"), CreatedAt: c.str(rd, "created_at"), ExpiresAt: c.optStr(rd, "expires_at")}
	if opts, ok := rd["options"].([]any); ok {
		for _, o := range opts {
			req.Options = append(req.Options, o.(string))
		}
	}
	req.Context, _ = rd["context"].(map[string]any)
	var resp *pyHumanResponse
	if r, ok := data["response"].(map[string]any); ok && len(r) > 0 { // if data.get("response")
		resp = &pyHumanResponse{ID: c.str(r, "id"), RequestID: c.str(r, "request_id"), Response: c.str(r, "response"),
			RespondedBy: c.optStr(r, "responded_by"), CreatedAt: c.str(r, "created_at")}
	}
	return req, resp, nil
}

func (c *pyClient) submitHumanResponse(id, response, respondedBy string, metadata map[string]any) (*pyHumanResponse, error) {
	payload := map[string]any{"request_id": id, "response": response}
	if respondedBy != "" {
		payload["responded_by"] = respondedBy
	}
	if len(metadata) > 0 {
		payload["response_metadata"] = metadata
	}
	code, data := c.do("POST", "/v1/human/responses", payload)
	switch code {
	case 404:
		return nil, fmt.Errorf("MCPClientError: Request '%s' not found", id)
	case 410:
		return nil, fmt.Errorf("HumanRequestExpiredError: Request '%s' has expired", id)
	}
	if err := raiseForStatus(code, data); err != nil {
		return nil, err
	}
	return &pyHumanResponse{ID: c.str(data, "id"), RequestID: c.str(data, "request_id"), Response: c.str(data, "response"),
		RespondedBy: c.optStr(data, "responded_by"), CreatedAt: c.str(data, "created_at")}, nil
}

func (c *pyClient) waitForHumanResponse(id string, poll, timeout time.Duration) (*pyHumanResponse, error) {
	start := time.Now()
	for {
		req, resp, err := c.getHumanRequest(id)
		if err != nil {
			return nil, err
		}
		if resp != nil {
			return resp, nil
		}
		if req.Status == "expired" {
			return nil, fmt.Errorf("HumanRequestExpiredError: Request '%s' expired without response", id)
		}
		if time.Since(start) >= timeout {
			return nil, fmt.Errorf("TimeoutError: Timeout waiting for response to '%s'", id)
		}
		time.Sleep(poll)
	}
}

func (c *pyClient) requestHumanApproval(id, prompt string, options []string, context map[string]any, timeoutSeconds int, poll, wait time.Duration) (*pyHumanResponse, error) {
	if _, err := c.createHumanRequest(id, "approval", prompt, options, context, timeoutSeconds, ""); err != nil {
		return nil, err
	}
	return c.waitForHumanResponse(id, poll, wait)
}

func TestHumanAsQMCPClientUsesIt(t *testing.T) {
	hs := httptest.NewServer(newServer(t, "operator-token"))
	defer hs.Close()
	client := &pyClient{t: t, base: hs.URL}

	// create_human_request, then a repeat of its id.
	req, err := client.createHumanRequest("deploy-001", "approval", "Deploy to production?", []string{"approve", "reject"}, map[string]any{"version": "1.4.2"}, 3600, "wf-9")
	if err != nil {
		t.Fatal(err)
	}
	if req.ID != "deploy-001" || req.Status != "pending" || req.ExpiresAt == nil || req.RequestType != "approval" {
		t.Errorf("create_human_request: %+v", req)
	}
	if _, err := client.createHumanRequest("deploy-001", "approval", "Again?", nil, nil, 3600, ""); err == nil || !strings.HasPrefix(err.Error(), "HumanRequestConflictError") {
		t.Errorf("a repeated id: %v", err)
	}

	// get_human_request: pending, with its options and context.
	got, resp, err := client.getHumanRequest("deploy-001")
	if err != nil || resp != nil || got.Status != "pending" || strings.Join(got.Options, ",") != "approve,reject" || got.Context["version"] != "1.4.2" {
		t.Errorf("get_human_request: %+v %+v %v", got, resp, err)
	}
	if _, _, err := client.getHumanRequest("nope"); err == nil || !strings.HasPrefix(err.Error(), "MCPClientError") {
		t.Errorf("an unknown request: %v", err)
	}

	// wait_for_human_response polls while a person answers
	// (submit_human_response from another client).
	answered := make(chan *pyHumanResponse, 1)
	go func() {
		r, err := client.waitForHumanResponse("deploy-001", 20*time.Millisecond, time.Minute)
		if err != nil {
			t.Error(err)
		}
		answered <- r
	}()
	person := &pyClient{t: t, base: hs.URL}
	sub, err := person.submitHumanResponse("deploy-001", "approve", "alice", map[string]any{"note": "go"})
	if err != nil || sub.Response != "approve" || sub.RespondedBy == nil || *sub.RespondedBy != "alice" || sub.RequestID != "deploy-001" {
		t.Fatalf("submit_human_response: %+v %v", sub, err)
	}
	if r := <-answered; r == nil || r.ID != sub.ID || r.Response != "approve" || r.CreatedAt != sub.CreatedAt {
		t.Errorf("wait_for_human_response: %+v, want %+v", r, sub)
	}
	if _, err := person.submitHumanResponse("deploy-001", "reject", "", nil); err == nil || !strings.Contains(err.Error(), "HTTP 409") {
		t.Errorf("a second answer: %v", err)
	}
	if _, err := person.submitHumanResponse("nope", "approve", "", nil); err == nil || !strings.HasPrefix(err.Error(), "MCPClientError") {
		t.Errorf("an answer to an unknown request: %v", err)
	}

	// request_human_approval: create, then wait.
	approval := make(chan *pyHumanResponse, 1)
	go func() {
		r, err := client.requestHumanApproval("release-7", "Release 7?", []string{"approve", "reject"}, nil, 600, 20*time.Millisecond, time.Minute)
		if err != nil {
			t.Error(err)
		}
		approval <- r
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, _, err := person.getHumanRequest("release-7"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("release-7 was not created in 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := person.submitHumanResponse("release-7", "reject", "bob", nil); err != nil {
		t.Fatal(err)
	}
	if r := <-approval; r == nil || r.Response != "reject" || *r.RespondedBy != "bob" {
		t.Errorf("request_human_approval: %+v", r)
	}
}

// The example's own approval round trip, as its README tells it with
// curl: an anonymous caller's deploy waits until the operator approves.
func TestDeployWaitsForTheOperator(t *testing.T) {
	hs := httptest.NewServer(newServer(t, "operator-token"))
	defer hs.Close()
	type answer struct {
		code int
		body string
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := http.Post(hs.URL+"/v1/tools/deploy", "application/json", strings.NewReader(`{"input":{"service":"api","environment":"production"}}`))
		if err != nil {
			done <- answer{0, err.Error()}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- answer{resp.StatusCode, string(b)}
	}()
	operator := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer operator-token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	var id string
	deadline := time.Now().Add(30 * time.Second)
	for id == "" {
		_, body := operator("GET", "/v1/human/requests?status=pending&request_type=approval", "")
		var page struct {
			Requests []struct {
				ID      string
				Context struct {
					Tool, Caller string
					Arguments    map[string]string
				}
			}
		}
		json.Unmarshal([]byte(body), &page)
		for _, r := range page.Requests {
			if r.Context.Tool == "deploy" && r.Context.Caller == "anonymous" && r.Context.Arguments["environment"] == "production" {
				id = r.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pending approval of deploy in 30s: %s", body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The caller may not approve its own call.
	resp, err := http.Post(hs.URL+"/v1/human/responses", "application/json", strings.NewReader(`{"request_id":"`+id+`","response":"approve"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("the caller answered its own approval: %d", resp.StatusCode)
	}
	if code, body := operator("POST", "/v1/human/responses", `{"request_id":"`+id+`","response":"approve"}`); code != 201 || !strings.Contains(body, `"responded_by":"operator"`) {
		t.Fatalf("the operator's approval: %d %s", code, body)
	}
	a := <-done
	if a.code != 200 || !strings.Contains(a.body, `"result":{"service":"api","environment":"production","status":"deployed"}`) {
		t.Fatalf("the approved deploy: %d %s", a.code, a.body)
	}
	if _, body := operator("GET", "/v1/invocations/"+id, ""); !strings.Contains(body, `"approval":{"decision":"approve","by":"operator"`) {
		t.Errorf("the record: %s", body)
	}
}

// newServer is the example's server, as main configures it.
func newServer(t *testing.T, operatorToken string) http.Handler {
	t.Helper()
	o := options(operatorToken)
	o.Logger = slog.New(slog.DiscardHandler)
	return serve.NewHandler(runtime.NewServer(Tools(), o), nil)
}
