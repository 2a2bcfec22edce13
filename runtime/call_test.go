package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// callTools covers every outcome of the call pipeline.
func callTools() ToolList {
	return ToolList{
		{
			Name: "traced",
			Handler: func(context.Context, json.RawMessage) (*Result, error) {
				return &Result{Content: []Content{Text("result here")}, TraceID: "abc-123"}, nil
			},
		},
		{
			Name:    "plain",
			Handler: func(context.Context, json.RawMessage) (*Result, error) { return TextResult("result here"), nil },
		},
		{
			Name:    "soft_fail",
			Handler: func(context.Context, json.RawMessage) (*Result, error) { return ErrorResult("no such city"), nil },
		},
		{
			Name:    "hard_fail",
			Handler: func(context.Context, json.RawMessage) (*Result, error) { return nil, errors.New("backend exploded") },
		},
		{
			Name:    "panics",
			Handler: func(context.Context, json.RawMessage) (*Result, error) { panic("boom") },
		},
		{
			Name: "slow",
			// Ignores ctx on purpose, and outlasts any test's wait for a
			// timeout answer by far: a test that waited for it would show.
			Timeout: slowTimeout,
			Handler: func(ctx context.Context, _ json.RawMessage) (*Result, error) {
				time.Sleep(time.Minute)
				return TextResult("late"), nil
			},
		},
		{
			Name:    "nil_result",
			Handler: func(context.Context, json.RawMessage) (*Result, error) { return nil, nil },
		},
		{
			Name: "count",
			InputSchema: json.RawMessage(`{"type":"object","properties":{
				"city":{"type":"string","minLength":1},
				"days":{"type":"integer","minimum":1,"maximum":14},
				"big":{"type":"integer"},
				"ratio":{"type":"number"},
				"tags":{"type":"array","items":{"type":"string"}}
			},"required":["city"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (*Result, error) {
				var in struct {
					City  string   `json:"city"`
					Days  int      `json:"days"`
					Big   int64    `json:"big"`
					Ratio float64  `json:"ratio"`
					Tags  []string `json:"tags"`
				}
				if err := DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				return StructuredResult(in)
			},
		},
	}
}

// shapeTools cover what callTools do not: decoding refused after
// validation, and scalar structured results.
func shapeTools() []Tool {
	return []Tool{
		{
			// A schema looser than the Go type: decoding refuses what the
			// schema let through.
			Name:        "loose",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
			Handler: func(ctx context.Context, args json.RawMessage) (*Result, error) {
				var in struct {
					N int8 `json:"n"`
				}
				if err := DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				return TextResult(fmt.Sprint(in.N)), nil
			},
		},
		{
			Name:         "answer",
			OutputSchema: json.RawMessage(`{"type":"integer"}`),
			Handler:      func(context.Context, json.RawMessage) (*Result, error) { return StructuredResult(42) },
		},
		{
			Name:         "ping",
			OutputSchema: json.RawMessage(`{"type":"string"}`),
			Handler:      func(context.Context, json.RawMessage) (*Result, error) { return StructuredResult("pong") },
		},
	}
}

// wire is v as the surfaces write it (no HTML escaping).
func wire(t *testing.T, v any) string {
	t.Helper()
	b, err := httpkit.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Invoke, every status and every bad input, with and without a per-call
// timeout: the two run the handler on different paths (inline, or in a
// goroutine of its own), and both recover panics.
func TestInvoke(t *testing.T) {
	const (
		plain   = `{"content":[{"type":"text","text":"result here"}],"isError":false}`
		invalid = `{"content":[{"type":"text","text":"invalid arguments:\n- %s (%s)"}],"isError":true}`
	)
	cases := []struct {
		name, tool, args string
		status           Status
		result           string // the Result as JSON
		err              string // in Err's message; "" for no error
	}{
		{"ok", "plain", `{}`, StatusOK, plain, ""},
		{"no arguments", "plain", ``, StatusOK, plain, ""},
		{"trace id", "traced", `{}`, StatusOK, plain, ""},
		{"nil result", "nil_result", `{}`, StatusOK, `{"content":[],"isError":false}`, ""},
		{"structured", "count", `{"city":"Oslo","days":2}`, StatusOK, `{"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"days\":2,\"big\":0,\"ratio\":0,\"tags\":null}"}],"structuredContent":{"city":"Oslo","days":2,"big":0,"ratio":0,"tags":null},"isError":false}`, ""},
		{"scalar structured result", "answer", `{}`, StatusOK, `{"content":[{"type":"text","text":"42"}],"structuredContent":{"result":42},"isError":false}`, ""},
		{"string structured result", "ping", `{}`, StatusOK, `{"content":[{"type":"text","text":"pong"}],"structuredContent":{"result":"pong"},"isError":false}`, ""},
		{"whole number with a fraction", "count", `{"city":"Oslo","days":3.0,"big":1e2}`, StatusOK, `{"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"days\":3,\"big\":100,\"ratio\":0,\"tags\":null}"}],"structuredContent":{"city":"Oslo","days":3,"big":100,"ratio":0,"tags":null},"isError":false}`, ""},
		{"isError result", "soft_fail", `{}`, StatusFailed, `{"content":[{"type":"text","text":"no such city"}],"isError":true}`, ""},
		{"handler error", "hard_fail", `{}`, StatusFailed, `{"content":[{"type":"text","text":"backend exploded"}],"isError":true}`, "backend exploded"},
		{"panic", "panics", `{}`, StatusFailed, `{"content":[{"type":"text","text":"tool panicked: boom"}],"isError":true}`, "tool panicked: boom"},
		{"unknown tool", "nope", `{}`, StatusNotFound, `{"content":[{"type":"text","text":"Tool not found: nope"}],"isError":true}`, "tool not found: nope"},
		{"not JSON", "plain", `{"a":`, StatusInvalid, fmt.Sprintf(invalid, "(root): not valid JSON: it ends before the value is complete", "format"), "invalid arguments"},
		{"a stray bracket after the value", "count", `{"city":"0"}}`, StatusInvalid, fmt.Sprintf(invalid, "(root): not valid JSON: unexpected '}' at byte 13", "format"), "invalid arguments"},
		{"a second value", "count", `{"city":"0"} {}`, StatusInvalid, fmt.Sprintf(invalid, "(root): not valid JSON: unexpected '{' at byte 14", "format"), "invalid arguments"},
		{"invalid UTF-8", "plain", "{\"a\":\"\xff\"}", StatusInvalid, fmt.Sprintf(invalid, "(root): not valid UTF-8", "format"), "invalid arguments"},
		{"too deep", "plain", strings.Repeat("[", 200) + strings.Repeat("]", 200), StatusInvalid, fmt.Sprintf(invalid, "(root): nested deeper than 128 levels", "format"), "invalid arguments"},
		{"number past float64", "count", `{"city":"x","ratio":1e400}`, StatusInvalid, fmt.Sprintf(invalid, "/ratio: number out of range", "format"), "invalid arguments"},
		{"huge exponent", "count", `{"city":"x","days":1e10000000}`, StatusInvalid, fmt.Sprintf(invalid, "/days: number out of range", "format"), "invalid arguments"},
		{"schema", "count", `{"days":20}`, StatusInvalid, `{"content":[{"type":"text","text":"invalid arguments:\n- /city: missing required property (required)\n- /days: must be <= 14 but found 20 (maximum)"}],"isError":true}`, "invalid arguments"},
		{"huge mantissa", "count", `{"city":"x","big":` + strings.Repeat("9", 1001) + `}`, StatusInvalid, fmt.Sprintf(invalid, "/big: number out of range", "format"), "invalid arguments"},
		{"wrong types", "count", `{"city":5,"days":"3"}`, StatusInvalid, `{"content":[{"type":"text","text":"invalid arguments:\n- /city: expected string, but got number (type)\n- /days: expected integer, but got string (type)"}],"isError":true}`, "invalid arguments"},
		{"unknown fields", "count", `{"city":"x","extra":1,"a/b":2}`, StatusInvalid, `{"content":[{"type":"text","text":"invalid arguments:\n- /a~1b: unknown property (additionalProperties)\n- /extra: unknown property (additionalProperties)"}],"isError":true}`, "invalid arguments"},
		{"not an object", "count", `[1,2]`, StatusInvalid, fmt.Sprintf(invalid, "(root): expected object, but got array", "type"), "invalid arguments"},
		{"array item", "count", `{"city":"x","tags":["a",3]}`, StatusInvalid, fmt.Sprintf(invalid, "/tags/1: expected string, but got number", "type"), "invalid arguments"},
		{"fraction for an integer", "count", `{"city":"x","days":2.5}`, StatusInvalid, fmt.Sprintf(invalid, "/days: expected integer, but got number", "type"), "invalid arguments"},
		{"not decodable into the Go type", "loose", `{"n":300}`, StatusInvalid, fmt.Sprintf(invalid, "/n: expected an integer that fits int8, but got number 300", "type"), "invalid arguments"},
	}
	for _, timeout := range []time.Duration{0, time.Second} {
		s := NewServer(append(callTools(), shapeTools()...), &Options{CallTimeout: timeout, Logger: discard()})
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/timeout=%v", c.name, timeout), func(t *testing.T) {
				out := s.Invoke(context.Background(), &Call{Tool: c.tool, Arguments: json.RawMessage(c.args)})
				if out.Status != c.status {
					t.Errorf("status %v, want %v", out.Status, c.status)
				}
				if got := wire(t, out.Result); got != c.result {
					t.Errorf("result\n got %s\nwant %s", got, c.result)
				}
				switch {
				case c.err == "" && out.Err != nil:
					t.Errorf("err %v, want none", out.Err)
				case c.err != "" && (out.Err == nil || !strings.Contains(out.Err.Error(), c.err)):
					t.Errorf("err %v, want one saying %q", out.Err, c.err)
				}
				if (out.Tool == nil) != (c.status == StatusNotFound) {
					t.Errorf("tool %v for status %v", out.Tool, out.Status)
				}
				if out.Duration <= 0 {
					t.Errorf("duration %v", out.Duration)
				}
			})
		}
	}
}

// The outcome's parts that the table does not show: the trace id, the
// issues of invalid arguments, errors.Is for an unknown tool.
func TestInvokeOutcome(t *testing.T) {
	s := NewServer(callTools(), &Options{Logger: discard()})
	ctx := context.Background()
	if out := s.Invoke(ctx, &Call{Tool: "traced"}); out.Result.TraceID != "abc-123" {
		t.Errorf("trace id %q", out.Result.TraceID)
	}
	out := s.Invoke(ctx, &Call{Tool: "count", Arguments: json.RawMessage(`{"days":0,"x":1}`)})
	want := `[{"path":"/city","message":"missing required property","keyword":"required"},{"path":"/days","message":"must be >= 1 but found 0","keyword":"minimum"},{"path":"/x","message":"unknown property","keyword":"additionalProperties"}]`
	if got := wire(t, out.Issues()); got != want {
		t.Errorf("issues\n got %s\nwant %s", got, want)
	}
	var ve *ValidationError
	if !errors.As(out.Err, &ve) || ve.Malformed {
		t.Errorf("err %#v, want a *ValidationError of the schema", out.Err)
	}
	if out := s.Invoke(ctx, &Call{Tool: "plain", Arguments: json.RawMessage(`nope`)}); !errors.As(out.Err, &ve) || !ve.Malformed {
		t.Errorf("not JSON: err %#v, want a malformed *ValidationError", out.Err)
	}
	if out := s.Invoke(ctx, &Call{Tool: "nope"}); !errors.Is(out.Err, ErrToolNotFound) {
		t.Errorf("unknown tool: %v does not wrap ErrToolNotFound", out.Err)
	}
	if out := s.Invoke(ctx, &Call{Tool: "plain"}); out.Issues() != nil {
		t.Errorf("issues of a good call: %v", out.Issues())
	}
}

// slowTimeout is the timeout of callTools' slow tool. Only that tool has
// one, so that on a loaded machine no other call in the same server can
// time out; and its handler never answers before it, so it always does.
const slowTimeout = 50 * time.Millisecond

// answeredWithin is a generous ceiling for an answer that must not wait for
// a handler which ignores its context (callTools' slow sleeps a minute):
// far above any scheduling delay, far below the handler.
const answeredWithin = 30 * time.Second

// A timeout is its own status, answered at the deadline without waiting
// for a handler that ignores its context; without one the handler runs to
// the end. The deadlines pass in a synctest bubble: exactly, however loaded
// the machine.
func TestInvokeTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs logBuffer
		tools := callTools()
		tools[5].Timeout = 0 // Options.CallTimeout applies
		s := NewServer(tools, &Options{CallTimeout: 20 * time.Millisecond, Logger: logs.Logger()})
		start := time.Now()
		out := s.Invoke(context.Background(), &Call{Tool: "slow"})
		if out.Status != StatusTimeout || !errors.Is(out.Err, errTimedOut) || wire(t, out.Result) != `{"content":[{"type":"text","text":"Tool slow timed out after 20ms."}],"isError":true}` {
			t.Errorf("got %v %v %s", out.Status, out.Err, wire(t, out.Result))
		}
		if d := time.Since(start); d != 20*time.Millisecond {
			t.Errorf("answered after %v, want the timeout's 20ms: the handler (a minute) was waited for", d)
		}
		if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "tool call timed out") {
			t.Errorf("timeout not logged at WARN: %s", logs.String())
		}
		unhurried := Tool{Name: "slow", Handler: func(context.Context, json.RawMessage) (*Result, error) {
			time.Sleep(time.Hour)
			return TextResult("late"), nil
		}}
		start = time.Now()
		if out := NewServer(ToolList{unhurried}, nil).Invoke(context.Background(), &Call{Tool: "slow"}); out.Status != StatusOK || time.Since(start) != time.Hour {
			t.Errorf("without a timeout: %v after %v, want ok after the handler's hour", out.Status, time.Since(start))
		}
	})
}

// A provider's failure is StatusUnavailable, logged once with its error,
// and shown to no one.
func TestInvokeProviderFailure(t *testing.T) {
	var logs logBuffer
	s := NewServer(ToolsFunc(func(context.Context) ([]Tool, error) { return nil, errors.New("database is down") }), &Options{Logger: logs.Logger()})
	out := s.Invoke(context.Background(), &Call{Tool: "x"})
	if out.Status != StatusUnavailable || wire(t, out.Result) != `{"content":[{"type":"text","text":"Failed to list tools."}],"isError":true}` {
		t.Errorf("got %v %s", out.Status, wire(t, out.Result))
	}
	if n := strings.Count(logs.String(), "database is down"); n != 1 {
		t.Errorf("provider error logged %d times: %s", n, logs.String())
	}
}

// Handler failures are logged at ERROR with what went wrong; a panic with
// its stack, on both paths.
func TestInvokeLogs(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Second} {
		var logs logBuffer
		s := NewServer(callTools(), &Options{CallTimeout: timeout, Logger: logs.Logger()})
		s.Invoke(context.Background(), &Call{Tool: "panics"})
		s.Invoke(context.Background(), &Call{Tool: "hard_fail"})
		l := logs.String()
		if !strings.Contains(l, "level=ERROR msg=\"tool panicked\" tool=panics panic=boom stack=") {
			t.Errorf("timeout=%v: panic not logged with its stack: %s", timeout, l)
		}
		if !strings.Contains(l, `level=ERROR msg="tool failed" tool=hard_fail err="backend exploded"`) {
			t.Errorf("timeout=%v: error not logged: %s", timeout, l)
		}
	}
}

// ValidateOnly stops before the handler.
func TestInvokeValidateOnly(t *testing.T) {
	ran := false
	s := NewServer(ToolList{{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`), Handler: func(context.Context, json.RawMessage) (*Result, error) {
		ran = true
		return TextResult("ran"), nil
	}}}, nil)
	if out := s.Invoke(context.Background(), &Call{Tool: "t", Arguments: json.RawMessage(`{"n":1}`), ValidateOnly: true}); out.Status != StatusOK || out.Result != nil {
		t.Errorf("valid: %v %v", out.Status, out.Result)
	}
	if out := s.Invoke(context.Background(), &Call{Tool: "t", Arguments: json.RawMessage(`{"n":"1"}`), ValidateOnly: true}); out.Status != StatusInvalid || len(out.Issues()) != 1 {
		t.Errorf("invalid: %v %v", out.Status, out.Issues())
	}
	if ran {
		t.Error("the handler ran")
	}
}

