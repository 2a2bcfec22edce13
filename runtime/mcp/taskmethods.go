package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

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
// request; it reports false for any other body, which goes on to the
// rest of the revision or the SDK. The request is checked as the rest of
// the revision's are (serveRevision), in the same order: the transport
// (version, media type, Accept, a batch), an id, the protocol version of
// header and _meta, the Mcp-Method header; its envelope and params are
// read by their names as written.
func (s *server) serveTaskMethod(rq *httpkit.Request, info *rpcInfo) bool {
	b := bytes.TrimSpace(rq.Body)
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	envelope := exactMembers(b)
	var method string
	if json.Unmarshal(envelope["method"], &method) != nil || (method != "tasks/get" && method != "tasks/update" && method != "tasks/cancel") {
		return false
	}
	if s.transportRefused(rq, info) {
		return true
	}
	rawID := envelope["id"]
	reply := func(status int, result any, e *jsonrpc.Error) {
		if e != nil && e.Code == jsonrpc.CodeInvalidParams {
			status = http.StatusBadRequest // as the revision maps -32602
		}
		writeRPC(rq.W, s.log, status, rawID, result, e)
	}
	if len(rawID) == 0 || string(rawID) == "null" {
		rawID = nil
		reply(http.StatusBadRequest, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("Invalid request: %q is a request: it needs an id.", method)})
		return true
	}
	var p taskRequest
	if httpkit.DecodeEnvelope(envelope["params"], &p, false) != nil {
		reply(http.StatusBadRequest, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"})
		return true
	}
	members := exactMembers(envelope["params"])
	var meta sdk.Meta
	_ = json.Unmarshal(members["_meta"], &meta)
	h := rq.R.Header
	metaVersion, _ := meta[metaProtocolVersion].(string)
	if e := versionProblem(h.Get("Mcp-Protocol-Version"), metaVersion); e != nil {
		reply(http.StatusBadRequest, nil, e)
		return true
	}
	if e := headerProblem(h, method, members); e != "" {
		reply(http.StatusBadRequest, nil, &jsonrpc.Error{Code: codeHeaderMismatch, Message: e})
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
		reply(http.StatusBadRequest, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "params.taskId is required"})
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
	case "tasks/update", "tasks/cancel":
		msg := taskMessage{Op: strings.TrimPrefix(method, "tasks/"), ID: id, Responses: p.InputResponses}
		if err := s.steerTask(rq.Ctx, msg); errors.Is(err, history.ErrPayloadTooLarge) {
			reply(http.StatusOK, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("This %s is too large to reach the replica running the task (more than %d bytes): send it to that replica.", method, history.MaxBusPayload)})
			return true
		} else if err != nil {
			s.log.ErrorContext(rq.Ctx, "a task's message could not reach the replica running it", "task", id, "op", msg.Op, "err", err)
			reply(http.StatusOK, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgInternal})
			return true
		}
		reply(http.StatusOK, map[string]any{"resultType": "complete"}, nil)
	}
	return true
}

// taskMessage is a tasks/update or tasks/cancel for one task, as one
// replica hands it to the one running the task (over the store's bus);
// or the task's questions, as the replica running it tells the others.
type taskMessage struct {
	Op        string                     `json:"op"` // "update", "cancel", "question" or "status" (it changed: listen.go)
	ID        string                     `json:"id"`
	Responses map[string]json.RawMessage `json:"responses,omitempty"`
	// Question is the task's pending input requests (an
	// sdk.InputRequestMap), absent when it has none.
	Question json.RawMessage `json:"question,omitempty"`
}

// remoteQuestions are the questions of tasks other replicas run, as they
// told them, until the task's TTL.
type remoteQuestions struct {
	mu sync.Mutex
	m  map[string]remoteQuestion
}

type remoteQuestion struct {
	q     json.RawMessage
	until time.Time
}

