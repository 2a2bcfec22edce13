package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The spec's own example tools (explorer-F2), so that bodies can be compared
// byte for byte with the spec.
func specTools() ToolList {
	return ToolList{
		{
			Name:        "get_weather",
			Description: "Fetch current weather for a city.",
			Annotations: &Annotations{ReadOnlyHint: Bool(true), OpenWorldHint: Bool(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}`),
			Handler: func(ctx context.Context, args json.RawMessage) (*Result, error) {
				var in struct{ City string }
				if err := DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				return TextResult("Sunny in " + in.City), nil
			},
		},
		{
			Name:        "delete_record",
			Description: "Delete a record by ID.",
			Annotations: &Annotations{}, // all hints unset: omitted like nil
			Handler:     func(context.Context, json.RawMessage) (*Result, error) { return TextResult("deleted"), nil },
		},
	}
}

// F2: GET /tools returns all tools with the spec's fields, annotations only
// when present.
func TestListTools(t *testing.T) {
	s := NewServer(specTools(), nil)
	do(t, s, "GET", "/tools", "").is(t, 200,
		`[{"name":"get_weather","description":"Fetch current weather for a city.","version":"1.0.0","annotations":{"readOnlyHint":true,"openWorldHint":true}},{"name":"delete_record","description":"Delete a record by ID.","version":"1.0.0"}]`)
}

func TestListToolsEmpty(t *testing.T) {
	do(t, NewServer(ToolList{}, nil), "GET", "/tools", "").is(t, 200, `[]`)
	do(t, NewServer(ToolsFunc(func(context.Context) ([]Tool, error) { return nil, nil }), nil), "GET", "/tools", "").is(t, 200, `[]`)
}

// F2: GET /tools/{name} adds the input schema; unknown names are 404.
func TestGetTool(t *testing.T) {
	s := NewServer(specTools(), nil)
	do(t, s, "GET", "/tools/get_weather", "").is(t, 200,
		`{"name":"get_weather","description":"Fetch current weather for a city.","version":"1.0.0","annotations":{"readOnlyHint":true,"openWorldHint":true},"inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}}`)
	do(t, s, "GET", "/tools/delete_record", "").is(t, 200,
		`{"name":"delete_record","description":"Delete a record by ID.","version":"1.0.0","inputSchema":{"type":"object"}}`)
	do(t, s, "GET", "/tools/nope", "").is(t, 404, `{"error":"Tool not found: nope"}`)
}

func TestGetToolOptionalFields(t *testing.T) {
	tools := ToolList{{
		Name: "greet", Title: "Greet <you>", Description: "Says hi & more.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`),
		OutputSchema: json.RawMessage(`{"type":"string"}`),
		Signature:    "greet(name?: string) -> string",
		Examples:     []json.RawMessage{json.RawMessage(`{"name":"Ada"}`)},
		Handler:      func(context.Context, json.RawMessage) (*Result, error) { return TextResult("hi"), nil },
	}}
	do(t, NewServer(tools, nil), "GET", "/tools/greet", "").is(t, 200,
		`{"name":"greet","title":"Greet <you>","description":"Says hi & more.","version":"1.0.0","inputSchema":{"type":"object","properties":{"name":{"type":"string"}}},"outputSchema":{"type":"string"},"signature":"greet(name?: string) -> string","examples":[{"name":"Ada"}]}`)
}

// F3's test criteria, one by one.
func TestCall(t *testing.T) {
	s := NewServer(callTools(), &Options{AllowExecute: true, Logger: slog.New(slog.DiscardHandler)})

	t.Run("1 success with trace id", func(t *testing.T) {
		do(t, s, "POST", "/tools/traced/call", `{}`).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false,"_meta":{"_trace_id":"abc-123"}}`)
	})
	t.Run("2 isError result is 500", func(t *testing.T) {
		do(t, s, "POST", "/tools/soft_fail/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"no such city"}],"isError":true}`)
	})
	t.Run("3 unknown tool", func(t *testing.T) {
		do(t, s, "POST", "/tools/nope/call", `{}`).is(t, 404, `{"error":"Tool not found: nope"}`)
	})
	t.Run("4 execution disabled", func(t *testing.T) {
		off := NewServer(callTools(), nil)
		do(t, off, "POST", "/tools/plain/call", `{}`).is(t, 403, `{"error":"Tool execution is disabled."}`)
		// The gate comes before the lookup.
		do(t, off, "POST", "/tools/nope/call", `{}`).is(t, 403, `{"error":"Tool execution is disabled."}`)
	})
	t.Run("5 invalid JSON is {}", func(t *testing.T) {
		for _, body := range []string{`{not json`, ``, `{"a":`, "\x00"} {
			do(t, s, "POST", "/tools/plain/call", body).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false}`)
		}
		// ... and {} is then validated like any arguments.
		do(t, s, "POST", "/tools/count/call", `nope`).is(t, 400, `{"content":[{"type":"text","text":"invalid arguments:\n- /city: missing required property (required)"}],"isError":true}`)
	})
	t.Run("6 handler error and panic", func(t *testing.T) {
		do(t, s, "POST", "/tools/hard_fail/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"backend exploded"}],"isError":true}`)
		do(t, s, "POST", "/tools/panics/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"tool panicked: boom"}],"isError":true}`)
	})
	t.Run("7 no trace id, no _meta", func(t *testing.T) {
		do(t, s, "POST", "/tools/plain/call", `{}`).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false}`)
	})
	t.Run("traceparent header", func(t *testing.T) {
		tp := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		do(t, s, "POST", "/tools/plain/call", `{}`, "traceparent", tp).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false,"_meta":{"_trace_id":"4bf92f3577b34da6a3ce929d0e0e4736"}}`)
		// The handler's own trace id wins.
		do(t, s, "POST", "/tools/traced/call", `{}`, "traceparent", tp).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false,"_meta":{"_trace_id":"abc-123"}}`)
		// Malformed or all-zero ids are ignored.
		for _, bad := range []string{"garbage", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"} {
			do(t, s, "POST", "/tools/plain/call", `{}`, "traceparent", bad).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false}`)
		}
	})
	t.Run("nil result", func(t *testing.T) {
		do(t, s, "POST", "/tools/nil_result/call", `{}`).is(t, 200, `{"content":[],"isError":false}`)
	})
	t.Run("structured result", func(t *testing.T) {
		do(t, s, "POST", "/tools/count/call", `{"city":"Paris","days":3,"tags":["a"]}`).is(t, 200,
			`{"content":[{"type":"text","text":"{\"city\":\"Paris\",\"days\":3,\"big\":0,\"ratio\":0,\"tags\":[\"a\"]}"}],"structuredContent":{"city":"Paris","days":3,"big":0,"ratio":0,"tags":["a"]},"isError":false}`)
	})
	t.Run("timeout", func(t *testing.T) {
		start := time.Now()
		do(t, s, "POST", "/tools/slow/call", `{}`).is(t, 504, `{"content":[{"type":"text","text":"Tool slow timed out after 50ms."}],"isError":true}`)
		if d := time.Since(start); d > answeredWithin {
			t.Errorf("timeout answered after %v: the handler was waited for", d)
		}
	})
}

