package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// MCP tasks: the extension io.modelcontextprotocol/tasks (SEP-2663), at
// protocol 2026-07-28. A tools/call of a tool with Tool.Task set, from a
// client that declares the extension in the request's capabilities, is
// answered at once with a CreateTaskResult; the call runs on, and the
// client polls tasks/get, answers the tool's questions with tasks/update,
// and may stop it with tasks/cancel.
//
// A task is the call's invocation record: the task id is the invocation
// id (a random UUID), the CreateTaskResult is sent once the pending record
// is written, and tasks/get reads the record from the history store, so
// that it answers after a restart and on every replica sharing the store
// (a task whose process died reads as failed, "interrupted", once its
// record's deadline has passed). Only the caller that created a task can
// see it: anyone else is told it does not exist. What only the process
// running the task knows (its questions waiting for an answer, its exact
// result, cancelling it) is kept in that process, in the server's task
// table, until the task expires.
//
// The extension is not defined at protocol 2025-11-25 and before: there
// a tool with Tool.Task runs as an ordinary call, as it does over stdio,
// which has no tasks/* methods.

// tasksExtension is the extension's identifier, in capabilities.
const tasksExtension = "io.modelcontextprotocol/tasks"

// Defaults of Options' task settings.
const (
	// DefaultTaskTTL is how long a task can be read after it was created
	// (Options.TaskTTL): a task still running then is cancelled, and
	// tasks/get no longer finds it (its invocation record stays).
	DefaultTaskTTL = time.Hour
	// DefaultTaskPollInterval is the polling interval a task suggests.
	DefaultTaskPollInterval = 500 * time.Millisecond
)

func (s *server) taskTTL() time.Duration {
	if d := s.mopts.TaskTTL; d > 0 {
		return d
	}
	return DefaultTaskTTL
}

func (s *server) taskPollInterval() time.Duration {
	if d := s.mopts.TaskPollInterval; d > 0 {
		return d
	}
	return DefaultTaskPollInterval
}

// StartTask makes the MCP call a tool runs for a task now, when it runs as
// one, and does nothing otherwise. A task tool's call becomes a task when
// its handler starts, unless the tool sets Tool.TaskDeferred: then it is an
// ordinary call (whose questions to the client go in input-required
// results, see [Ask]) until its handler calls StartTask, which answers the
// client with the task and returns; the handler goes on as the task, its
// questions now answered through tasks/update.
func StartTask(ctx context.Context) {
	c := mcpCallOf(ctx)
	if c == nil || c.task == nil {
		return
	}
	if call, ok := runtime.CallFromContext(ctx); ok && call.InvocationID != "" {
		c.task.escalate(call.InvocationID)
	}
}

// msgTaskCancelled is the error a cancelled task's record keeps.
const msgTaskCancelled = "The task was cancelled."

// msgTaskExpired is the error of a task still running when its TTL ends.
const msgTaskExpired = "The task expired before it finished."

// taskTable holds the tasks this process runs, by id.
type taskTable struct {
	mu    sync.Mutex
	tasks map[string]*taskRun
}

func (tt *taskTable) add(r *taskRun) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.tasks == nil {
		tt.tasks = map[string]*taskRun{}
	}
	now := time.Now()
	for id, old := range tt.tasks {
		if old.expired(now) {
			delete(tt.tasks, id)
		}
	}
	tt.tasks[r.id] = r
}

func (tt *taskTable) get(id string) *taskRun {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	r := tt.tasks[id]
	if r != nil && r.expired(time.Now()) {
		delete(tt.tasks, id)
		return nil
	}
	return r
}

// taskRun is a task this process runs, or a call that may become one.
type taskRun struct {
	srv      *server
	tool     *runtime.Tool
	deferred bool
	ttl      time.Duration
	cancel   context.CancelCauseFunc
	// started is closed when the call becomes a task; done when its
	// handler has returned and its record is complete.
	started   chan struct{}
	startOnce sync.Once
	done      chan struct{}

	mu        sync.Mutex
	id        string
	createdAt time.Time
	updatedAt time.Time
	cancelled bool
	pending   sdk.InputRequestMap  // questions waiting for an answer, by wire key
	answers   sdk.InputResponseMap // answers not yet taken, by wire key
	issued    map[string]bool      // every wire key asked so far
	wake      chan struct{}        // closed and replaced when answers come
	final     *taskState           // once done
}

