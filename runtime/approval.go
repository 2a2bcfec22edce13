package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// Approval, the pipeline's last step before the handler (see
// Tool.Approval): a call of a tool that needs an operator's approval files
// a human request under its invocation id and waits for a person's answer;
// one that needs its client's approval asks the client's user.

// DefaultApprovalTimeout is how long a call waits for an operator's
// approval when Options.ApprovalTimeout is zero.
const DefaultApprovalTimeout = 10 * time.Minute

// ScopeApprovals is the scope a principal needs to answer a tool's
// approval request (and to see every caller's human requests); the
// caller of a tool can never approve its own call.
const ScopeApprovals = "approvals"

// Answers of an approval request.
const (
	answerApprove = "approve"
	answerReject  = "reject"
)

// approvalOf is who must approve t's calls: its own Approval, else an
// operator for a destructive tool when Options.ApproveDestructive says so.
func (s *Server) approvalOf(t *Tool) Approval {
	if t.Approval != "" {
		return t.Approval
	}
	if s.opts.ApproveDestructive && t.Annotations != nil && t.Annotations.DestructiveHint != nil && *t.Annotations.DestructiveHint {
		return ApprovalOperator
	}
	return ""
}

func (s *Server) approvalTimeout() time.Duration {
	if s.opts.ApprovalTimeout > 0 {
		return s.opts.ApprovalTimeout
	}
	return DefaultApprovalTimeout
}

// approvalError is a call refused by its approval step: Message for the
// caller; err, when set, the cause it wraps (a missing client capability,
// which MCP at 2026-07-28 answers with its own error).
type approvalError struct {
	ToolError
	err error
}

func (e *approvalError) Unwrap() []error { return []error{&e.ToolError, e.err} }

func refusedApproval(err error, format string, args ...any) *approvalError {
	return &approvalError{ToolError: ToolError{Message: fmt.Sprintf(format, args...)}, err: err}
}

// approve runs the approval step of a call of t with args: nil and no
// decision when t needs none; the decision (for the record) and nil when
// the call may run; else an error that says why it may not, for the
// caller.
func (s *Server) approve(ctx context.Context, c *Call, t *Tool, args json.RawMessage) (*history.Approval, error) {
	switch s.approvalOf(t) {
	case ApprovalOperator:
		return s.approveByOperator(ctx, c, t, args)
	case ApprovalClient:
		return s.approveByClient(ctx, t, args)
	}
	return nil, nil
}

// approveStep is approve, traced as a step of c when t needs approval.
func (s *Server) approveStep(ctx context.Context, c *Call, t *Tool, args json.RawMessage) (*history.Approval, error) {
	if s.approvalOf(t) == "" {
		return nil, nil
	}
	ctx, end := c.step(ctx, StepApproval)
	appr, err := s.approve(ctx, c, t, args)
	end(err)
	return appr, err
}

