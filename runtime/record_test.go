package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/history"
)

func allRecords(t *testing.T, s *Server) []history.Record {
	t.Helper()
	recs, _, err := s.history.List(context.Background(), history.Filter{Limit: history.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// One record per call of a tool, on every surface, with its surface;
// nothing for an unknown tool or a validation.
func TestRecordedOnEverySurface(t *testing.T) {
	s := NewServer(append(qmcpTools(), Tool{Name: "k", Toolkit: "Q", Handler: callTools()[1].Handler}), &Options{AllowExecute: true, Logger: discard()})
	do(t, s, "POST", "/tools/echo/call", `{"message":"explorer"}`)
	do(t, s, "POST", "/tools/echo/validate", `{"message":"validated"}`)
	do(t, s, "POST", "/tools/nope/call", `{}`)
	if _, err := connect(t, s, nil).CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "mcp"}}); err != nil {
		t.Fatal(err)
	}
	do(t, s, "POST", "/oxp/tools/call", `{"request":{"tool_id":"Q.K"}}`)
	do(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"v1"}}`)
	s.Invoke(context.Background(), &Call{Tool: "echo", Arguments: json.RawMessage(`{"message":"direct"}`)})
	s.Invoke(context.Background(), &Call{Tool: "nope"})

	var got []string
	for _, r := range allRecords(t, s) {
		got = append(got, r.Surface+":"+r.Tool+":"+string(r.Status)+":"+string(r.Result))
	}
	want := `:echo:success:"direct",v1:echo:success:"v1",oxp:k:success:"result here",mcp:echo:success:"mcp",explorer:echo:success:"explorer"`
	if strings.Join(got, ",") != want {
		t.Errorf("records\n got %s\nwant %s", strings.Join(got, ","), want)
	}
}

// The record is pending while the handler runs, and complete when the
// call is answered; a call refused before the handler is recorded once,
// failed.
func TestRecordLifecycle(t *testing.T) {
	var seen history.Status
	var s *Server
	tools := ToolList{{Name: "look", Handler: func(ctx context.Context, _ json.RawMessage) (*Result, error) {
		recs, _, _ := s.history.List(ctx, history.Filter{Tool: "look"})
		if len(recs) == 1 {
			seen = recs[0].Status
		}
		return nil, &ToolError{Message: "looked"}
	}}, {Name: "strict", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`), Handler: callTools()[1].Handler}}
	s = NewServer(tools, &Options{Logger: discard()})
	out := s.Invoke(context.Background(), &Call{Tool: "look", Arguments: json.RawMessage(`{"a":[1,"é"]}`), CorrelationID: "wf"})
	if seen != history.Pending {
		t.Errorf("while the handler ran the record was %q", seen)
	}
	rec, err := s.history.Get(context.Background(), out.InvocationID)
	if err != nil || rec.Status != history.Failed || *rec.Error != "looked" || rec.Result != nil || string(rec.Input) != `{"a":[1,"é"]}` ||
		*rec.CorrelationID != "wf" || rec.CompletedAt == nil || rec.DurationMS == nil || rec.CreatedAt.Location() != time.UTC || rec.CreatedAt.Nanosecond()%int(time.Millisecond) != 0 {
		t.Errorf("record %+v %v", rec, err)
	}
	out = s.Invoke(context.Background(), &Call{Tool: "strict", Arguments: json.RawMessage(`{"n":"x"}`)})
	rec, err = s.history.Get(context.Background(), out.InvocationID)
	if err != nil || rec.Status != history.Failed || !strings.Contains(*rec.Error, "/n: expected integer") {
		t.Errorf("invalid arguments: %+v %v", rec, err)
	}
	// Arguments the pipeline would not parse are kept as text.
	deep := `{"n":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`
	for _, args := range []string{deep, `{"n":1,"n":2}`, "{\"n\":\"\xff\"}", `{"n":`} {
		out = s.Invoke(context.Background(), &Call{Tool: "strict", Arguments: json.RawMessage(args)})
		rec, err = s.history.Get(context.Background(), out.InvocationID)
		var text string
		if err != nil || json.Unmarshal(rec.Input, &text) != nil || text != strings.ToValidUTF8(args, "\uFFFD") {
			t.Errorf("%.40s: input %.60s, %v", args, rec.Input, err)
		}
	}
	if n := len(allRecords(t, s)); n != 6 {
		t.Errorf("%d records, want 6", n)
	}
}

// failingStore fails or hangs on writes: every Start, and the first
// finishFails Finishes (all of them when finishFails is negative).
type failingStore struct {
	history.Store
	hang        bool
	startOK     bool
	finishFails int32
	writes      atomic.Int32
	finishes    atomic.Int32
}

