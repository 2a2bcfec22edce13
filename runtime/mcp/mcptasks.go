package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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

// taskID is the task's id, "" before it is one.
func (r *taskRun) taskID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.id
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
	r.srv.tellQuestion(r)
	defer func() {
		r.mu.Lock()
		for _, w := range wire {
			delete(r.pending, w)
			delete(r.answers, w)
		}
		r.touch()
		r.mu.Unlock()
		r.srv.tellQuestion(r)
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
	if r.take(responses) {
		// What the task asks changed (a partial answer leaves the rest
		// pending): its listens and the other replicas are told. Not on
		// this goroutine, which may be the bus's own.
		go func() {
			defer func() {
				if v := recover(); v != nil {
					r.srv.logPanic("MCP task change", v, "task", r.taskID())
				}
			}()
			r.srv.tellQuestion(r)
		}()
	}
}

// take keeps the answers of responses to pending questions, and reports
// whether it took any.
func (r *taskRun) take(responses map[string]json.RawMessage) bool {
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
	return took
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
		if run.isStarted() {
			s.taskChanged(run.taskID()) // its listens hear the outcome
		}
		sync <- ret{res, err}
	}()
	select {
	case <-run.started:
		return run.created(), true, nil
	case r := <-sync:
		if run.isStarted() {
			// It became a task and ended before this select chose
			// (both were ready; select picks at random): answered as
			// the task it is, whichever came first.
			return run.created(), true, nil
		}
		// Answered before it became a task: an ordinary answer (an
		// input-required round of a deferred task, a refusal).
		if r.err != nil {
			return nil, true, r.err
		}
		if len(r.res.InputRequests) > 0 {
			return callResultJSON{r.res, "input_required"}, true, nil
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