func (rq *remoteQuestions) set(id string, q json.RawMessage, ttl time.Duration) {
	rq.mu.Lock()
	defer rq.mu.Unlock()
	now := time.Now()
	for k, v := range rq.m {
		if now.After(v.until) {
			delete(rq.m, k)
		}
	}
	if len(q) == 0 || string(q) == "null" || string(q) == "{}" {
		delete(rq.m, id)
		return
	}
	if rq.m == nil {
		rq.m = map[string]remoteQuestion{}
	}
	rq.m[id] = remoteQuestion{q, now.Add(ttl)}
}

func (rq *remoteQuestions) question(id string) json.RawMessage {
	rq.mu.Lock()
	defer rq.mu.Unlock()
	if v, ok := rq.m[id]; ok && time.Now().Before(v.until) {
		return v.q
	}
	return nil
}

// tellQuestion tells the other replicas, on a store that is a bus, what
// a task this server runs now asks (nothing, once answered).
func (s *server) tellQuestion(r *taskRun) {
	if id := r.taskID(); id != "" {
		s.listeners.taskChanged(id) // this process's listens
	}
	bus, ok := s.core.History().(history.Bus)
	if !ok {
		return
	}
	r.mu.Lock()
	msg := taskMessage{Op: "question", ID: r.id}
	if len(r.pending) > 0 {
		msg.Question, _ = json.Marshal(r.pending)
	}
	r.mu.Unlock()
	if msg.ID == "" {
		return
	}
	b, err := json.Marshal(msg)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
		defer cancel()
		err = bus.Publish(ctx, tasksChannel, string(b))
	}
	if err != nil {
		s.log.Warn("a task's question could not be told to the other replicas", "task", r.id, "err", err)
	}
}

// tasksChannel is the bus channel of taskMessages.
const tasksChannel = "toolgen_tasks"

// busTimeout bounds a message's publishing on the bus.
const busTimeout = 10 * time.Second

// steerTask applies msg to the task when this server runs it; else, on a
// store that is a bus (PostgreSQL), sends it to every replica, one of
// which runs it. A task no one runs (done, expired, its process gone)
// takes nothing, as the protocol allows.
func (s *server) steerTask(ctx context.Context, msg taskMessage) error {
	if s.applyTask(msg) {
		return nil
	}
	bus, ok := s.core.History().(history.Bus)
	if !ok {
		return nil
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return bus.Publish(ctx, tasksChannel, string(b))
}

// applyTask applies msg to a task this server runs, and reports whether
// it runs it.
func (s *server) applyTask(msg taskMessage) bool {
	run := s.tasks.get(msg.ID)
	if run == nil {
		if msg.Op == "question" {
			s.remote.set(msg.ID, msg.Question, s.taskTTL())
		}
		return false
	}
	switch msg.Op {
	case "update":
		run.update(msg.Responses)
	case "cancel":
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
	return true
}

// listenTasks, on a store that is a bus, applies the taskMessages other
// replicas send to the tasks this server runs, until the returned stop.
// It waits a little for the store to listen, so that a task started just
// after can be steered; past that it goes on, and the store listens
// once it can.
func (s *server) listenTasks() (stop func()) {
	bus, ok := s.core.History().(history.Bus)
	if !ok {
		return func() {}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stop, err := bus.Listen(ctx, tasksChannel, func(payload string) {
		var msg taskMessage
		if json.Unmarshal([]byte(payload), &msg) == nil {
			s.applyTask(msg)
			if msg.Op == "question" || msg.Op == "status" {
				s.listeners.taskChanged(msg.ID) // a task changed: its listens look
			}
		}
	})
	if err != nil {
		s.log.Warn("tasks/update and tasks/cancel from other replicas reach this one once the store listens", "err", err)
	}
	if stop == nil {
		stop = func() {}
	}
	return stop
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
	Result any             `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
	// InputRequests is an sdk.InputRequestMap, or the JSON of one as the
	// replica running the task sent it.
	InputRequests any `json:"inputRequests,omitempty"`
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
	out := s.recordTask(ctx, history.Effective(rec, time.Now()))
	if q := s.remote.question(id); q != nil && out.Status == "working" {
		// Another replica runs it, and told every replica its question.
		out.Status, out.InputRequests = "input_required", q
	}
	return out, nil
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