func (r *taskRun) expired(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.id != "" && now.After(r.createdAt.Add(r.ttl)) && r.final != nil
}

func (r *taskRun) isStarted() bool {
	select {
	case <-r.started:
		return true
	default:
		return false
	}
}

// escalate makes the call the task id, once; the tools/call is then
// answered with the task.
func (r *taskRun) escalate(id string) {
	r.startOnce.Do(func() {
		now := time.Now().UTC()
		r.mu.Lock()
		r.id = id
		r.updatedAt = now
		r.mu.Unlock()
		if rec, err := r.srv.core.History().Get(context.Background(), id); err == nil {
			r.mu.Lock()
			r.createdAt = rec.CreatedAt
			r.mu.Unlock()
		} else {
			r.mu.Lock()
			r.createdAt = now.Truncate(time.Millisecond)
			r.mu.Unlock()
		}
		r.srv.tasks.add(r)
		close(r.started)
	})
}

func (r *taskRun) touch() {
	r.updatedAt = time.Now().UTC()
}

// ask puts the requests to the client of a task, and waits for every
// answer (tasks/update) or for ctx to end.
func (r *taskRun) ask(ctx context.Context, caps *sdk.ClientCapabilities, requests sdk.InputRequestMap) (sdk.InputResponseMap, error) {
	wire := make(map[string]string, len(requests)) // the caller's key → wire key
	r.mu.Lock()
	for _, key := range slices.Sorted(maps.Keys(requests)) {
		p := requests[key]
		if cap := capabilityFor(p); !declared(caps, cap) {
			r.mu.Unlock()
			return nil, &capabilityError{cap}
		}
		// A key names one request for the task's whole life.
		w := key
		for n := 2; r.issued[w]; n++ {
			w = fmt.Sprintf("%s-%d", key, n)
		}
		if r.issued == nil {
			r.issued = map[string]bool{}
		}
		r.issued[w] = true
		wire[key] = w
		if r.pending == nil {
			r.pending = sdk.InputRequestMap{}
		}
		r.pending[w] = p
	}
	r.touch()
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		for _, w := range wire {
			delete(r.pending, w)
			delete(r.answers, w)
		}
		r.touch()
		r.mu.Unlock()
	}()
	for {
		r.mu.Lock()
		out := make(sdk.InputResponseMap, len(wire))
		for key, w := range wire {
			if a, ok := r.answers[w]; ok {
				out[key] = a
			}
		}
		if r.wake == nil {
			r.wake = make(chan struct{})
		}
		wake := r.wake
		r.mu.Unlock()
		if len(out) == len(wire) {
			return out, nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// update takes the answers the client sent for pending questions; others
// are ignored, as the extension says.
func (r *taskRun) update(responses map[string]json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	took := false
	for key, raw := range responses {
		p, ok := r.pending[key]
		if !ok {
			continue
		}
		if _, done := r.answers[key]; done {
			continue
		}
		b, err := json.Marshal(map[string]json.RawMessage{key: raw})
		if err != nil {
			continue
		}
		var m sdk.InputResponseMap
		if json.Unmarshal(b, &m) != nil || m[key] == nil || !accept(p, m[key]) {
			continue
		}
		if r.answers == nil {
			r.answers = sdk.InputResponseMap{}
		}
		r.answers[key] = m[key]
		delete(r.pending, key)
		took = true
	}
	if took {
		r.touch()
		if r.wake != nil {
			close(r.wake)
			r.wake = nil
		}
	}
}

// serveTaskCall is serveToolCall on a task's own goroutine, where no
// middleware recovers a panic (a tracer's, say): it becomes the task's
// internal error rather than the end of the process.
func (s *server) serveTaskCall(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.logPanic("MCP task", v, "tool", req.Params.Name)
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgInternal}
		}
	}()
	return s.serveToolCall(ctx, req)
}

