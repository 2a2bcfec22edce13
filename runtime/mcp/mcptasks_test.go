package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/postgres"
	"github.com/toolgen-go/toolgen/runtime/history/sqlite"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
	"github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/qmcp"
)

// MCP tasks (extension io.modelcontextprotocol/tasks) at protocol
// 2026-07-28: a task is the call's invocation record, so it is polled to
// completion, cancelled, given input, read after a restart and from
// another replica, and only by the caller that made it.

// taskClient sends JSON-RPC requests of protocol 2026-07-28 that declare
// the tasks extension (and elicitation), as one caller.
type taskClient struct {
	t     *testing.T
	url   string
	token string
	n     atomic.Int64
	// client sends the requests; nil means http.DefaultClient.
	client *http.Client
}

// rpc sends one request and returns its result, or its error object.
func (c *taskClient) rpc(method string, params map[string]any) (result, rpcErr map[string]any) {
	c.t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{
			"elicitation": map[string]any{},
			"extensions":  map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}},
		},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.n.Add(1), "method": method, "params": params})
	req, _ := http.NewRequest("POST", c.url+"/mcp", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if id, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", id)
	} else if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	client := c.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.WriteString(string(buf[:n]))
		if err != nil {
			break
		}
	}
	text := b.String()
	if i := strings.Index(text, "data: "); i >= 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		text = strings.TrimSpace(strings.SplitN(text[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		c.t.Fatalf("%s: %d %q", method, resp.StatusCode, text)
	}
	return msg.Result, msg.Error
}

// create calls a tool that runs as a task and returns the task id.
func (c *taskClient) create(tool string, args map[string]any) string {
	c.t.Helper()
	res, e := c.rpc("tools/call", map[string]any{"name": tool, "arguments": args})
	if e != nil || res["resultType"] != "task" {
		c.t.Fatalf("tools/call %s: %v %v, want a task", tool, res, e)
	}
	id, _ := res["taskId"].(string)
	if id == "" || res["status"] != "working" {
		c.t.Fatalf("CreateTaskResult %v", res)
	}
	return id
}

// get is tasks/get.
func (c *taskClient) get(id string) (map[string]any, map[string]any) {
	c.t.Helper()
	return c.rpc("tasks/get", map[string]any{"taskId": id})
}

// await polls the task until cond holds, for up to a minute.
func (c *taskClient) await(id string, what string, cond func(map[string]any) bool) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		res, e := c.get(id)
		if e != nil {
			c.t.Fatalf("tasks/get %s: %v", id, e)
		}
		if cond(res) {
			return res
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("task %s: not %s within a minute: %v", id, what, res)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func taskStatus(want string) func(map[string]any) bool {
	return func(r map[string]any) bool { return r["status"] == want }
}

// resultText is the text of a completed task's result.
func taskText(t *testing.T, task map[string]any) string {
	t.Helper()
	r, _ := task["result"].(map[string]any)
	content, _ := r["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("task %v: no content", task)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

// gate is a tool that waits for release (or its ctx), telling started
// when it runs and ended why its ctx ended, if it did.
type gate struct {
	started chan struct{}
	release chan struct{}
	ended   chan error
}

func newGate() *gate {
	return &gate{started: make(chan struct{}, 16), release: make(chan struct{}), ended: make(chan error, 16)}
}

func (g *gate) tool(name string, task runtime.TaskSupport) runtime.Tool {
	t := runtime.MustNewTool(name, "Waits to be released.", func(ctx context.Context, in struct {
		Label string `json:"label,omitempty"`
	}) (string, error) {
		g.started <- struct{}{}
		select {
		case <-g.release:
			return "released " + in.Label, nil
		case <-ctx.Done():
			g.ended <- context.Cause(ctx)
			return "", ctx.Err()
		}
	})
	t.Task = task
	return t
}

// awaitCancelled waits (a minute at most, failing with msg) for the
// tool's ctx to end with the task's cancellation.
func (g *gate) awaitCancelled(t *testing.T, msg string) {
	t.Helper()
	select {
	case cause := <-g.ended:
		var te *runtime.ToolError
		if !errors.As(cause, &te) {
			t.Errorf("the handler's ctx ended with %v, want the task's cancellation", cause)
		}
	case <-time.After(time.Minute):
		t.Fatal(msg)
	}
}

// elicitTool asks the user a question while it runs.
func elicitTool() runtime.Tool {
	t := runtime.MustNewTool("ask", "Asks for a colour.", func(ctx context.Context, _ struct{}) (string, error) {
		e, err := runtime.Elicit(ctx, "Your colour?", json.RawMessage(`{"type":"object","properties":{"colour":{"type":"string"}},"required":["colour"]}`))
		if err != nil {
			return "", err
		}
		return "colour " + e.Action + " " + e.Content["colour"].(string), nil
	})
	t.Task = runtime.TaskOptional
	return t
}

func discardLog() *runtime.Options {
	return &runtime.Options{Logger: discardLogger()}
}

func TestMCPTaskPolledToCompletion(t *testing.T) {
	g := newGate()
	opts := discardLog()
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{g.tool("slow", runtime.TaskOptional)}, opts)))
	defer hs.Close()
	c := &taskClient{t: t, url: hs.URL}
	id := c.create("slow", map[string]any{"label": "a"})
	<-g.started
	// Working while the tool runs: a pending invocation under the task's id.
	if res, _ := c.get(id); res["status"] != "working" || res["resultType"] != "complete" || res["ttlMs"] == nil {
		t.Fatalf("tasks/get while running: %v", res)
	}
	inv := getTaskJSON(t, hs.URL+"/v1/invocations/"+id)
	if inv["status"] != "pending" || inv["tool_name"] != "slow" || inv["surface"] != "mcp" {
		t.Fatalf("/v1/invocations/%s while running: %v", id, inv)
	}
	close(g.release)
	done := c.await(id, "completed", taskStatus("completed"))
	if got := taskText(t, done); got != "released a" {
		t.Errorf("result %q", got)
	}
	if inv := getTaskJSON(t, hs.URL+"/v1/invocations/"+id); inv["status"] != "success" {
		t.Errorf("/v1/invocations/%s when done: %v", id, inv)
	}
	// Without the extension the same tool is an ordinary call; an unknown
	// task id is not found.
	if _, e := c.get("no-such-task"); e == nil || e["code"] != float64(-32602) {
		t.Errorf("unknown task: %v", e)
	}
}

func TestMCPTaskCancelled(t *testing.T) {
	g := newGate()
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{g.tool("slow", runtime.TaskRequired)}, discardLog())))
	defer hs.Close()
	c := &taskClient{t: t, url: hs.URL}
	id := c.create("slow", nil)
	<-g.started
	res, e := c.rpc("tasks/cancel", map[string]any{"taskId": id})
	if e != nil || res["resultType"] != "complete" || res["taskId"] != nil {
		t.Fatalf("tasks/cancel: %v %v", res, e)
	}
	g.awaitCancelled(t, "the handler's ctx did not end")
	c.await(id, "cancelled", taskStatus("cancelled"))
	inv := getTaskJSON(t, hs.URL+"/v1/invocations/"+id)
	if inv["status"] != "failed" || !strings.Contains(inv["error"].(string), "cancelled") {
		t.Errorf("record of a cancelled task: %v", inv)
	}
	// Cancelling again is acknowledged the same way.
	if res, e := c.rpc("tasks/cancel", map[string]any{"taskId": id}); e != nil || res["resultType"] != "complete" {
		t.Errorf("second tasks/cancel: %v %v", res, e)
	}
}

