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
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// subscriptions/listen at 2026-07-28 (SEP-2575), answered natively: the
// one stream on which a stateless client hears of changes. The response is
// an event stream that opens with notifications/subscriptions/acknowledged
// (what the server agreed to send) and stays open until the client leaves,
// carrying, each with the listen's id in its _meta (and ending with its
// result when the server shuts down: runtime/serve cancels the request
// with http.ErrServerClosed):
//
//   - notifications/tools/list_changed, prompts/list_changed and
//     resources/list_changed, from the core's changes (runtime.Notifier);
//   - notifications/resources/updated for the URIs the listen names
//     (runtime.Server.NotifyResourceUpdated), checked as a session's
//     resources/subscribe is;
//   - notifications/tasks (the tasks extension) for the task ids it
//     names: the task as tasks/get would give it, once when the stream
//     opens and again each time it changes. A task another replica runs
//     is heard of over the history store's bus (PostgreSQL), so a listen
//     may go to any replica.
//
// What a listen agrees to is what the SDK agrees to (allowedSubscriptions),
// with the task ids of the caller's live tasks besides (the first
// maxListenTasks it names); a listen that is agreed nothing is answered at
// once. Changes are coalesced while a stream
// is being written: a client hears that a list changed, not how often.

// listenWants are the notifications a listen asks for, and those the
// server agrees to: the SDK's NotificationSubscriptions, with the tasks
// extension's taskIds.
type listenWants struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	TaskIDs               []string `json:"taskIds,omitempty"`
}

func (w *listenWants) any() bool {
	return w.ToolsListChanged || w.PromptsListChanged || w.ResourcesListChanged || len(w.ResourceSubscriptions) > 0 || len(w.TaskIDs) > 0
}

// decodeWants reads a listen's notifications as the SDK reads them (keys
// as written); nil for null, false for what does not decode.
func decodeWants(raw []byte) (*listenWants, bool) {
	if string(raw) == "null" {
		return nil, true
	}
	m := exactMembers(raw)
	if m == nil {
		return nil, false
	}
	w := &listenWants{}
	for key, dst := range map[string]any{
		"toolsListChanged": &w.ToolsListChanged, "promptsListChanged": &w.PromptsListChanged,
		"resourcesListChanged": &w.ResourcesListChanged, "resourceSubscriptions": &w.ResourceSubscriptions,
		"taskIds": &w.TaskIDs,
	} {
		if v, ok := m[key]; ok && string(v) != "null" && json.Unmarshal(v, dst) != nil {
			return nil, false
		}
	}
	return w, true
}

// Notifications a listen carries.
const (
	notifyToolsChanged     = "notifications/tools/list_changed"
	notifyPromptsChanged   = "notifications/prompts/list_changed"
	notifyResourcesChanged = "notifications/resources/list_changed"
	notifyResourceUpdated  = "notifications/resources/updated"
	notifyTask             = "notifications/tasks"
	notifyListenAcked      = "notifications/subscriptions/acknowledged"
)

// listener is one open listen: what it was agreed, and what has changed
// since its stream last wrote.
type listener struct {
	wants listenWants
	wake  chan struct{} // a token when there is something to write
	mu    sync.Mutex
	lists map[string]bool // list_changed notifications to send
	uris  map[string]bool // resources updated
	tasks map[string]bool // tasks changed
}