// taskCall serves a tools/call that may become a task: handled reports
// whether it did (else the call goes the ordinary way).
func (s *server) taskCall(ctx context.Context, req *sdk.CallToolRequest) (res sdk.Result, handled bool, err error) {
	if protocolOf(req) < protocol20260728 || s.core.History() == nil {
		return nil, false, nil
	}
	if e := req.GetExtra(); e == nil || e.Header == nil {
		return nil, false, nil // stdio: no tasks/get to poll a task with
	}
	t, lerr := s.core.Lookup(ctx, req.Params.Name)
	if lerr != nil || t == nil || t.Task == "" {
		return nil, false, nil
	}
	if !declaresTasks(req.ClientCapabilities()) {
		if t.Task == runtime.TaskRequired {
			return nil, true, missingTasksError(t.Name)
		}
		return nil, false, nil
	}
	run := &taskRun{srv: s, tool: t, deferred: t.TaskDeferred, ttl: s.taskTTL(), started: make(chan struct{}), done: make(chan struct{})}
	// The call outlives the request that made it: its ctx keeps the
	// request's values (the caller, the request) but not its end, and
	// ends with the task's TTL or its cancellation.
	tctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	tctx, stop := context.WithTimeoutCause(tctx, run.ttl, &runtime.ToolError{Message: msgTaskExpired})
	run.cancel = cancel
	tctx = context.WithValue(tctx, taskRunKey{}, run)
	type ret struct {
		res *sdk.CallToolResult
		err error
	}
	sync := make(chan ret, 1)
	go func() {
		defer stop()
		defer cancel(nil)
		defer close(run.done)
		res, err := s.serveTaskCall(tctx, req)
		run.finish(res, err)
		sync <- ret{res, err}
	}()
	select {
	case <-run.started:
		return run.created(), true, nil
	case r := <-sync:
		// Answered before it became a task: an ordinary answer (an
		// input-required round of a deferred task, a refusal).
		if r.err != nil {
			return nil, true, r.err
		}
		if len(r.res.InputRequests) > 0 {
			return inputRequiredResult{r.res}, true, nil
		}
		return r.res, true, nil
	case <-ctx.Done():
		// The client went away before there was a task to give it.
		if !run.isStarted() {
			cancel(ctx.Err())
		}
		return nil, true, ctx.Err()
	}
}

type taskRunKey struct{}

// declaresTasks reports whether a client declared the tasks extension.
func declaresTasks(caps *sdk.ClientCapabilities) bool {
	if caps == nil || caps.Extensions == nil {
		return false
	}
	_, ok := caps.Extensions[tasksExtension]
	return ok
}

// missingTasksError refuses a task=required tool to a client without
// the extension.
func missingTasksError(tool string) error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{tasksExtension: map[string]any{}}}})
	return &jsonrpc.Error{Code: sdk.CodeMissingRequiredClientCapabilities, Message: fmt.Sprintf("Tool %s runs as a task: the client must declare the extension %s.", tool, tasksExtension), Data: data}
}

// beforeRun is the pipeline's step just before the handler: the record is
// written, and the call becomes the task (unless the tool starts it
// itself).
func (r *taskRun) beforeRun(ctx context.Context, _ *runtime.Tool) error {
	if r.deferred {
		return nil
	}
	if c, ok := runtime.CallFromContext(ctx); ok && c.InvocationID != "" {
		r.escalate(c.InvocationID)
	}
	return nil
}

// finish keeps the task's outcome, once its handler has returned.
func (r *taskRun) finish(res *sdk.CallToolResult, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := &taskState{}
	switch {
	case r.cancelled && (err != nil || res == nil || res.IsError):
		st.Status = "cancelled"
	case err != nil:
		st.Status = "failed"
		st.Error = rpcErrorObject(err)
	default:
		st.Status = "completed"
		st.Result = res
	}
	r.final = st
	r.pending = nil
	r.touch()
}

// taskState is a task as tasks/get tells it.
type taskState struct {
	Status        string
	StatusMessage string
	Result        any             // completed
	Error         json.RawMessage // failed
	InputRequests sdk.InputRequestMap
}

// created is the CreateTaskResult.
func (r *taskRun) created() sdk.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &createTaskResult{ResultType: "task", taskWire: r.srv.taskWire(r.id, "working", "", r.createdAt, r.updatedAt)}
}

// createTaskResult is a tools/call's answer that is a task.
type createTaskResult struct {
	sdk.ResultBase
	ResultType string `json:"resultType"`
	taskWire
}