// Middleware wraps every call in order, the first outermost; it can see
// the call and the outcome, change the context, and answer on its own.
func TestMiddleware(t *testing.T) {
	var (
		mu    sync.Mutex
		trail []string
	)
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		trail = append(trail, s)
	}
	type key struct{}
	named := func(name string) Middleware {
		return func(next InvokeFunc) InvokeFunc {
			return func(ctx context.Context, c *Call) *Outcome {
				note(name + ">" + c.Tool)
				out := next(context.WithValue(ctx, key{}, name), c)
				note("<" + name + ":" + out.Status.String())
				return out
			}
		}
	}
	refuse := func(next InvokeFunc) InvokeFunc {
		return func(ctx context.Context, c *Call) *Outcome {
			if c.Tool == "hard_fail" {
				return &Outcome{Status: StatusFailed, Result: ErrorResult("rate limited"), Err: errors.New("rate limited")}
			}
			return next(ctx, c)
		}
	}
	tools := append(callTools(), Tool{Name: "who", Handler: func(ctx context.Context, _ json.RawMessage) (*Result, error) {
		return TextResult(ctx.Value(key{}).(string)), nil
	}})
	s := NewServer(tools, &Options{Middleware: []Middleware{named("a"), nil, named("b"), refuse}, Logger: discard()})

	out := s.Invoke(context.Background(), &Call{Tool: "who"})
	if got := strings.Join(trail, " "); got != "a>who b>who <b:ok <a:ok" {
		t.Errorf("order: %s", got)
	}
	if out.Result.Content[0].Text != "b" {
		t.Errorf("the innermost middleware's context did not reach the handler: %s", out.Result.Content[0].Text)
	}
	trail = nil
	if out := s.Invoke(context.Background(), &Call{Tool: "hard_fail"}); out.Result.Content[0].Text != "rate limited" {
		t.Errorf("middleware's own answer: %s", wire(t, out.Result))
	}
	if got := strings.Join(trail, " "); got != "a>hard_fail b>hard_fail <b:failed <a:failed" {
		t.Errorf("short-circuit: %s", got)
	}
}