func TestMCPTaskInputThroughUpdate(t *testing.T) {
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{elicitTool()}, discardLog())))
	defer hs.Close()
	c := &taskClient{t: t, url: hs.URL}
	id := c.create("ask", nil)
	waiting := c.await(id, "input_required", taskStatus("input_required"))
	reqs, _ := waiting["inputRequests"].(map[string]any)
	if len(reqs) != 1 {
		t.Fatalf("inputRequests %v", waiting["inputRequests"])
	}
	var key string
	for k, v := range reqs {
		key = k
		if v.(map[string]any)["method"] != "elicitation/create" {
			t.Fatalf("input request %v", v)
		}
	}
	// An answer that does not fit the schema, and one to an unknown key,
	// are acknowledged and ignored.
	for _, answers := range []map[string]any{
		{key: map[string]any{"action": "accept", "content": map[string]any{"colour": 7}}},
		{"nope": map[string]any{"action": "accept", "content": map[string]any{}}},
	} {
		if res, e := c.rpc("tasks/update", map[string]any{"taskId": id, "inputResponses": answers}); e != nil || res["resultType"] != "complete" {
			t.Fatalf("tasks/update: %v %v", res, e)
		}
	}
	if res, _ := c.get(id); res["status"] != "input_required" {
		t.Fatalf("after ignored answers: %v", res)
	}
	if _, e := c.rpc("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		key: map[string]any{"action": "accept", "content": map[string]any{"colour": "teal"}},
	}}); e != nil {
		t.Fatal(e)
	}
	done := c.await(id, "completed", taskStatus("completed"))
	if got := taskText(t, done); got != "colour accept teal" {
		t.Errorf("result %q", got)
	}
}