// taskWire is the extension's Task.
type taskWire struct {
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	CreatedAt      string `json:"createdAt"`
	LastUpdatedAt  string `json:"lastUpdatedAt"`
	TTLMs          int64  `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
}

func (s *server) taskWire(id, status, msg string, created, updated time.Time) taskWire {
	if updated.Before(created) {
		updated = created
	}
	return taskWire{
		TaskID: id, Status: status, StatusMessage: msg,
		CreatedAt:      created.UTC().Format(history.TimeLayout),
		LastUpdatedAt:  updated.UTC().Format(history.TimeLayout),
		TTLMs:          s.taskTTL().Milliseconds(),
		PollIntervalMs: max(s.taskPollInterval().Milliseconds(), 1),
	}
}

// rpcErrorObject is err as a JSON-RPC error object.
func rpcErrorObject(err error) json.RawMessage {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		we = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	b, _ := json.Marshal(struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	}{we.Code, we.Message, we.Data})
	return b
}

// taskFailure is the protocol error of a call that ended without a
// result: a panic, a store or provider failure. Anything else the tool
// reported is a result (isError) of a completed task.
func taskFailure(out *runtime.Outcome) error {
	switch {
	case errors.Is(out.Err, runtime.ErrPanic):
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: out.Err.Error()}
	case out.Status == runtime.StatusUnavailable, out.Status == runtime.StatusUnrecorded:
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: out.Result.ErrorText()}
	}
	return nil
}

// The tasks/* methods, served before the SDK (which knows none of them)
// for requests of protocol 2026-07-28.

// taskRequest is the params of tasks/get, tasks/update and tasks/cancel.
type taskRequest struct {
	TaskID         *string                    `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	Meta           struct {
		Capabilities *sdk.ClientCapabilities `json:"io.modelcontextprotocol/clientCapabilities"`
	} `json:"_meta"`
}

// serveTaskMethod answers a tasks/get, tasks/update or tasks/cancel
// request; it reports false for any other body, which goes to the SDK.
func (s *server) serveTaskMethod(rq *httpkit.Request) bool {
	var m rpcMessage
	b := bytes.TrimSpace(rq.Body)
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &m) != nil || m.Method == nil || len(m.ID) == 0 {
		return false
	}
	method := *m.Method
	if method != "tasks/get" && method != "tasks/update" && method != "tasks/cancel" {
		return false
	}
	reply := func(status int, result any, e *jsonrpc.Error) {
		writeRPC(rq.W, s.log, status, m.ID, result, e)
	}
	var p taskRequest
	if len(m.Params) > 0 && json.Unmarshal(m.Params, &p) != nil {
		reply(http.StatusOK, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"})
		return true
	}
	h := rq.R.Header
	if v := strings.TrimSpace(h.Get("Mcp-Method")); v != "" && v != method {
		reply(http.StatusBadRequest, nil, &jsonrpc.Error{Code: codeHeaderMismatch, Message: fmt.Sprintf("Header mismatch: Mcp-Method %q does not match the method %q.", v, method)})
		return true
	}
	if v := strings.TrimSpace(h.Get("Mcp-Name")); v != "" && (p.TaskID == nil || v != *p.TaskID) {
		reply(http.StatusBadRequest, nil, &jsonrpc.Error{Code: codeHeaderMismatch, Message: "Header mismatch: Mcp-Name does not match params.taskId."})
		return true
	}
	if !declaresTasks(p.Meta.Capabilities) {
		e := missingTasksError("").(*jsonrpc.Error)
		e.Message = fmt.Sprintf("%s needs the extension %s, which the request's client capabilities do not declare.", method, tasksExtension)
		reply(http.StatusBadRequest, nil, e)
		return true
	}
	if p.TaskID == nil || *p.TaskID == "" {
		reply(http.StatusOK, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.taskId is required"})
		return true
	}
	caller := s.core.CallerID(rq.Ctx)
	id := *p.TaskID
	st, err := s.taskLookup(rq.Ctx, id, caller)
	if err != nil {
		reply(http.StatusOK, nil, err)
		return true
	}
	switch method {
	case "tasks/get":
		reply(http.StatusOK, st, nil)
	case "tasks/update":
		if run := s.tasks.get(id); run != nil {
			run.update(p.InputResponses)
		}
		reply(http.StatusOK, map[string]any{"resultType": "complete"}, nil)
	case "tasks/cancel":
		if run := s.tasks.get(id); run != nil {
			run.mu.Lock()
			live := run.final == nil
			if live {
				run.cancelled = true
			}
			run.mu.Unlock()
			if live {
				run.cancel(&runtime.ToolError{Message: msgTaskCancelled})
			}
		}
		reply(http.StatusOK, map[string]any{"resultType": "complete"}, nil)
	}
	return true
}

// codeHeaderMismatch is SEP-2243's error for a routing header that does not
// match the body.
const codeHeaderMismatch = -32020

// errTaskNotFound answers a task id that is unknown, expired or another
// caller's, alike.
var errTaskNotFound = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Task not found."}

// taskGetResult is tasks/get's answer.
type taskGetResult struct {
	ResultType string `json:"resultType"`
	taskWire
	Result        any                 `json:"result,omitempty"`
	Error         json.RawMessage     `json:"error,omitempty"`
	InputRequests sdk.InputRequestMap `json:"inputRequests,omitempty"`
}

// taskLookup finds a task of caller's: from this process when it runs it,
// else from its record.
func (s *server) taskLookup(ctx context.Context, id, caller string) (*taskGetResult, *jsonrpc.Error) {
	rec, err := s.core.History().Get(ctx, id)
	if errors.Is(err, history.ErrNotFound) {
		return nil, errTaskNotFound
	}
	if err != nil {
		s.log.ErrorContext(ctx, "reading a task's record failed", "task", id, "err", err)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgInternal}
	}
	owner := ""
	if rec.Caller != nil {
		owner = *rec.Caller
	}
	if owner != caller || rec.Surface != runtime.SurfaceMCP || time.Now().After(rec.CreatedAt.Add(s.taskTTL())) {
		return nil, errTaskNotFound
	}
	if run := s.tasks.get(id); run != nil {
		return run.state(), nil
	}
	return s.recordTask(ctx, history.Effective(rec, time.Now())), nil
}