func (f *failingStore) Start(ctx context.Context, r *history.Record) error {
	if f.startOK {
		f.writes.Add(1)
		return f.Store.Start(ctx, r)
	}
	return f.fail(ctx)
}

func (f *failingStore) Finish(ctx context.Context, r *history.Record) error {
	if n := f.finishes.Add(1); f.finishFails >= 0 && n > f.finishFails {
		f.writes.Add(1)
		return f.Store.Finish(ctx, r)
	}
	return f.fail(ctx)
}

func (f *failingStore) fail(ctx context.Context) error {
	f.writes.Add(1)
	if f.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return errors.New("disk on fire")
}

// counting is a tool that counts its runs.
func counting(runs *atomic.Int32) Tool {
	return Tool{Name: "echo", Handler: func(context.Context, json.RawMessage) (*Result, error) {
		runs.Add(1)
		return TextResult("hi"), nil
	}}
}

// History fails closed: a call whose pending record cannot be written
// (the store failing or hanging) is refused, retryably, and its handler
// never runs; each failure is logged and counted.
func TestHistoryFailsClosed(t *testing.T) {
	for _, hang := range []bool{false, true} {
		// The hanging store's write ends at HistoryTimeout, which passes in
		// a synctest bubble: exactly, however loaded the machine.
		synctest.Test(t, func(t *testing.T) {
			var logs logBuffer
			var runs atomic.Int32
			store := &failingStore{Store: history.NewMemory(history.Retention{}), hang: hang, finishFails: -1}
			s := NewServer(ToolList{counting(&runs)}, &Options{History: store, HistoryTimeout: 50 * time.Millisecond, Logger: logs.Logger(), AllowExecute: true})
			start := time.Now()
			r := do(t, s, "POST", "/tools/echo/call", `{}`)
			r.is(t, 503, `{"error":"The call could not be recorded, so it was not run; retry shortly."}`)
			if r.header.Get("Retry-After") == "" || runs.Load() != 0 {
				t.Errorf("hang=%v: Retry-After %q, %d runs", hang, r.header.Get("Retry-After"), runs.Load())
			}
			if waited, want := time.Since(start), map[bool]time.Duration{false: 0, true: 50 * time.Millisecond}[hang]; waited != want {
				t.Errorf("hang=%v: refused after %v, want %v", hang, waited, want)
			}
			if store.writes.Load() != 1 || strings.Count(logs.String(), `msg="history store failed"`) != 1 {
				t.Errorf("hang=%v: %d writes, logs %s", hang, store.writes.Load(), logs.String())
			}
			if m := do(t, s, "GET", "/metrics", ""); !strings.Contains(m.body, `toolgen_history_store_errors_total{op="start"} 1`) || !strings.Contains(m.body, `outcome="unrecorded"`) {
				t.Errorf("hang=%v: not counted:\n%s", hang, m.body)
			}
		})
	}
}

// With HistoryBestEffort, a failing store does not stop calls: they run
// unrecorded, logged and counted.
func TestHistoryBestEffort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // the finish's retries pass in fake time
		var logs logBuffer
		var runs atomic.Int32
		store := &failingStore{Store: history.NewMemory(history.Retention{}), finishFails: -1}
		s := NewServer(ToolList{counting(&runs)}, &Options{History: store, HistoryTimeout: 50 * time.Millisecond, HistoryBestEffort: true, Logger: logs.Logger(), AllowExecute: true})
		do(t, s, "POST", "/tools/echo/call", `{}`).is(t, 200, `{"content":[{"type":"text","text":"hi"}],"isError":false}`)
		if runs.Load() != 1 || !strings.Contains(logs.String(), `op=start`) || !strings.Contains(logs.String(), `op=finish`) {
			t.Errorf("%d runs, logs %s", runs.Load(), logs.String())
		}
	})
}

// A completion that fails is retried, with backoff, until the store
// takes it; the backoff passes in fake time.
func TestHistoryFinishRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var runs atomic.Int32
		mem := history.NewMemory(history.Retention{})
		store := &failingStore{Store: mem, startOK: true, finishFails: 3}
		s := NewServer(ToolList{counting(&runs)}, &Options{History: store, HistoryTimeout: 10 * time.Second, Logger: discard()})
		out := s.Invoke(context.Background(), &Call{Tool: "echo"})
		rec, err := mem.Get(context.Background(), out.InvocationID)
		if err != nil || rec.Status != history.Success || store.finishes.Load() != 4 {
			t.Errorf("record %+v %v after %d finishes", rec, err, store.finishes.Load())
		}
	})
}

