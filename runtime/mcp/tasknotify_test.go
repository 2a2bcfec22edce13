package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/postgres"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

// notifications/tasks: a subscriptions/listen that names tasks hears each
// as tasks/get gives it, when the stream opens and as it changes, from
// whichever replica runs it.

// taskListen is an open subscriptions/listen.
type taskListen struct {
	t      *testing.T
	status int
	msgs   chan map[string]any
	first  map[string]any // the acknowledgement, or the error
}

// listen opens a subscriptions/listen for the tasks ids, declaring the
// tasks extension unless bare.
func (c *taskClient) listen(bare bool, ids ...string) *taskListen {
	c.t.Helper()
	caps := map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}
	if bare {
		caps = map[string]any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen", "params": map[string]any{
		"_meta":         map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps},
		"notifications": map[string]any{"taskIds": ids},
	}})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/mcp", strings.NewReader(string(body)))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { cancel(); resp.Body.Close() })
	l := &taskListen{t: c.t, status: resp.StatusCode, msgs: make(chan map[string]any, 64)}
	go func() {
		defer close(l.msgs)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				line = data
			} else if !strings.HasPrefix(line, "{") {
				continue
			}
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil {
				l.msgs <- m
			}
		}
	}()
	l.first = l.next()
	return l
}

// next is the stream's next message, waited for with a generous ceiling.
func (l *taskListen) next() map[string]any {
	l.t.Helper()
	select {
	case m, ok := <-l.msgs:
		if !ok {
			l.t.Fatal("the listen ended")
		}
		return m
	case <-time.After(time.Minute):
		l.t.Fatal("no message in a minute")
	}
	return nil
}

// await reads notifications/tasks until one says the task is in status,
// and returns that one's params (the task).
func (l *taskListen) await(id, status string) map[string]any {
	l.t.Helper()
	for {
		m := l.next()
		p, _ := m["params"].(map[string]any)
		if m["method"] != "notifications/tasks" || p["taskId"] != id {
			l.t.Fatalf("unexpected message %v", m)
		}
		meta, _ := p["_meta"].(map[string]any)
		if meta["io.modelcontextprotocol/subscriptionId"] != "listen-1" || p["resultType"] != nil {
			l.t.Fatalf("notifications/tasks params %v", p)
		}
		if p["status"] == status {
			return p
		}
	}
}

// ackedTasks are the task ids the acknowledgement agreed to.
func (l *taskListen) ackedTasks() []any {
	l.t.Helper()
	p, _ := l.first["params"].(map[string]any)
	n, _ := p["notifications"].(map[string]any)
	if l.first["method"] != "notifications/subscriptions/acknowledged" {
		l.t.Fatalf("first message %v", l.first)
	}
	ids, _ := n["taskIds"].([]any)
	return ids
}

// answerColour waits until l hears that task id (elicitTool's) asks its
// question, then answers it through c: "teal".
func (c *taskClient) answerColour(l *taskListen, id string) {
	c.t.Helper()
	waiting := l.await(id, "input_required")
	var key string
	for k := range waiting["inputRequests"].(map[string]any) {
		key = k
	}
	if key == "" {
		c.t.Fatalf("input_required without its question: %v", waiting)
	}
	if _, e := c.rpc("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		key: map[string]any{"action": "accept", "content": map[string]any{"colour": "teal"}},
	}}); e != nil {
		c.t.Fatal(e)
	}
}

func TestMCPTaskNotifications(t *testing.T) {
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{elicitTool()}, discardLog())))
	t.Cleanup(hs.Close) // after the listens' cleanups, which end them
	c := &taskClient{t: t, url: hs.URL}
	id := c.create("ask", nil)
	l := c.listen(false, id, "no-such-task")
	if ids := l.ackedTasks(); len(ids) != 1 || ids[0] != id {
		t.Fatalf("acknowledged task ids %v, want [%s]", ids, id)
	}
	c.answerColour(l, id)
	done := l.await(id, "completed")
	if got := taskText(t, done); got != "colour accept teal" {
		t.Errorf("result %q in %v", got, done)
	}
	// As tasks/get gives it.
	got, _ := c.get(id)
	delete(got, "resultType")
	delete(done, "_meta")
	if a, b := mustJSON(got), mustJSON(done); a != b {
		t.Errorf("notified %s\ntasks/get %s", b, a)
	}

	// A listen that names a task without declaring the extension is
	// refused, as the extension says.
	bare := c.listen(true, id)
	if e, _ := bare.first["error"].(map[string]any); bare.status != http.StatusBadRequest || e["code"] != float64(-32021) {
		t.Errorf("without the extension: %d %v", bare.status, bare.first)
	}
}

// A listen on one replica hears of a task another replica runs: its
// question, and its outcome.
func TestMCPTaskNotifiedFromAnotherReplica(t *testing.T) {
	dsn := servertest.PostgresDSN(t, "tasknotify")
	replica := func() *taskClient {
		st, err := postgres.Open(context.Background(), dsn, history.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{elicitTool()}, &runtime.Options{History: st, Logger: discardLogger()})))
		t.Cleanup(hs.Close)
		return &taskClient{t: t, url: hs.URL}
	}
	a, b := replica(), replica()
	id := a.create("ask", nil)
	l := b.listen(false, id)
	if ids := l.ackedTasks(); len(ids) != 1 || ids[0] != id {
		t.Fatalf("acknowledged task ids %v, want [%s]", ids, id)
	}
	a.answerColour(l, id)
	if got := taskText(t, l.await(id, "completed")); got != "colour accept teal" {
		t.Errorf("result %q", got)
	}
}

// A partial answer (one of two questions) changes what the task asks:
// its listen hears the question left, before the second answer.
func TestMCPTaskNotifiedOfPartialAnswer(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)
	two := runtime.MustNewTool("two", "Asks two things at once.", func(ctx context.Context, _ struct{}) (string, error) {
		res, err := mcp.Ask(ctx, map[string]mcp.Question{
			"first":  {Elicit: &mcp.ElicitQuestion{Message: "First?", Schema: schema}},
			"second": {Elicit: &mcp.ElicitQuestion{Message: "Second?", Schema: schema}},
		})
		if err != nil {
			return "", err
		}
		return fmt.Sprint(res["first"].Elicitation.Content["name"], " ", res["second"].Elicitation.Content["name"]), nil
	})
	two.Task = runtime.TaskRequired
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{two}, discardLog())))
	t.Cleanup(hs.Close)
	c := &taskClient{t: t, url: hs.URL}
	id := c.create("two", nil)
	l := c.listen(false, id)
	var both map[string]any
	for len(both) < 2 {
		both, _ = l.await(id, "input_required")["inputRequests"].(map[string]any)
	}
	answer := func(key, name string) {
		if _, e := c.rpc("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
			key: map[string]any{"action": "accept", "content": map[string]any{"name": name}},
		}}); e != nil {
			t.Fatal(e)
		}
	}
	var first string
	for k := range both {
		if first == "" || k < first {
			first = k
		}
	}
	answer(first, "Ada")
	left, _ := l.await(id, "input_required")["inputRequests"].(map[string]any)
	if len(left) != 1 || left[first] != nil {
		t.Fatalf("after one answer the listen heard %v, want the other question alone", left)
	}
	for k := range left {
		answer(k, "Lin")
	}
	if got := taskText(t, l.await(id, "completed")); got != "Ada Lin" && got != "Lin Ada" {
		t.Errorf("result %q", got)
	}
}