// A handler that returns a shared result is not written to: the pipeline
// copies it to fill in an empty content list or wrap a scalar (run with
// -race).
func TestSharedResultNotMutated(t *testing.T) {
	shared := &Result{}
	scalar := &Result{Content: []Content{Text("1")}, StructuredContent: 1}
	s := NewServer(ToolList{
		{Name: "shared", Handler: func(context.Context, json.RawMessage) (*Result, error) { return shared, nil }},
		{Name: "scalar", OutputSchema: json.RawMessage(`{"type":"number"}`), Handler: func(context.Context, json.RawMessage) (*Result, error) { return scalar, nil }},
	}, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if out := s.Invoke(context.Background(), &Call{Tool: "shared"}); wire(t, out.Result) != `{"content":[],"isError":false}` {
				t.Errorf("shared: %s", wire(t, out.Result))
			}
			if out := s.Invoke(context.Background(), &Call{Tool: "scalar"}); wire(t, out.Result) != `{"content":[{"type":"text","text":"1"}],"structuredContent":{"result":1},"isError":false}` {
				t.Errorf("scalar: %s", wire(t, out.Result))
			}
		})
	}
	wg.Wait()
	if shared.Content != nil || scalar.StructuredContent != 1 {
		t.Errorf("the handler's result was modified: %+v %+v", shared, scalar)
	}
}