// The redaction hook edits what is stored; secrets given with an OXP call
// are never stored.
func TestRecordRedactionAndSecrets(t *testing.T) {
	tool := Tool{Name: "login", Toolkit: "A", Secrets: []string{"PASSWORD"}, Handler: func(ctx context.Context, args json.RawMessage) (*Result, error) {
		pw, _ := Secret(ctx, "PASSWORD")
		return StructuredResult(map[string]any{"ok": pw != "", "token": "tok-123"})
	}}
	s := NewServer(ToolList{tool}, &Options{Logger: discard(), RedactHistory: func(r *history.Record) {
		r.Input = json.RawMessage(strings.ReplaceAll(string(r.Input), "ada@example.com", "***"))
		r.Result = json.RawMessage(strings.ReplaceAll(string(r.Result), "tok-123", "***"))
	}})
	r := do(t, s, "POST", "/oxp/tools/call", `{"request":{"tool_id":"A.Login","input":{"user":"ada@example.com"},"context":{"secrets":[{"id":"PASSWORD","value":"hunter2"}]}}}`)
	if !strings.Contains(r.body, `"success":true`) {
		t.Fatalf("call: %s", r.body)
	}
	recs := allRecords(t, s)
	b, _ := json.Marshal(recs)
	if len(recs) != 1 || strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "ada@example.com") || strings.Contains(string(b), "tok-123") || !strings.Contains(string(b), `"input_params":{"user":"***"}`) {
		t.Errorf("stored: %s", b)
	}
}

// /metrics counts invocations by tool, surface and outcome, and HTTP
// requests by route; /health says healthy, or 503 when the store is down.
func TestMetricsAndHealth(t *testing.T) {
	s := NewServer(qmcpTools(), &Options{AllowExecute: true, Logger: discard()})
	// One tool's calls on two surfaces with two outcomes, the explorer's
	// series counted more than once: each call counts in its own.
	do(t, s, "POST", "/tools/echo/call", `{"message":"a"}`)
	do(t, s, "POST", "/tools/echo/call", `{}`)
	do(t, s, "POST", "/tools/echo/call", `{"message":"b"}`)
	do(t, s, "POST", "/v1/tools/echo", `{"input":{"message":"c"}}`)
	do(t, s, "POST", "/tools/echo/call", `{}`)
	do(t, s, "POST", "/tools/echo/call", `{"message":"d"}`)
	do(t, s, "POST", "/v1/tools/planner", `{"input":{"goal":"fail"}}`)
	m := do(t, s, "GET", "/metrics", "").body
	for _, want := range []string{
		`toolgen_invocations_total{outcome="ok",surface="explorer",tool="echo"} 3`,
		`toolgen_invocations_total{outcome="invalid",surface="explorer",tool="echo"} 2`,
		`toolgen_invocations_total{outcome="ok",surface="v1",tool="echo"} 1`,
		`toolgen_invocations_total{outcome="failed",surface="v1",tool="planner"} 1`,
		`toolgen_invocation_duration_seconds_count{surface="explorer",tool="echo"} 5`,
		`toolgen_invocation_duration_seconds_count{surface="v1",tool="echo"} 1`,
		`toolgen_http_requests_total{code="200",route="/tools/{name}/call"} 3`,
		`toolgen_http_requests_total{code="400",route="/tools/{name}/call"} 2`,
		`toolgen_http_requests_total{code="200",route="/v1/tools/{name}"} 2`,
		`go_goroutines`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("no %s in /metrics", want)
		}
	}
	_, version := buildIdentity()
	do(t, s, "GET", "/health", "").is(t, 200, `{"status":"healthy","version":"`+version+`"}`)
	down := NewServer(qmcpTools(), &Options{Logger: discard(), History: downStore{history.NewMemory(history.Retention{})}, Version: "1.2.3"})
	do(t, down, "GET", "/health", "").is(t, 503, `{"error":"history store unreachable or not writable","status":"unhealthy","store":"custom","version":"1.2.3"}`)

}

// TestMetricsOfForwardedCalls: a server whose middleware answers with
// another server's Invoke counts the call in its own metrics, and the
// other counts it once, in its own. (Each server's metrics count from
// when its first handler is built, as a program builds them before it
// serves.)
func TestMetricsOfForwardedCalls(t *testing.T) {
	b := NewServer(qmcpTools(), &Options{Logger: discard()})
	a := NewServer(qmcpTools(), &Options{AllowExecute: true, Logger: discard(), Middleware: []Middleware{
		func(InvokeFunc) InvokeFunc { return b.Invoke },
	}})
	houseOf(b)
	for range 2 {
		do(t, a, "POST", "/tools/echo/call", `{"message":"a"}`).is(t, 200, `{"content":[{"type":"text","text":"a"}],"structuredContent":{"result":"a"},"isError":false}`)
	}
	for s, n := range map[*Server]int{a: 2, b: 2} {
		want := fmt.Sprintf(`toolgen_invocations_total{outcome="ok",surface="explorer",tool="echo"} %d`, n)
		if m := do(t, s, "GET", "/metrics", "").body; !strings.Contains(m, want) {
			t.Errorf("no %s in the /metrics of %p", want, s)
		}
	}
}