// state is a live task's tasks/get answer.
func (r *taskRun) state() *taskGetResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := &taskGetResult{ResultType: "complete"}
	switch {
	case r.final != nil:
		out.taskWire = r.srv.taskWire(r.id, r.final.Status, "", r.createdAt, r.updatedAt)
		out.Result, out.Error = r.final.Result, r.final.Error
	case len(r.pending) > 0:
		out.taskWire = r.srv.taskWire(r.id, "input_required", "", r.createdAt, r.updatedAt)
		out.InputRequests = maps.Clone(r.pending)
	default:
		out.taskWire = r.srv.taskWire(r.id, "working", "", r.createdAt, r.updatedAt)
	}
	return out
}

// recordTask is a task as its record tells it, for a task this process
// does not run (another replica's, or one from before a restart).
func (s *server) recordTask(ctx context.Context, rec *history.Record) *taskGetResult {
	updated := rec.CreatedAt
	if rec.CompletedAt != nil {
		updated = *rec.CompletedAt
	}
	out := &taskGetResult{ResultType: "complete"}
	status := "working"
	msg := ""
	if rec.Error != nil {
		msg = *rec.Error
	}
	switch rec.Status {
	case history.Success:
		status = "completed"
		out.Result = s.recordResult(ctx, rec)
	case history.Failed:
		switch {
		case msg == history.Interrupted, strings.HasPrefix(msg, "tool panicked: "):
			status = "failed"
			out.Error = rpcErrorObject(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg})
		case msg == msgTaskCancelled:
			status = "cancelled"
		default:
			status = "completed"
			out.Result = &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: msg}}, IsError: true}
		}
	}
	out.taskWire = s.taskWire(rec.ID, status, "", rec.CreatedAt, updated)
	return out
}

// recordResult rebuilds a tool's result from the value its record keeps
// (see resultValue): a text, content blocks, or structured content.
func (s *server) recordResult(ctx context.Context, rec *history.Record) *sdk.CallToolResult {
	raw := bytes.TrimSpace(rec.Result)
	res := &sdk.CallToolResult{Content: []sdk.Content{}}
	var text string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &text) == nil {
		res.Content = append(res.Content, &sdk.TextContent{Text: text})
		return res
	}
	if len(raw) > 0 && raw[0] == '[' {
		var blocks []runtime.Content
		if json.Unmarshal(raw, &blocks) == nil {
			if r, err := sdkCallResult(&runtime.Result{Content: blocks}); err == nil {
				return r
			}
		}
	}
	if len(raw) == 0 || string(raw) == "null" {
		return res
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		if t, err := s.core.Lookup(ctx, rec.Tool); err == nil && t != nil && s.core.WrapsOutput(t) {
			v = map[string]any{"result": v}
		}
		if _, ok := v.(map[string]any); ok {
			res.StructuredContent = v
		}
	}
	res.Content = append(res.Content, &sdk.TextContent{Text: string(raw)})
	return res
}