// Concurrent calls share compiled schemas safely (run with -race).
func TestConcurrentCalls(t *testing.T) {
	s := NewServer(callTools(), nil)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for j := range 20 {
				out := s.Invoke(context.Background(), &Call{Tool: "count", Arguments: json.RawMessage(fmt.Sprintf(`{"city":"c%d","days":%d}`, i, j%14+1))})
				if out.Status != StatusOK {
					t.Errorf("%v: %s", out.Status, wire(t, out.Result))
				}
			}
		})
	}
	wg.Wait()
}

func TestStatusString(t *testing.T) {
	for st, want := range map[Status]string{StatusOK: "ok", StatusFailed: "failed", StatusInvalid: "invalid", StatusTimeout: "timeout", StatusNotFound: "not_found", StatusUnavailable: "unavailable", Status(99): "Status(99)"} {
		if st.String() != want {
			t.Errorf("%d: %q, want %q", int(st), st.String(), want)
		}
	}
}

// Every surface calls through the middleware, naming itself.
func TestMiddlewareOnEverySurface(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	record := func(next InvokeFunc) InvokeFunc {
		return func(ctx context.Context, c *Call) *Outcome {
			out := next(ctx, c)
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("%s:%s:%v:%s", c.Surface, c.Tool, c.ValidateOnly, out.Status))
			return out
		}
	}
	s := NewServer(callTools(), &Options{AllowExecute: true, Middleware: []Middleware{record}, Logger: discard()})
	do(t, s, "POST", "/tools/plain/call", `{}`)
	do(t, s, "POST", "/tools/count/validate", `{}`)
	cs := connect(t, s, nil)
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "soft_fail"}); err != nil {
		t.Fatal(err)
	}
	want := "explorer:plain:false:ok explorer:count:true:invalid mcp:soft_fail:false:failed"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// /validate is /call stopped before the handler: it says valid exactly