type downStore struct{ history.Store }

func (downStore) Ping(context.Context) error { return errors.New("connection refused") }

// A pending record carries the deadline past which it reads
// "interrupted": the call's timeout (the tool's own, else the server's,
// else DefaultPendingDeadline) and twice the history timeout.
func TestRecordDeadline(t *testing.T) {
	mem := history.NewMemory(history.Retention{})
	var seen *history.Record
	slow := Tool{Name: "slow", Timeout: time.Minute, Handler: func(ctx context.Context, _ json.RawMessage) (*Result, error) {
		c, _ := CallFromContext(ctx)
		seen, _ = mem.Get(ctx, c.InvocationID)
		return TextResult("ok"), nil
	}}
	plain := Tool{Name: "plain", Handler: slow.Handler}
	for _, tc := range []struct {
		opts Options
		tool string
		want time.Duration
	}{
		{Options{}, "slow", time.Minute + 2*DefaultHistoryTimeout},
		{Options{HistoryTimeout: time.Second}, "plain", DefaultPendingDeadline + 2*time.Second},
		{Options{CallTimeout: 5 * time.Second}, "plain", 5*time.Second + 2*DefaultHistoryTimeout},
	} {
		tc.opts.History, tc.opts.Logger = mem, discard()
		s := NewServer(ToolList{slow, plain}, &tc.opts)
		seen = nil
		s.Invoke(context.Background(), &Call{Tool: tc.tool})
		if seen == nil || seen.Status != history.Pending || seen.Deadline == nil || seen.Deadline.Sub(seen.CreatedAt) != tc.want {
			t.Errorf("%s: pending record %+v, want a deadline %s after its creation", tc.tool, seen, tc.want)
		}
	}
}

// TestMilli: the time history keeps is in UTC, to the millisecond, with
// no monotonic reading (== compares all three).
func TestMilli(t *testing.T) {
	now := time.Now()
	for _, in := range []time.Time{now, now.In(time.FixedZone("CET", 3600)), time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2026, 11, 27, 1, 2, 3, 4_000_001, time.FixedZone("X", -7*3600))} {
		want := in.Round(0).UTC().Truncate(time.Millisecond)
		if got := milli(in); got != want {
			t.Errorf("milli(%v) = %#v, want %#v", in, got, want)
		}
	}
}

// TestWriteHealth: /health's view of history writes fails with a failed
// write and recovers with the next that succeeds, not only once the
// failure is old.
func TestWriteHealth(t *testing.T) {
	var h writeHealth
	h.succeeded()
	if h.failing(time.Now()) {
		t.Fatal("failing after a write that succeeded")
	}
	h.failed.Store(time.Now().UnixNano()) // as Server.write notes a failure
	if !h.failing(time.Now()) {
		t.Fatal("not failing after a write that failed")
	}
	h.succeeded()
	if h.failing(time.Now()) {
		t.Fatal("still failing after a write succeeded")
	}
}

// qmcpTools are the spec file's echo and planner, enough to speak the /v1
// protocol as qmcp does.
func qmcpTools() ToolList {
	return ToolList{{
		Name: "echo", Description: "Echo the input message back. Useful for testing.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"message":{"type":"string","description":"The message to echo back"}},"required":["message"]}`),
		OutputSchema: json.RawMessage(`{"type":"string"}`),
		Handler: func(_ context.Context, args json.RawMessage) (*Result, error) {
			var in struct{ Message string }
			if err := DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return StructuredResult(in.Message)
		},
	}, {
		Name: "planner", Description: "Create a step-by-step execution plan from a goal.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"goal":{"type":"string","description":"The goal to create a plan for"},"context":{"type":"string","description":"Optional context to inform planning"}},"required":["goal"]}`),
		Handler: func(_ context.Context, args json.RawMessage) (*Result, error) {
			var in struct{ Goal string }
			if err := DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			if in.Goal == "fail" {
				return nil, errors.New("cannot plan that")
			}
			return StructuredResult(map[string]any{"goal": in.Goal, "estimated_steps": 4})
		},
	}}
}