// approveByOperator files the call's approval request and waits for its
// answer.
func (s *Server) approveByOperator(ctx context.Context, c *Call, t *Tool, args json.RawMessage) (*history.Approval, error) {
	humans, ok := s.history.(history.Humans)
	switch {
	case s.opts.AuthHook == nil:
		// Without an auth hook every request is the one caller's, who
		// may not approve its own call: nobody could ever answer.
		return nil, refusedApproval(nil, "Tool %s needs an operator's approval, and this server has no auth hook to tell an operator from the caller; it was not run.", t.Name)
	case !ok:
		return nil, refusedApproval(nil, "Tool %s needs an operator's approval, and this server's history store cannot keep approval requests; it was not run.", t.Name)
	}
	timeout := s.approvalTimeout()
	req := &history.Request{
		ID:             c.InvocationID,
		Type:           "approval",
		Prompt:         fmt.Sprintf("Approve the call of %s?", t.Name),
		Options:        []string{answerApprove, answerReject},
		Context:        s.approvalContext(ctx, c, t, args),
		TimeoutSeconds: int(math.Ceil(timeout.Seconds())),
		CreatedAt:      time.Now(),
		Tool:           t.Name,
	}
	if c.CorrelationID != "" {
		req.CorrelationID = &c.CorrelationID
	}
	req.Caller = s.callerRef(ctx)
	var (
		wctx   writeContext
		forged bool
	)
	created := s.write(ctx, &wctx, time.Now(), "approval request", func(ctx context.Context) error {
		err := humans.CreateRequest(ctx, req)
		if errors.Is(err, history.ErrExists) {
			forged = true // not the store's failure
			return nil
		}
		return err
	})
	switch {
	case forged:
		// A request under this call's id that this call did not file
		// (made through the API by someone who guessed the id) must not
		// decide it.
		s.log.WarnContext(ctx, "tool call refused: its approval request exists already", "tool", t.Name, "invocation_id", c.InvocationID)
		return nil, &ToolError{Message: fmt.Sprintf("A human request with the id of this call of %s exists already, so the call was not run.", t.Name)}
	case !created:
		return nil, errUnfiled{fmt.Sprintf("The approval request of this call of %s could not be filed, so it was not run; retry shortly.", t.Name)}
	}
	s.log.InfoContext(ctx, "tool call waits for approval", "tool", t.Name, "invocation_id", c.InvocationID, "timeout", timeout)
	resp, status, err := s.awaitAnswer(ctx, humans, req.ID, t, timeout)
	now := time.Now()
	switch {
	case err != nil && ctx.Err() != nil:
		// The caller went away (or gave up): nobody is left to answer.
		var cctx writeContext
		s.write(ctx, &cctx, now, "cancel approval request", func(wctx context.Context) error {
			return humans.CancelRequest(wctx, req.ID)
		})
		return &history.Approval{Decision: string(history.RequestCancelled), At: now}, &ToolError{Message: fmt.Sprintf("The call of %s was cancelled while it waited for approval.", t.Name)}
	case err != nil:
		return nil, errUnfiled{fmt.Sprintf("The approval of this call of %s could not be read, so it was not run; retry shortly.", t.Name)}
	case status == history.RequestExpired:
		return &history.Approval{Decision: string(history.RequestExpired), At: now}, &ToolError{Message: fmt.Sprintf("Nobody approved the call of %s within %s; it was not run.", t.Name, timeout)}
	case status == history.RequestCancelled:
		return &history.Approval{Decision: string(history.RequestCancelled), At: now}, &ToolError{Message: fmt.Sprintf("The approval request of this call of %s was cancelled; it was not run.", t.Name)}
	}
	decision := &history.Approval{Decision: resp.Response, By: resp.RespondedBy, At: resp.CreatedAt}
	if resp.Response != answerApprove {
		return decision, &ToolError{Message: fmt.Sprintf("The call of %s was rejected by %s; it was not run.", t.Name, who(resp.RespondedBy))}
	}
	s.log.InfoContext(ctx, "tool call approved", "tool", t.Name, "invocation_id", c.InvocationID, "by", who(resp.RespondedBy))
	return decision, nil
}

// errUnfiled is an approval the history store could not file or read:
// the call is refused retryably, as one it could not record.
type errUnfiled struct{ msg string }

func (e errUnfiled) Error() string { return e.msg }

func who(p *string) string {
	if p == nil || *p == "" {
		return "an operator"
	}
	return *p
}

// approvalContext is what the person deciding sees: the tool, the caller,
// the surface and the arguments, after Options.RedactHistory (secrets are
// never among them: a call carries those apart).
func (s *Server) approvalContext(ctx context.Context, c *Call, t *Tool, args json.RawMessage) json.RawMessage {
	r := history.Record{Tool: t.Name, Surface: c.Surface, Input: args}
	r.Caller = s.callerRef(ctx)
	red := s.redacted(&r)
	b, err := httpkit.Marshal(struct {
		Tool      string          `json:"tool"`
		Caller    *string         `json:"caller"`
		Surface   string          `json:"surface,omitempty"`
		Arguments json.RawMessage `json:"arguments"`
	}{t.Name, red.Caller, c.Surface, inputJSON(red.Input)})
	if err != nil {
		return nil
	}
	return b
}

// approvalPoll is how often a waiting call reads its request from the
// store: an answer given on another replica arrives within it. One given
// here wakes the call at once (see approvalWaiters).
const approvalPoll = time.Second