// when a call gets past validation, for arguments that the schema and the
// Go types could judge differently.
func TestValidateAgreesWithCall(t *testing.T) {
	type in struct {
		Int   int      `json:"int,omitempty"`
		Int8  int8     `json:"int8,omitempty"`
		Int64 int64    `json:"int64,omitempty"`
		Uint  uint     `json:"uint,omitempty"`
		U64   uint64   `json:"u64,omitempty"`
		Wide  uint64   `json:"wide,omitempty" jsonschema:"maximum=18446744073709551615"`
		F32   float32  `json:"f32,omitempty"`
		F64   float64  `json:"f64,omitempty"`
		Str   string   `json:"str,omitempty"`
		List  []string `json:"list,omitempty"`
		Any   any      `json:"any,omitempty"`
	}
	typed := MustNewTool("typed", "", func(_ context.Context, v in) (string, error) { return fmt.Sprint(v), nil })
	s := NewServer(ToolList{typed}, &Options{AllowExecute: true, Logger: discard()})
	for _, c := range []struct {
		args  string
		valid bool
	}{
		{`{"int":3}`, true},
		{`{"int":3.0}`, true},
		{`{"int":3e0,"int8":1.0e2,"uint":7.00}`, true},
		{`{"int":3.5}`, false},
		{`{"int":1e400}`, false},
		{`{"f64":1e400}`, false},
		{`{"any":1e400}`, false},
		{`{"f64":1e308}`, true},
		{`{"f64":-1e-400}`, true},
		{`{"int":9223372036854775807}`, true},
		{`{"int":9223372036854775808}`, false},
		{`{"int64":-9223372036854775809}`, false},
		{`{"int":1e19}`, false},
		{`{"int":123456789012345678901234567890}`, false},
		{`{"int8":127}`, true},
		{`{"int8":128}`, false},
		// The 64-bit integers' schemas carry no bounds: every integer schema
		// takes int64's range, a uint64 its upper half only when its
		// schema says so.
		{`{"uint":9223372036854775807}`, true},
		{`{"uint":18446744073709551615}`, false},
		{`{"uint":-1}`, false},
		{`{"u64":-1}`, false},
		{`{"u64":1e19}`, false},
		{`{"int64":1e19}`, false},
		{`{"int64":-9.223372036854775808e18}`, true},
		{`{"int":1.5}`, false},
		{`{"wide":18446744073709551615}`, true},
		{`{"wide":18446744073709551616}`, false},
		{`{"f32":3e38}`, true},
		{`{"f32":1e39}`, false},
		{`{"int":"3"}`, false},
		{`{"str":3}`, false},
		{`{"list":["a",1]}`, false},
		{`{"int":null}`, false},
		{`{"other":1}`, false},
		{`[]`, false},
	} {
		v := do(t, s, "POST", "/tools/typed/validate", c.args)
		var vr struct {
			Valid  bool
			Errors []ValidationIssue
		}
		v.decode(t, &vr)
		call := do(t, s, "POST", "/tools/typed/call", c.args)
		passed := call.status != 400
		if vr.Valid != c.valid || passed != c.valid {
			t.Errorf("%s: /validate valid=%v (%s), /call %d %s; want valid=%v", c.args, vr.Valid, v.body, call.status, call.body, c.valid)
		}
		if strings.Contains(call.body, "Go struct field") || strings.Contains(call.body, "unmarshal") {
			t.Errorf("%s: the answer speaks of Go: %s", c.args, call.body)
		}
	}
	// An integer out of a 64-bit type's range is an issue at its path, the
	// same on both.
	for _, c := range []struct{ args, path, msg string }{
		{`{"int64":1e19}`, "/int64", "integer 1e19 is out of range: must be from -9223372036854775808 to 9223372036854775807"},
		{`{"int":9223372036854775808}`, "/int", "integer 9223372036854775808 is out of range: must be from -9223372036854775808 to 9223372036854775807"},
		{`{"u64":-1}`, "/u64", "must be >= 0 but found -1"},
	} {
		var vr struct {
			Valid  bool
			Errors []ValidationIssue
		}
		do(t, s, "POST", "/tools/typed/validate", c.args).decode(t, &vr)
		if len(vr.Errors) != 1 || vr.Errors[0].Path != c.path || vr.Errors[0].Message != c.msg {
			t.Errorf("%s: /validate %+v; want one issue at %s: %s", c.args, vr.Errors, c.path, c.msg)
		}
		call := do(t, s, "POST", "/tools/typed/call", c.args)
		if call.status != 400 || !strings.Contains(call.body, c.path) || !strings.Contains(call.body, c.msg) {
			t.Errorf("%s: /call %d %s; want the issue at %s", c.args, call.status, call.body, c.path)
		}
	}
}