// Every bad input of DESIGN.md gets a JSON error with the right status, and
// the server goes on serving after each. (Each way arguments can be bad is
// in TestInvoke; here, how the explorer answers them.)
func TestBadInput(t *testing.T) {
	var logs logBuffer
	s := NewServer(callTools(), &Options{AllowExecute: true, MaxBodyBytes: 4096, Logger: logs.Logger()})
	deep := strings.Repeat("[", 200) + strings.Repeat("]", 200)
	cases := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"oversized body", "POST", "/tools/plain/call", `{"x":"` + strings.Repeat("a", 5000) + `"}`, 413, `{"error":"Request body too large (limit 4096 bytes)."}`},
		{"oversized validate", "POST", "/tools/plain/validate", strings.Repeat(" ", 5000), 413, `{"error":"Request body too large (limit 4096 bytes)."}`},
		{"wrong method on list", "POST", "/tools", "", 405, `{"error":"Method not allowed: POST"}`},
		{"wrong method on call", "GET", "/tools/plain/call", "", 405, `{"error":"Method not allowed: GET"}`},
		{"wrong method on detail", "DELETE", "/tools/plain", "", 405, `{"error":"Method not allowed: DELETE"}`},
		{"unknown path", "GET", "/nope", "", 404, `{"error":"Not found: /nope"}`},
		{"deep nesting", "POST", "/tools/count/call", `{"city":` + deep + `}`, 400, `{"content":[{"type":"text","text":"invalid arguments:\n- (root): nested deeper than 128 levels (format)"}],"isError":true}`},
		{"invalid UTF-8", "POST", "/tools/count/call", "{\"city\":\"\xff\xfe\"}", 400, `{"content":[{"type":"text","text":"invalid arguments:\n- (root): not valid UTF-8 (format)"}],"isError":true}`},
		{"huge number to validate", "POST", "/tools/count/validate", `{"city":"x","days":-1E-10000000}`, 200, `{"valid":false,"errors":[{"path":"/days","message":"number out of range","keyword":"format"}]}`},
		{"deep and not JSON", "POST", "/tools/plain/call", strings.Repeat("[", 200), 400, `{"content":[{"type":"text","text":"invalid arguments:\n- (root): nested deeper than 128 levels (format)"}],"isError":true}`},
		{"panicking handler", "POST", "/tools/panics/call", `{}`, 500, `{"content":[{"type":"text","text":"tool panicked: boom"}],"isError":true}`},
		{"slow handler", "POST", "/tools/slow/call", `{}`, 504, `{"content":[{"type":"text","text":"Tool slow timed out after 50ms."}],"isError":true}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			do(t, s, c.method, c.path, c.body).is(t, c.status, c.want)
			do(t, s, "POST", "/tools/plain/call", `{}`).is(t, 200, `{"content":[{"type":"text","text":"result here"}],"isError":false}`)
		})
	}
	if r := do(t, s, "PUT", "/tools/plain/call", ""); r.header.Get("Allow") != "POST" {
		t.Errorf("405 Allow header = %q, want POST", r.header.Get("Allow"))
	}
	if !strings.Contains(logs.String(), "panic=boom") || !strings.Contains(logs.String(), "stack=") {
		t.Errorf("panic not logged with its stack: %s", logs.String())
	}
	if !strings.Contains(logs.String(), "tool call timed out") {
		t.Errorf("timeout not logged: %s", logs.String())
	}
}

// Nesting past what encoding/json parses (10,000 levels) is still refused
// as too deep, not treated as a body that is not JSON (which would be {}).
func TestNestingPastTheDecoder(t *testing.T) {
	s := NewServer(callTools(), &Options{AllowExecute: true})
	do(t, s, "POST", "/tools/plain/call", strings.Repeat("[", 20000)+strings.Repeat("]", 20000)).is(t, 400, `{"content":[{"type":"text","text":"invalid arguments:\n- (root): nested deeper than 128 levels (format)"}],"isError":true}`)
}

type identityKey struct{}

// F4: the auth hook guards only /call, runs after the gate and the lookup,
// answers a generic 401 and logs the reason; its context reaches the handler.
func TestAuthHook(t *testing.T) {
	var logs logBuffer
	hook := func(r *http.Request) (context.Context, error) {
		if r.Header.Get("Authorization") != "Bearer good" {
			return nil, errors.New("bad token for alice")
		}
		return context.WithValue(r.Context(), identityKey{}, "alice"), nil
	}
	var handlerRuns atomic.Int32
	tools := ToolList{{
		Name:        "whoami",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (*Result, error) {
			handlerRuns.Add(1)
			who, _ := ctx.Value(identityKey{}).(string)
			r, ok := RequestFromContext(ctx)
			if !ok {
				return nil, errors.New("no request in context")
			}
			return TextResult(who + " via " + r.URL.Path), nil
		},
	}}
	s := NewServer(tools, &Options{AllowExecute: true, AuthHook: hook, Logger: logs.Logger()})

	do(t, s, "POST", "/tools/whoami/call", `{}`).is(t, 401, `{"error":"Unauthorized"}`)
	do(t, s, "POST", "/tools/whoami/call", `{}`, "Authorization", "Bearer bad").is(t, 401, `{"error":"Unauthorized"}`)
	if handlerRuns.Load() != 0 {
		t.Fatal("handler ran for a rejected call")
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "bad token for alice") {
		t.Errorf("rejection not logged at WARN with its reason: %s", l)
	}
	do(t, s, "POST", "/tools/whoami/call", `{}`, "Authorization", "Bearer good").is(t, 200, `{"content":[{"type":"text","text":"alice via /tools/whoami/call"}],"isError":false}`)

	// Order: 404 before 401, 403 before both.
	do(t, s, "POST", "/tools/nope/call", `{}`).is(t, 404, `{"error":"Tool not found: nope"}`)
	off := NewServer(tools, &Options{AuthHook: hook})
	do(t, off, "POST", "/tools/whoami/call", `{}`).is(t, 403, `{"error":"Tool execution is disabled."}`)
	// Auth before the body: an unauthenticated client cannot make the
	// server read a large body.
	small := NewServer(tools, &Options{AllowExecute: true, AuthHook: hook, MaxBodyBytes: 10, Logger: slog.New(slog.DiscardHandler)})
	do(t, small, "POST", "/tools/whoami/call", strings.Repeat("x", 100)).is(t, 401, `{"error":"Unauthorized"}`)

	// Discovery and validation stay public.
	do(t, s, "GET", "/tools", "").is(t, 200, `[{"name":"whoami","description":"","version":"1.0.0"}]`)
	do(t, s, "GET", "/tools/whoami", "").is(t, 200, `{"name":"whoami","description":"","version":"1.0.0","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}`)
	do(t, s, "POST", "/tools/whoami/validate", `{"n":1}`).is(t, 200, `{"valid":true}`)
	if r := do(t, s, "GET", "/", ""); r.status != 200 {
		t.Errorf("GET / with an auth hook: %d", r.status)
	}
	if handlerRuns.Load() != 1 {
		t.Errorf("handler ran %d times, want 1", handlerRuns.Load())
	}
}

// F7: the validation endpoint.
func TestValidate(t *testing.T) {
	var runs atomic.Int32
	tools := callTools()
	for i := range tools {
		h := tools[i].Handler
		tools[i].Handler = func(ctx context.Context, args json.RawMessage) (*Result, error) {
			runs.Add(1)
			return h(ctx, args)
		}
	}
	tools = append(tools, Tool{
		Name:        "broken_schema",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"no-such-type"}}}`),
		Handler:     func(context.Context, json.RawMessage) (*Result, error) { runs.Add(1); return TextResult(""), nil },
	})
	// Not gated by AllowExecute (off here) nor by the auth hook.
	s := NewServer(tools, &Options{AuthHook: func(*http.Request) (context.Context, error) { return nil, errors.New("nobody") }})

	do(t, s, "POST", "/tools/count/validate", `{"city":"Paris","days":3}`).is(t, 200, `{"valid":true}`)
	do(t, s, "POST", "/tools/count/validate", `{"days":0,"tags":[1]}`).is(t, 200,
		`{"valid":false,"errors":[{"path":"/city","message":"missing required property","keyword":"required"},{"path":"/days","message":"must be >= 1 but found 0","keyword":"minimum"},{"path":"/tags/0","message":"expected string, but got number","keyword":"type"}]}`)
	do(t, s, "POST", "/tools/count/validate", `{"city":`).is(t, 400,
		`{"valid":false,"errors":[{"path":"","message":"Invalid JSON: it ends before the value is complete","keyword":"format"}]}`)
	do(t, s, "POST", "/tools/count/validate", "{\"city\":\"\xff\"}").is(t, 400,
		`{"valid":false,"errors":[{"path":"","message":"Invalid JSON: not valid UTF-8","keyword":"format"}]}`)
	do(t, s, "POST", "/tools/nope/validate", `{}`).is(t, 404, `{"error":"Tool not found: nope"}`)
	r := do(t, s, "POST", "/tools/broken_schema/validate", `{}`)
	var v validateResponse
	r.decode(t, &v)
	if r.status != 200 || v.Valid || len(v.Errors) != 1 || v.Errors[0].Keyword != "schema" {
		t.Errorf("uncompilable schema: %d %s", r.status, r.body)
	}
	if runs.Load() != 0 {
		t.Errorf("validate ran a handler %d times", runs.Load())
	}
}