// awaitAnswer waits until request id is answered, expires or is
// cancelled, or ctx ends, telling an MCP caller how long it has waited
// meanwhile (progress notifications).
func (s *Server) awaitAnswer(ctx context.Context, humans history.Humans, id string, t *Tool, timeout time.Duration) (*history.Response, history.RequestStatus, error) {
	wake, done := s.waiters.wait(id)
	defer done()
	start := time.Now()
	// The request expires at the store's clock; past that and the time
	// its reads may take, stop waiting on a store that does not answer.
	giveUp := time.NewTimer(timeout + 2*s.historyTimeout())
	defer giveUp.Stop()
	tick := time.NewTicker(approvalPoll)
	defer tick.Stop()
	var lastErr error
	for {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.historyTimeout())
		req, resp, err := humans.GetRequest(rctx, id)
		cancel()
		switch {
		case err != nil:
			lastErr = err
			s.log.ErrorContext(ctx, "history store failed", "op", "read approval request", "err", err)
		case req.Status != history.RequestPending:
			return resp, req.Status, nil
		}
		waited := time.Since(start)
		_ = Progress(ctx, math.Floor(waited.Seconds()), math.Ceil(timeout.Seconds()), fmt.Sprintf("Waiting for an operator to approve %s (%s left)", t.Name, (timeout-waited).Round(time.Second)))
		select {
		case <-wake:
		case <-tick.C:
		case <-giveUp.C:
			if lastErr == nil {
				lastErr = errors.New("no answer from the history store")
			}
			return nil, "", lastErr
		case <-ctx.Done():
			return nil, "", ctx.Err()
		}
	}
}

// approvalWaiters wakes the calls waiting in this process for a request
// once it is answered here.
type approvalWaiters struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

// wait registers a waiter for id: wake is signalled when id is answered;
// done unregisters it.
func (w *approvalWaiters) wait(id string) (wake <-chan struct{}, done func()) {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	if w.m == nil {
		w.m = map[string]chan struct{}{}
	}
	w.m[id] = ch
	w.mu.Unlock()
	return ch, func() {
		w.mu.Lock()
		if w.m[id] == ch {
			delete(w.m, id)
		}
		w.mu.Unlock()
	}
}

// answered wakes the waiter for id, if any.
// NotifyAnswered tells the calls waiting for an operator's answer to the
// approval request id (Tool.Approval) that it was answered: a surface
// that records an answer in the history store calls it, so that the call
// goes on at once rather than at its next look at the store.
func (s *Server) NotifyAnswered(id string) { s.waiters.answered(id) }

func (w *approvalWaiters) answered(id string) {
	w.mu.Lock()
	ch := w.m[id]
	w.mu.Unlock()
	if ch != nil {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// approveByClient asks the calling client's user whether the call may run.
func (s *Server) approveByClient(ctx context.Context, t *Tool, args json.RawMessage) (*history.Approval, error) {
	res, err := Elicit(ctx, fmt.Sprintf("Allow the tool %s to run with these arguments?\n%s", t.Name, inputJSON(args)), approvalSchema(t.Name))
	switch {
	case errors.Is(err, ErrInputRequired):
		return nil, err // asked: the client answers in its next round
	case errors.Is(err, ErrNoSession):
		return nil, refusedApproval(err, "Tool %s runs only once its caller's user approves the call, which only an MCP client that supports elicitation can ask; it was not run.", t.Name)
	case errors.Is(err, ErrUnsupported):
		return nil, refusedApproval(err, "Tool %s runs only once its caller's user approves the call, and this client does not support elicitation; it was not run.", t.Name)
	case err != nil:
		return nil, refusedApproval(err, "Tool %s could not ask its caller's user to approve the call; it was not run.", t.Name)
	}
	by := s.callerRef(ctx)
	if res != nil && res.Action == "accept" {
		if yes, _ := res.Content["approve"].(bool); yes {
			return &history.Approval{Decision: answerApprove, By: by, At: time.Now()}, nil
		}
	}
	return &history.Approval{Decision: answerReject, By: by, At: time.Now()}, &ToolError{Message: fmt.Sprintf("The user declined the call of %s; it was not run.", t.Name)}
}

// approvalSchema is what the client's user is asked to approve a call
// with.
func approvalSchema(tool string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"approve": map[string]any{"type": "boolean", "title": "Run " + tool, "description": "Yes to run the tool, no to refuse."},
		},
		"required": []string{"approve"},
	})
	return b
}

// warnUnapprovable logs, once, the tools of a fixed list that need an
// operator's approval which nobody can give on this server: their calls
// are refused.
func (s *Server) warnUnapprovable() {
	var names []string
	for _, t := range s.static {
		if s.approvalOf(t) == ApprovalOperator {
			names = append(names, t.Name)
		}
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	if s.opts.AuthHook == nil {
		s.log.Warn("tools need an operator's approval, but the server has no auth hook to tell an operator from the caller: their calls are refused", "tools", strings.Join(names, " "))
	} else if _, ok := s.history.(history.Humans); !ok {
		s.log.Warn("tools need an operator's approval, but the history store cannot keep approval requests: their calls are refused", "tools", strings.Join(names, " "))
	}
}
