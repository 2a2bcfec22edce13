package mcp

// Fixtures of the core's tests (call_test.go), which live in package
// runtime and cannot be imported from here: the same tools, so that MCP
// is tested on what every other surface is. (The forecast tool of the
// benchmarks is internal/testtools'.)

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// slowTimeout bounds the "slow" tool, which outlasts it.
const slowTimeout = 50 * time.Millisecond

// callTools covers every outcome of the call pipeline.
func callTools() runtime.ToolList {
	return runtime.ToolList{
		{
			Name: "traced",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return &runtime.Result{Content: []runtime.Content{runtime.Text("result here")}, TraceID: "abc-123"}, nil
			},
		},
		{
			Name: "plain",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return runtime.TextResult("result here"), nil
			},
		},
		{
			Name: "soft_fail",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return runtime.ErrorResult("no such city"), nil
			},
		},
		{
			Name: "hard_fail",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return nil, errors.New("backend exploded")
			},
		},
		{
			Name:    "panics",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { panic("boom") },
		},
		{
			Name: "slow",
			// Ignores ctx on purpose, and outlasts any test's wait for a
			// timeout answer by far: a test that waited for it would show.
			Timeout: slowTimeout,
			Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
				time.Sleep(time.Minute)
				return runtime.TextResult("late"), nil
			},
		},
		{
			Name:    "nil_result",
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { return nil, nil },
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
			Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				var in struct {
					City  string   `json:"city"`
					Days  int      `json:"days"`
					Big   int64    `json:"big"`
					Ratio float64  `json:"ratio"`
					Tags  []string `json:"tags"`
				}
				if err := runtime.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				return runtime.StructuredResult(in)
			},
		},
	}
}

// shapeTools cover what callTools do not: decoding refused after
// validation, and scalar structured results.
func shapeTools() []runtime.Tool {
	return []runtime.Tool{
		{
			// A schema looser than the Go type: decoding refuses what the
			// schema let through.
			Name:        "loose",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
			Handler: func(ctx context.Context, args json.RawMessage) (*runtime.Result, error) {
				var in struct {
					N int8 `json:"n"`
				}
				if err := runtime.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				return runtime.TextResult(fmt.Sprint(in.N)), nil
			},
		},
		{
			Name:         "answer",
			OutputSchema: json.RawMessage(`{"type":"integer"}`),
			Handler:      func(context.Context, json.RawMessage) (*runtime.Result, error) { return runtime.StructuredResult(42) },
		},
		{
			Name:         "ping",
			OutputSchema: json.RawMessage(`{"type":"string"}`),
			Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
				return runtime.StructuredResult("pong")
			},
		},
	}
}

// response is servertest's, with the field names the tests were written
// with.
type response struct {
	status int
	header http.Header
	body   string
}

// do sends one request to hh's test house in process.
func do(t *testing.T, hh any, method, path, body string, header ...string) response {
	t.Helper()
	r := servertest.Do(t, houseOf(hh), method, path, body, header...)
	return response{r.Status, r.Header, r.Body}
}

func (r response) is(t *testing.T, status int, body string) {
	t.Helper()
	servertest.Response{Status: r.status, Header: r.header, Body: r.body}.Is(t, status, body)
}

const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// identityKey is where the tests' auth hooks leave the caller.
type identityKey struct{}
