package qmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/uuid"
)

// The /v1 human-in-the-loop API (qmcp's): a workflow asks a person a
// question and polls for the answer; the person answers here or in the
// explorer's Approvals tab. It is also how an operator answers a tool's
// approval request (Tool.Approval). Requests live in the history store,
// which must implement [history.Humans] (the memory, SQLite and
// PostgreSQL stores do); with one that does not, the endpoints answer 501.
//
//	POST /v1/human/requests       201 {id, request_type, prompt, status, created_at, expires_at}
//	GET  /v1/human/requests       {"requests": [...], "count": N, "total": M}, newest first
//	GET  /v1/human/requests/{id}  {"request": {...}, "response": {...} | null}
//	POST /v1/human/responses      201 {id, request_id, response, responded_by, created_at}
//
// Who sees and answers what, behind an auth hook: a principal with the
// scope [ScopeApprovals] (or [ScopeHistoryRead], to read) sees every
// request; any other sees the requests it made, its own calls' approval
// requests among them. A request made through the API may be answered by
// whoever sees it. A tool's approval request may be answered only by a
// principal with the scope [ScopeApprovals] that is not the caller, and
// its responded_by is that principal's subject, whatever the body says.
// Without an auth hook there is one caller: it sees and answers every
// request, but for tools' approval requests, which nobody can answer (so
// such tools refuse their calls at once; see Tool.Approval).

// Bounds of a request's timeout_seconds, as qmcp's.
const (
	minHumanTimeout     = 60
	maxHumanTimeout     = 86400
	defaultHumanTimeout = 3600
)

// humanStore is the history store's human requests, or a 501.
func (h *handler) humanStore() (history.Humans, error) {
	humans, ok := h.srv.History().(history.Humans)
	if !ok {
		return nil, httpkit.Refuse(http.StatusNotImplemented, "This server's history store does not keep human requests.")
	}
	return humans, nil
}

// humanScope is whose human requests the caller ctx names may see: nil
// for all, else the requests it made.
func (h *handler) humanScope(ctx context.Context) *string {
	return h.ownUnless(ctx, runtime.ScopeApprovals, runtime.ScopeHistoryRead)
}

// humanCreateBody is the body of POST /v1/human/requests.
type humanCreateBody struct {
	ID             *string         `json:"id"`
	RequestType    *string         `json:"request_type"`
	Prompt         *string         `json:"prompt"`
	Options        []string        `json:"options"`
	Context        json.RawMessage `json:"context"`
	TimeoutSeconds *int            `json:"timeout_seconds"`
	CorrelationID  *string         `json:"correlation_id"`
}

func (h *handler) humanRequests(rq *httpkit.Request) error {
	if rq.R.Method == http.MethodPost {
		return h.createHumanRequest(rq)
	}
	return h.listHumanRequests(rq)
}