// mark notes a change for the stream to write, and wakes it.
func (l *listener) mark(set *map[string]bool, key string) {
	l.mu.Lock()
	if *set == nil {
		*set = map[string]bool{}
	}
	(*set)[key] = true
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// take is what changed since the last take.
func (l *listener) take() (lists, uris, tasks []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sorted := func(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
	lists, uris, tasks = sorted(l.lists), sorted(l.uris), sorted(l.tasks)
	l.lists, l.uris, l.tasks = nil, nil, nil
	return lists, uris, tasks
}

// listeners are a server's open listens.
type listeners struct {
	mu  sync.Mutex
	set map[*listener]struct{}
}

func (ls *listeners) add(l *listener) (remove func()) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.set == nil {
		ls.set = map[*listener]struct{}{}
	}
	ls.set[l] = struct{}{}
	return func() {
		ls.mu.Lock()
		defer ls.mu.Unlock()
		delete(ls.set, l)
	}
}

// each calls f with every open listen.
func (ls *listeners) each(f func(*listener)) {
	ls.mu.Lock()
	all := make([]*listener, 0, len(ls.set))
	for l := range ls.set {
		all = append(all, l)
	}
	ls.mu.Unlock()
	for _, l := range all {
		f(l)
	}
}

// listChanged tells the listens that agreed to it that a list changed
// (method is its notification).
func (ls *listeners) listChanged(method string) {
	ls.each(func(l *listener) {
		w := &l.wants
		if (method == notifyToolsChanged && w.ToolsListChanged) || (method == notifyPromptsChanged && w.PromptsListChanged) || (method == notifyResourcesChanged && w.ResourcesListChanged) {
			l.mark(&l.lists, method)
		}
	})
}

// resourceUpdated tells the listens that name uri that it changed.
func (ls *listeners) resourceUpdated(uri string) {
	ls.each(func(l *listener) {
		if slices.Contains(l.wants.ResourceSubscriptions, uri) {
			l.mark(&l.uris, uri)
		}
	})
}

// taskChanged tells the listens that name the task that it may have
// changed; each looks it up, and says so when it did.
func (ls *listeners) taskChanged(id string) {
	ls.each(func(l *listener) {
		if slices.Contains(l.wants.TaskIDs, id) {
			l.mark(&l.tasks, id)
		}
	})
}

// taskChanged tells the listens of this process, and on a store that is
// a bus those of the other replicas, that a task this process runs
// changed. The record is written by then: a replica that looks the task
// up finds it as it is.
func (s *server) taskChanged(id string) {
	if id == "" {
		return
	}
	s.listeners.taskChanged(id)
	bus, ok := s.core.History().(history.Bus)
	if !ok {
		return
	}
	b, _ := json.Marshal(taskMessage{Op: "status", ID: id})
	ctx, cancel := context.WithTimeout(context.Background(), busTimeout)
	defer cancel()
	if err := bus.Publish(ctx, tasksChannel, string(b)); err != nil {
		s.log.Warn("a task's change could not be told to the other replicas", "task", id, "err", err)
	}
}

// serveListen answers a subscriptions/listen: true once it did, false for
// a request the SDK answers.
func (s *server) serveListen(rq *httpkit.Request, fr *fastRequest, meta sdk.Meta, extra *sdk.RequestExtra) bool {
	var want *listenWants
	for _, m := range fr.members { // "notifications", once (parseFast)
		var ok bool
		if want, ok = decodeWants(m.val); !ok {
			return false
		}
	}
	req := &sdk.SubscriptionsListenRequest{Params: &sdk.SubscriptionsListenParams{Meta: meta}, Extra: extra}
	if !s.fastMetaDecodes(fr.meta, req) {
		return false
	}
	s.fast.answered.Add(1)
	ctx, end := s.traceRequest(rq.Ctx, "subscriptions/listen", "", req)
	err := s.listen(ctx, rq, fr.id, want, declaresTasks(req.ClientCapabilities()))
	end(err)
	if err != nil {
		s.fastReply(rq.W, nil, fr.id, nil, err)
	}
	return true
}

// listen serves a listen that asked for want: an error before its stream
// opens, which is the answer; nil once the stream has ended.
func (s *server) listen(ctx context.Context, rq *httpkit.Request, id []byte, want *listenWants, tasks bool) error {
	if want == nil {
		// The SDK's words (its ErrInvalidParams, wrapped).
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: missing required 'notifications' field"}
	}
	if len(want.TaskIDs) > 0 && !tasks {
		e := missingTasksError("").(*jsonrpc.Error)
		e.Message = fmt.Sprintf("Notifications of tasks need the extension %s, which the request's client capabilities do not declare.", tasksExtension)
		return e
	}
	caller := s.core.CallerID(ctx)
	agreed, err := s.agree(ctx, want, caller)
	if err != nil {
		return err
	}
	l := &listener{wants: agreed, wake: make(chan struct{}, 1)}
	remove := s.listeners.add(l)
	defer remove()
	for _, t := range agreed.TaskIDs {
		l.mark(&l.tasks, t) // each as it is now, first
	}
	subID := json.RawMessage(id)
	subMeta := map[string]any{sdk.MetaKeySubscriptionID: subID} // read only: every notice's
	stream := &eventStream{w: rq.W}
	_ = stream.notify(notifyListenAcked, map[string]any{"_meta": subMeta, "notifications": agreed})
	sent := map[string][]byte{} // each task as last sent
loop:
	for agreed.any() {
		select {
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), http.ErrServerClosed) {
				break loop // the server shuts down: the listen ends with its result
			}
			return nil // the client left: no one to answer
		case <-l.wake:
		}
		lists, uris, changed := l.take()
		for _, m := range lists {
			_ = stream.notify(m, map[string]any{"_meta": subMeta})
		}
		for _, u := range uris {
			_ = stream.notify(notifyResourceUpdated, map[string]any{"_meta": subMeta, "uri": u})
		}
		for _, t := range changed {
			if b := s.taskNotice(ctx, t, caller, subID); b != nil && !bytes.Equal(b, sent[t]) {
				sent[t] = b
				_ = stream.notify(notifyTask, json.RawMessage(b))
			}
		}
	}
	// Agreed nothing (the listen ends at once, as the SDK ends it), or the
	// server shuts down.
	meta := s.fastServerInfo(sdk.Meta{sdk.MetaKeySubscriptionID: subID})
	s.fastReply(rq.W, stream, id, map[string]any{"_meta": meta, "resultType": "complete"}, nil)
	return nil
}