func TestMCPTaskOtherCallerCannotSeeIt(t *testing.T) {
	g := newGate()
	opts := discardLog()
	opts.AuthHook = runtime.BearerTokens("alice-token", "bob-token")
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{g.tool("slow", runtime.TaskOptional)}, opts)))
	defer hs.Close()
	alice := &taskClient{t: t, url: hs.URL, token: "alice-token"}
	bob := &taskClient{t: t, url: hs.URL, token: "bob-token"}
	id := alice.create("slow", nil)
	<-g.started
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		p := map[string]any{"taskId": id}
		if m == "tasks/update" {
			p["inputResponses"] = map[string]any{}
		}
		if res, e := bob.rpc(m, p); e == nil || e["code"] != float64(-32602) {
			t.Errorf("%s by another caller: %v %v, want not found", m, res, e)
		}
	}
	// Bob's cancel did not reach it.
	if res, _ := alice.get(id); res["status"] != "working" {
		t.Errorf("alice's task: %v", res)
	}
	close(g.release)
	alice.await(id, "completed", taskStatus("completed"))
}

// TestMCPTaskSurvivesRestart: a task made before a restart reads the same
// after it (SQLite), and one whose process died reads as failed,
// "interrupted", once its deadline has passed.
func TestMCPTaskSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	open := func() *sqlite.Store {
		st, err := sqlite.Open(context.Background(), path, history.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	g := newGate()
	stuck := newGate()
	short := stuck.tool("stuck", runtime.TaskOptional)
	short.Timeout = 5 * time.Second // its record reads "interrupted" 5.4 s after it started
	tools := runtime.ToolList{g.tool("slow", runtime.TaskOptional), short}
	options := func(st history.Store) *runtime.Options {
		return &runtime.Options{History: st, HistoryTimeout: 200 * time.Millisecond, Logger: discardLogger()}
	}

	st1 := open()
	hs1 := httptest.NewServer(house(runtime.NewServer(tools, options(st1))))
	c1 := &taskClient{t: t, url: hs1.URL}
	done := c1.create("slow", map[string]any{"label": "before"})
	close(g.release)
	c1.await(done, "completed", taskStatus("completed"))
	died := c1.create("stuck", nil)
	<-stuck.started
	// The process "dies": its store goes, so the outcome is never written.
	hs1.Close()
	st1.Close()
	close(stuck.release)

	st2 := open()
	defer st2.Close()
	hs2 := httptest.NewServer(house(runtime.NewServer(tools, options(st2))))
	defer hs2.Close()
	c2 := &taskClient{t: t, url: hs2.URL}
	res, e := c2.get(done)
	if e != nil || res["status"] != "completed" || taskText(t, res) != "released before" {
		t.Fatalf("a completed task after a restart: %v %v", res, e)
	}
	failed := c2.await(died, "failed", func(r map[string]any) bool { return r["status"] != "working" })
	errObj, _ := failed["error"].(map[string]any)
	if failed["status"] != "failed" || errObj["message"] != history.Interrupted || failed["result"] != nil {
		t.Fatalf("a task whose process died: %v", failed)
	}
}

// TestMCPTaskOnAnotherReplica: a task made on one replica is read on
// another sharing PostgreSQL, while it runs and when it is done.
func TestMCPTaskOnAnotherReplica(t *testing.T) {
	dsn := servertest.PostgresDSN(t, "tasks")
	g := newGate()
	tools := runtime.ToolList{g.tool("slow", runtime.TaskOptional)}
	replica := func() string {
		st, err := postgres.Open(context.Background(), dsn, history.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		hs := httptest.NewServer(house(runtime.NewServer(tools, &runtime.Options{History: st, Logger: discardLogger()})))
		t.Cleanup(hs.Close)
		return hs.URL
	}
	a := &taskClient{t: t, url: replica()}
	b := &taskClient{t: t, url: replica()}
	id := a.create("slow", map[string]any{"label": "x"})
	<-g.started
	if res, e := b.get(id); e != nil || res["status"] != "working" {
		t.Fatalf("replica b, while it runs: %v %v", res, e)
	}
	close(g.release)
	a.await(id, "completed", taskStatus("completed"))
	res := b.await(id, "completed", taskStatus("completed"))
	if got := taskText(t, res); got != "released x" {
		t.Errorf("replica b's result %q", got)
	}
}

func getTaskJSON(t *testing.T, url string) map[string]any {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMCPTaskRequired: a task=required tool refuses a 2026-07-28 client
// that does not declare the extension (-32021, naming it); a
// task=optional one runs as an ordinary call for it.
func TestMCPTaskRequired(t *testing.T) {
	g := newGate()
	close(g.release)
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{g.tool("must", runtime.TaskRequired), g.tool("may", runtime.TaskOptional)}, discardLog())))
	defer hs.Close()
	call := func(name string) map[string]any {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", name)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			b.WriteString(string(buf[:n]))
			if err != nil {
				break
			}
		}
		text := b.String()
		if i := strings.Index(text, "data: "); i >= 0 {
			text = strings.TrimSpace(strings.SplitN(text[i+len("data: "):], "\n", 2)[0])
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(text), &msg); err != nil {
			t.Fatalf("%s: %q", name, text)
		}
		return msg
	}
	e, _ := call("must")["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	if e["code"] != float64(-32021) || !strings.Contains(mustJSON(data), "io.modelcontextprotocol/tasks") {
		t.Errorf("task=required without the extension: %v", e)
	}
	res, _ := call("may")["result"].(map[string]any)
	if res["resultType"] != "complete" || res["taskId"] != nil || taskText(t, map[string]any{"result": res}) != "released " {
		t.Errorf("task=optional without the extension: %v", res)
	}
}