func (h *handler) createHumanRequest(rq *httpkit.Request) error {
	humans, err := h.humanStore()
	if err != nil {
		return err
	}
	var b humanCreateBody
	if err := httpkit.DecodeEnvelope(rq.Body, &b, false); err != nil {
		return httpkit.Refuse(http.StatusUnprocessableEntity, "The body must be a JSON object with id, request_type and prompt; %s.", err.Error())
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"id", b.ID}, {"request_type", b.RequestType}, {"prompt", b.Prompt}} {
		if f.v == nil || *f.v == "" {
			return httpkit.Refuse(http.StatusUnprocessableEntity, "%q is required.", f.name)
		}
	}
	if !httpkit.ValidBodyID(*b.ID) || !httpkit.ValidBodyID(*b.RequestType) {
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"id" and "request_type" must be at most %d characters, none of them control characters.`, httpkit.MaxIDLength)
	}
	if b.CorrelationID != nil && !httpkit.ValidBodyID(*b.CorrelationID) {
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"correlation_id" must be at most %d characters, none of them control characters.`, httpkit.MaxIDLength)
	}
	if ctx := bytes.TrimSpace(b.Context); len(ctx) > 0 && string(ctx) != "null" && ctx[0] != '{' {
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"context" must be an object.`)
	}
	timeout := defaultHumanTimeout
	if b.TimeoutSeconds != nil {
		timeout = *b.TimeoutSeconds
	}
	if timeout < minHumanTimeout || timeout > maxHumanTimeout {
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"timeout_seconds" must be between %d and %d.`, minHumanTimeout, maxHumanTimeout)
	}
	req := &history.Request{
		ID: *b.ID, Type: *b.RequestType, Prompt: *b.Prompt, Options: b.Options,
		TimeoutSeconds: timeout, CreatedAt: time.Now(), CorrelationID: b.CorrelationID,
	}
	if ctx := bytes.TrimSpace(b.Context); len(ctx) > 0 && string(ctx) != "null" {
		req.Context = ctx
	}
	req.Caller = h.callerRef(rq.Ctx)
	switch err := humans.CreateRequest(rq.Ctx, req); {
	case errors.Is(err, history.ErrExists):
		return httpkit.Refuse(http.StatusConflict, "Request with ID '%s' already exists", req.ID)
	case err != nil:
		h.log.ErrorContext(rq.Ctx, "history store failed", "op", "create human request", "err", err)
		return httpkit.Refuse(http.StatusServiceUnavailable, msgHumansUnavailable)
	}
	// What the store keeps (its times truncated), as it will read back.
	c, _ := history.CheckRequest(req)
	httpkit.WriteJSON(rq.W, http.StatusCreated, struct {
		ID          string                `json:"id"`
		RequestType string                `json:"request_type"`
		Prompt      string                `json:"prompt"`
		Status      history.RequestStatus `json:"status"`
		CreatedAt   string                `json:"created_at"`
		ExpiresAt   string                `json:"expires_at"`
	}{c.ID, c.Type, c.Prompt, c.Status, c.CreatedAt.Format(history.TimeLayout), c.ExpiresAt.Format(history.TimeLayout)})
	return nil
}

const msgHumansUnavailable = "The human requests are unavailable."

func (h *handler) listHumanRequests(rq *httpkit.Request) error {
	humans, err := h.humanStore()
	if err != nil {
		return err
	}
	q, err := httpkit.Query(rq.R, http.StatusUnprocessableEntity)
	if err != nil {
		return err
	}
	f := history.RequestFilter{Status: q.Get("status"), Type: q.Get("request_type")}
	if err := pageParams(q.Get("limit"), q.Get("offset"), &f.Limit, &f.Offset); err != nil {
		return err
	}
	f, err = f.Normalize()
	if err != nil {
		return httpkit.Refuse(http.StatusUnprocessableEntity, strings.TrimPrefix(err.Error(), "history: "))
	}
	f.Caller = h.humanScope(rq.Ctx)
	reqs, total, err := humans.ListRequests(rq.Ctx, f)
	if err != nil {
		h.log.ErrorContext(rq.Ctx, "history store failed", "op", "list human requests", "err", err)
		return httpkit.Refuse(http.StatusServiceUnavailable, msgHumansUnavailable)
	}
	if reqs == nil {
		reqs = []history.Request{}
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Requests []history.Request `json:"requests"`
		Count    int               `json:"count"`
		Total    int               `json:"total"`
	}{reqs, len(reqs), total})
	return nil
}

// pageParams reads a list's limit and offset query parameters; an
// explicit limit of 0 is out of range, not the default.
func pageParams(limit, offset string, l, o *int) error {
	for _, p := range []struct {
		name, v string
		dst     *int
	}{{"limit", limit, l}, {"offset", offset, o}} {
		if p.v == "" {
			continue
		}
		n, err := strconv.Atoi(p.v)
		if err != nil {
			return httpkit.Refuse(http.StatusUnprocessableEntity, "%s must be an integer, not %q", p.name, httpkit.Truncate(p.v, 40))
		}
		// Checked here, not left to the store's filter: there a limit of
		// 0 means the default, and the message would not name the one
		// the caller gave.
		if p.name == "limit" && (n < 1 || n > history.MaxLimit) {
			return httpkit.Refuse(http.StatusUnprocessableEntity, "limit %d is not between 1 and %d", n, history.MaxLimit)
		}
		*p.dst = n
	}
	return nil
}