// taskNotice is the params of notifications/tasks for the task id of
// caller's, as it is now; nil when it is gone (expired) or cannot be told.
// A panic reading it (a provider's, rebuilding a result) is logged and
// the task left untold: the stream, already open, goes on.
func (s *server) taskNotice(ctx context.Context, id, caller string, subID json.RawMessage) (b []byte) {
	defer func() {
		if v := recover(); v != nil {
			s.logPanic("MCP task notification", v, "task", id)
			b = nil
		}
	}()
	st, jerr := s.taskLookup(ctx, id, caller)
	if jerr != nil {
		return nil
	}
	b, err := json.Marshal(taskNotification{Meta: map[string]any{sdk.MetaKeySubscriptionID: subID}, taskWire: st.taskWire, Result: st.Result, Error: st.Error, InputRequests: st.InputRequests})
	if err != nil {
		s.log.ErrorContext(ctx, "a task's notification does not encode", "task", id, "err", err)
		return nil
	}
	return b
}

// maxListenTasks is the most task ids a listen is agreed: each is looked
// up in the history when the listen opens.
const maxListenTasks = 100

// agree is what of want the server sends to caller: what the SDK agrees
// to (its capabilities, every resource named checked as resources/subscribe
// checks it), and the tasks of caller's that it knows.
func (s *server) agree(ctx context.Context, want *listenWants, caller string) (listenWants, error) {
	caps := s.capabilities()
	var out listenWants
	out.ToolsListChanged = want.ToolsListChanged && caps.Tools != nil && caps.Tools.ListChanged
	out.PromptsListChanged = want.PromptsListChanged && caps.Prompts != nil && caps.Prompts.ListChanged
	out.ResourcesListChanged = want.ResourcesListChanged && caps.Resources != nil && caps.Resources.ListChanged
	if len(want.ResourceSubscriptions) > 0 && caps.Resources != nil && caps.Resources.Subscribe {
		for _, uri := range want.ResourceSubscriptions {
			if err := s.subscribe(ctx, &sdk.SubscribeRequest{Params: &sdk.SubscribeParams{URI: uri}}); err != nil {
				return listenWants{}, err
			}
		}
		out.ResourceSubscriptions = slices.Clone(want.ResourceSubscriptions)
	}
	if s.core.History() != nil {
		seen := map[string]bool{}
		for _, id := range want.TaskIDs {
			if seen[id] || len(seen) == maxListenTasks {
				continue
			}
			seen[id] = true
			if _, err := s.taskLookup(ctx, id, caller); err == nil {
				out.TaskIDs = append(out.TaskIDs, id)
			}
		}
	}
	return out, nil
}

// taskNotification is the params of notifications/tasks: the task as
// tasks/get gives it (taskGetResult), without a result's resultType.
type taskNotification struct {
	Meta map[string]any `json:"_meta,omitempty"`
	taskWire
	Result        any             `json:"result,omitempty"`
	Error         json.RawMessage `json:"error,omitempty"`
	InputRequests any             `json:"inputRequests,omitempty"`
}