// TestMCPTaskExpires: past its TTL a task still running is stopped, and
// tasks/get no longer finds it. The TTL (an hour) passes in a synctest
// bubble, the requests served in process.
func TestMCPTaskExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		h := houseWith(runtime.NewServer(runtime.ToolList{g.tool("slow", runtime.TaskOptional)}, discardLog()), &mcp.Options{TaskTTL: time.Hour})
		c := &taskClient{t: t, url: "http://in-process", client: &http.Client{Transport: servertest.InProcessTransport{Handler: h}}}
		start := time.Now()
		id := c.create("slow", nil)
		if res, _ := c.rpc("tools/call", map[string]any{"name": "slow"}); res["ttlMs"] != float64(time.Hour/time.Millisecond) {
			t.Errorf("ttlMs %v", res["ttlMs"])
		}
		cause := <-g.ended // twice: both calls are tasks of an hour
		<-g.ended
		if cause == nil || !strings.Contains(cause.Error(), "expired") {
			t.Errorf("the handler's ctx ended with %v", cause)
		}
		if d := time.Since(start); d != time.Hour {
			t.Errorf("the task ran for %v, want its TTL's hour", d)
		}
		time.Sleep(time.Second) // just past the TTL, in the bubble's time
		if _, e := c.get(id); e == nil || e["code"] != float64(-32602) {
			t.Errorf("task %s past its TTL: %v", id, e)
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// house serves MCP at /mcp and qmcp's /v1 (where the tests read the
// invocation records), as a program that mounts those two would.
func house(s *runtime.Server) http.Handler { return houseWith(s, nil) }

// houseWith is house with MCP's options.
func houseWith(s *runtime.Server, o *mcp.Options) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewHandler(s, o))
	mux.Handle("/v1/", http.StripPrefix("/v1", qmcp.NewHandler(s, nil)))
	return mux
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestMCPTaskSteeredFromAnotherReplica: on PostgreSQL, tasks/cancel and
// tasks/update sent to a replica that does not run the task reach the one
// that does (through the store's LISTEN/NOTIFY): the handler's ctx ends,
// the answer gets to the tool; and a task waiting for input reads
// input_required, with its question, on every replica. The waits are for conditions, with a
// generous ceiling.
func TestMCPTaskSteeredFromAnotherReplica(t *testing.T) {
	dsn := servertest.PostgresDSN(t, "steer")
	g := newGate()
	tools := runtime.ToolList{g.tool("slow", runtime.TaskOptional), elicitTool()}
	replica := func() *taskClient {
		st, err := postgres.Open(context.Background(), dsn, history.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		hs := httptest.NewServer(house(runtime.NewServer(tools, &runtime.Options{History: st, Logger: discardLogger()})))
		t.Cleanup(hs.Close)
		return &taskClient{t: t, url: hs.URL}
	}
	a, b := replica(), replica()

	id := a.create("slow", nil)
	<-g.started
	if res, e := b.rpc("tasks/cancel", map[string]any{"taskId": id}); e != nil || res["resultType"] != "complete" {
		t.Fatalf("tasks/cancel through b: %v %v", res, e)
	}
	g.awaitCancelled(t, "a cancel sent through b did not reach the handler on a")
	b.await(id, "cancelled", taskStatus("cancelled"))

	id = a.create("ask", nil)
	waiting := a.await(id, "input_required", taskStatus("input_required"))
	var key string
	for k := range waiting["inputRequests"].(map[string]any) {
		key = k
	}
	// b reads the question too: a told every replica.
	fromB := b.await(id, "input_required", taskStatus("input_required"))
	if q, _ := fromB["inputRequests"].(map[string]any); q[key] == nil {
		t.Fatalf("replica b reads the task waiting for input without its question: %v", fromB)
	}
	if _, e := b.rpc("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		key: map[string]any{"action": "accept", "content": map[string]any{"colour": "teal"}},
	}}); e != nil {
		t.Fatalf("tasks/update through b: %v", e)
	}
	done := b.await(id, "completed", taskStatus("completed"))
	if got := taskText(t, done); got != "colour accept teal" {
		t.Errorf("result %q", got)
	}
}