// visibleRequest reads request id as the caller ctx may see it: another
// caller's request is not found, as its invocations are not.
func (h *handler) visibleRequest(ctx context.Context, humans history.Humans, id string) (*history.Request, *history.Response, error) {
	req, resp, err := humans.GetRequest(ctx, id)
	if scope := h.humanScope(ctx); err == nil && scope != nil && (req.Caller == nil || *req.Caller != *scope) {
		err = history.ErrRequestNotFound
	}
	switch {
	case errors.Is(err, history.ErrRequestNotFound):
		return nil, nil, httpkit.Refuse(http.StatusNotFound, "Request '%s' not found", httpkit.Truncate(id, httpkit.MaxIDLength))
	case err != nil:
		h.log.ErrorContext(ctx, "history store failed", "op", "get human request", "err", err)
		return nil, nil, httpkit.Refuse(http.StatusServiceUnavailable, msgHumansUnavailable)
	}
	return req, resp, nil
}

func (h *handler) getHumanRequest(rq *httpkit.Request) error {
	humans, err := h.humanStore()
	if err != nil {
		return err
	}
	req, resp, err := h.visibleRequest(rq.Ctx, humans, rq.R.PathValue("id"))
	if err != nil {
		return err
	}
	httpkit.WriteJSON(rq.W, http.StatusOK, struct {
		Request  *history.Request  `json:"request"`
		Response *history.Response `json:"response"`
	}{req, resp})
	return nil
}

// humanRespondBody is the body of POST /v1/human/responses.
type humanRespondBody struct {
	RequestID   *string         `json:"request_id"`
	Response    *string         `json:"response"`
	RespondedBy *string         `json:"responded_by"`
	Metadata    json.RawMessage `json:"response_metadata"`
}

