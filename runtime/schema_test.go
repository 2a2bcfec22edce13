package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Schemas are compiled once per tool, not per request, and a function
// provider that changes a tool's schema gets it recompiled.
func TestSchemaCompiledOnce(t *testing.T) {
	s := NewServer(callTools(), &Options{AllowExecute: true})
	before := s.compiled.compiles.Load()
	if before != int64(len(callTools())) {
		t.Errorf("NewServer compiled %d schemas, want %d", before, len(callTools()))
	}
	for range 5 {
		do(t, s, "POST", "/tools/count/call", `{"city":"x"}`)
		do(t, s, "POST", "/tools/count/validate", `{"city":"x"}`)
	}
	if got := s.compiled.compiles.Load(); got != before {
		t.Errorf("%d compilations during requests, want 0", got-before)
	}

	schema := `{"type":"object","properties":{"n":{"type":"integer","maximum":5}}}`
	var mu sync.Mutex
	p := ToolsFunc(func(context.Context) ([]Tool, error) {
		mu.Lock()
		defer mu.Unlock()
		return []Tool{{Name: "n", InputSchema: json.RawMessage(schema), Handler: callTools()[1].Handler}}, nil
	})
	fs := NewServer(p, &Options{AllowExecute: true})
	do(t, fs, "POST", "/tools/n/validate", `{"n":7}`).is(t, 200, `{"valid":false,"errors":[{"path":"/n","message":"must be <= 5 but found 7","keyword":"maximum"}]}`)
	do(t, fs, "POST", "/tools/n/validate", `{"n":7}`)
	if got := fs.compiled.compiles.Load(); got != 1 {
		t.Errorf("function provider: %d compilations for an unchanged schema, want 1", got)
	}
	mu.Lock()
	schema = `{"type":"object","properties":{"n":{"type":"integer","maximum":10}}}`
	mu.Unlock()
	do(t, fs, "POST", "/tools/n/validate", `{"n":7}`).is(t, 200, `{"valid":true}`)
	do(t, fs, "POST", "/tools/n/call", `{"n":70}`).is(t, 400, `{"content":[{"type":"text","text":"invalid arguments:\n- /n: must be <= 10 but found 70 (maximum)"}],"isError":true}`)
	if got := fs.compiled.compiles.Load(); got != 2 {
		t.Errorf("changed schema: %d compilations, want 2", got)
	}
}

// A schema never reaches outside itself for a $ref.
func TestSchemaNoExternalRefs(t *testing.T) {
	tools := ToolList{{
		Name:        "ext",
		InputSchema: json.RawMessage(`{"$ref":"file:///etc/passwd"}`),
		Handler:     callTools()[1].Handler,
	}}
	r := do(t, NewServer(tools, nil), "POST", "/tools/ext/validate", `{}`)
	if r.status != 200 || !strings.Contains(r.body, `"keyword":"schema"`) || !strings.Contains(r.body, "not allowed") {
		t.Errorf("external $ref: %d %s", r.status, r.body)
	}
}

// The compiled-schema cache of a provider whose tool names keep changing
// stays bounded.
func TestSchemaCacheBounded(t *testing.T) {
	var n atomic.Int64
	p := ToolsFunc(func(context.Context) ([]Tool, error) {
		i := n.Add(1)
		return []Tool{{Name: fmt.Sprintf("t%d", i), InputSchema: json.RawMessage(`{"type":"object"}`), Handler: callTools()[1].Handler}}, nil
	})
	s := NewServer(p, &Options{Logger: slog.New(slog.DiscardHandler)})
	for range 300 {
		do(t, s, "POST", fmt.Sprintf("/tools/t%d/validate", n.Load()+1), `{}`)
	}
	s.compiled.mu.RLock()
	size := len(s.compiled.m)
	s.compiled.mu.RUnlock()
	if size > 70 {
		t.Errorf("%d compiled schemas cached for a provider with one tool", size)
	}
}