// The tasks' methods are checked as the rest of the revision's requests
// are, in the same order and words: the transport, an id, the protocol
// version of header and _meta, the Mcp-Method header; their envelope and
// params are read by their names as written. A -32602 is a 400, as the
// revision maps it.
func TestMCPTaskMethodsCheckedAsTheRevision(t *testing.T) {
	hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{newGate().tool("slow", runtime.TaskRequired)}, discardLog())))
	defer hs.Close()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	get := `{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{` + meta + `,"taskId":"nope"}}`
	headers := func(h ...string) map[string]string {
		m := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tasks/get"}
		for i := 0; i+1 < len(h); i += 2 {
			m[h[i]] = h[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		body   string
		header map[string]string
		status int
		want   string // in the body
	}{
		{"a task not found", get, headers(), 400, `"code":-32602,"message":"Task not found`},
		{"a version the server has not", strings.ReplaceAll(get, "2026-07-28", "2099-01-01"), headers("Mcp-Protocol-Version", "2099-01-01"), 400, `"error"`},
		{"another media type", get, headers("Content-Type", "text/plain"), 415, `"error"`},
		{"no Mcp-Method", get, headers("Mcp-Method", ""), 400, `missing required Mcp-Method header`},
		{"_meta's version not the header's", strings.ReplaceAll(get, `protocolVersion":"2026-07-28"`, `protocolVersion":"2025-11-25"`), headers(), 400, `does not match request`},
		{"a null id", strings.Replace(get, `"id":5`, `"id":null`, 1), headers(), 400, `"code":-32600`},
		{"an id in another case", strings.Replace(get, `"id":5`, `"ID":5`, 1), headers(), 400, `"code":-32600`},
		{"taskId in another case", strings.Replace(get, `"taskId"`, `"TASKID"`, 1), headers(), 400, `params.taskId is required`},
		{"the method in another case", strings.Replace(get, `"method":"tasks/get"`, `"method":"tools/list","METHOD":"tasks/get"`, 1), headers(), 400, `does not match body value 'tools/list'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(tc.body))
			for k, v := range tc.header {
				if v != "" {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.want) || strings.Contains(string(b), `"result"`) {
				t.Errorf("%d %s, want %d with %s", resp.StatusCode, b, tc.status, tc.want)
			}
		})
	}
}