func (h *handler) respondHuman(rq *httpkit.Request) error {
	humans, err := h.humanStore()
	if err != nil {
		return err
	}
	var b humanRespondBody
	if err := httpkit.DecodeEnvelope(rq.Body, &b, false); err != nil {
		return httpkit.Refuse(http.StatusUnprocessableEntity, "The body must be a JSON object with request_id and response; %s.", err.Error())
	}
	switch {
	case b.RequestID == nil || *b.RequestID == "":
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"request_id" is required.`)
	case b.Response == nil:
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"response" is required.`)
	case b.RespondedBy != nil && !httpkit.ValidBodyID(*b.RespondedBy):
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"responded_by" must be at most %d characters, none of them control characters.`, httpkit.MaxIDLength)
	}
	if m := bytes.TrimSpace(b.Metadata); len(m) > 0 && string(m) != "null" && m[0] != '{' {
		return httpkit.Refuse(http.StatusUnprocessableEntity, `"response_metadata" must be an object.`)
	}
	req, _, err := h.visibleRequest(rq.Ctx, humans, *b.RequestID)
	if err != nil {
		return err
	}
	by, err := h.responder(rq.Ctx, req, b.RespondedBy)
	if err != nil {
		return err
	}
	if err := answerError(history.Answerable(req.Status)); err != nil {
		return err
	}
	// Options are checked when set; an empty list sets none, as the
	// reference server's "if request.options" reads it.
	if len(req.Options) > 0 && !slices.Contains(req.Options, *b.Response) {
		return httpkit.Refuse(http.StatusBadRequest, "Response must be one of: %s", pythonList(req.Options))
	}
	resp := &history.Response{ID: uuid.New(), RequestID: req.ID, Response: *b.Response, RespondedBy: by, CreatedAt: time.Now()}
	if m := bytes.TrimSpace(b.Metadata); len(m) > 0 && string(m) != "null" {
		resp.Metadata = m
	}
	if err := humans.Respond(rq.Ctx, resp); err != nil {
		if he := answerError(err); he != nil && !errors.Is(he, errStoreFailed) {
			return he // answered, expired or withdrawn meanwhile
		}
		h.log.ErrorContext(rq.Ctx, "history store failed", "op", "respond", "err", err)
		return httpkit.Refuse(http.StatusServiceUnavailable, msgHumansUnavailable)
	}
	h.srv.NotifyAnswered(req.ID)
	if req.Tool != "" {
		h.log.InfoContext(rq.Ctx, "approval answered", "tool", req.Tool, "invocation_id", req.ID, "answer", resp.Response, "by", who(by))
	}
	c, _ := history.CheckResponse(resp)
	httpkit.WriteJSON(rq.W, http.StatusCreated, struct {
		ID          string  `json:"id"`
		RequestID   string  `json:"request_id"`
		Response    string  `json:"response"`
		RespondedBy *string `json:"responded_by"`
		CreatedAt   string  `json:"created_at"`
	}{c.ID, c.RequestID, c.Response, c.RespondedBy, c.CreatedAt.Format(history.TimeLayout)})
	return nil
}

var errStoreFailed = errors.New("store failed")

// answerError is the HTTP refusal of an answer to a request that cannot
// take one (see [history.Humans.Respond]); nil for nil; one wrapping
// errStoreFailed for any other error.
func answerError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, history.ErrRequestNotFound):
		return httpkit.Refuse(http.StatusNotFound, "Request not found")
	case errors.Is(err, history.ErrResponded):
		return httpkit.Refuse(http.StatusConflict, "Request has already been responded to")
	case errors.Is(err, history.ErrExpired):
		return httpkit.Refuse(http.StatusGone, "Request has expired")
	case errors.Is(err, history.ErrCancelled):
		return httpkit.Refuse(http.StatusConflict, "Request has been cancelled")
	}
	return errors.Join(errStoreFailed, err)
}

// responder is who answers req, as its response records it: for a tool's
// approval request, the principal, who must hold the scope approvals and
// not be the caller; for any other, who the body names, else the
// principal.
func (h *handler) responder(ctx context.Context, req *history.Request, named *string) (*string, error) {
	p, _ := runtime.PrincipalFromContext(ctx)
	sub := h.callerRef(ctx)
	if req.Tool == "" {
		if named != nil && *named != "" {
			return named, nil
		}
		return sub, nil
	}
	switch {
	case !h.hasHook || !p.HasScopes(runtime.ScopeApprovals):
		return nil, &httpkit.Error{Status: http.StatusForbidden, Msg: `Answering the approval of a tool's call needs the scope "approvals".`,
			Header: map[string]string{"WWW-Authenticate": `Bearer error="insufficient_scope", scope="` + runtime.ScopeApprovals + `"`}}
	case sub == nil || req.Caller != nil && *req.Caller == *sub:
		return nil, httpkit.Refuse(http.StatusForbidden, "The caller of a tool cannot approve its own call.")
	}
	return sub, nil
}

// pythonList writes a list of strings as Python prints one, which is how
// qmcp's messages show the options of a request: ['approve', 'reject'].
func pythonList(xs []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		if strings.Contains(x, "'") && !strings.Contains(x, `"`) {
			b.WriteString(`"` + x + `"`)
			continue
		}
		b.WriteString("'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(x) + "'")
	}
	b.WriteByte(']')
	return b.String()
}

// callerRef is the caller's identity as history keeps it: nil for the
// anonymous caller.
func (h *handler) callerRef(ctx context.Context) *string {
	if id := h.srv.CallerID(ctx); id != "" {
		return &id
	}
	return nil
}

// who names who answered, for the log.
func who(p *string) string {
	if p == nil || *p == "" {
		return "an operator"
	}
	return *p
}
