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

	"github.com/toolgen-go/toolgen/internal/fastcheck"
)

// Schemas are compiled once per tool, not per request, and a function
// provider that changes a tool's schema gets it recompiled.
func TestSchemaCompiledOnce(t *testing.T) {
	s := NewServer(callTools(), &Options{AllowExecute: true})
	if n := len(s.compiled.m); n != 0 {
		t.Errorf("NewServer derived the schemas of %d tools, want 0 (a tool's wait for its first use)", n)
	}
	do(t, s, "POST", "/tools/count/call", `{"city":"x"}`)
	before := s.compiled.compiles.Load()
	// The schemas the fast checker covers wait for a call that needs them.
	if fastcheck.Compile(EffectiveInputSchema(&callTools()[0]), argLimits) == nil && before != 1 {
		t.Errorf("the first call compiled %d schemas, want 1", before)
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

// A schema the fast checker covers is compiled by jsonschema only when a
// call first needs it (arguments the checker does not know to be valid),
// once, even under concurrent calls; the errors are those of the full
// path. A schema that does not compile is compiled (and fails) once, at
// its tool's first use, even when that is many calls at once, and every
// call reports it.
func TestSchemaCompileDeferred(t *testing.T) {
	const schema = `{"type":"object","properties":{"n":{"type":"integer","maximum":5}},"required":["n"]}`
	s := NewServer(ToolList{{Name: "n", InputSchema: json.RawMessage(schema), Handler: callTools()[1].Handler}}, &Options{AllowExecute: true})
	if got := s.compiled.compiles.Load(); got != 0 {
		t.Fatalf("NewServer compiled %d schemas, want 0 (the fast checker covers this one)", got)
	}
	do(t, s, "POST", "/tools/n/validate", `{"n":5}`).is(t, 200, `{"valid":true}`)
	if got := s.compiled.compiles.Load(); got != 0 {
		t.Fatalf("a valid call compiled %d schemas, want 0", got)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			// (is would call t.Fatalf, which a goroutine must not.)
			if r := do(t, s, "POST", "/tools/n/validate", `{"n":7}`); r.body != `{"valid":false,"errors":[{"path":"/n","message":"must be <= 5 but found 7","keyword":"maximum"}]}` {
				t.Errorf("concurrent invalid call: %d %s", r.status, r.body)
			}
		})
	}
	wg.Wait()
	do(t, s, "POST", "/tools/n/validate", `{}`).is(t, 200, `{"valid":false,"errors":[{"path":"/n","message":"missing required property","keyword":"required"}]}`)
	if got := s.compiled.compiles.Load(); got != 1 {
		t.Fatalf("invalid calls compiled %d schemas, want 1", got)
	}

	bad := NewServer(ToolList{{Name: "bad", InputSchema: json.RawMessage(`{"type":"strin"}`), Handler: callTools()[1].Handler}}, nil)
	if got := bad.compiled.compiles.Load(); got != 0 {
		t.Fatalf("NewServer compiled %d bad schemas, want 0", got)
	}
	for range 8 {
		wg.Go(func() {
			r := do(t, bad, "POST", "/tools/bad/validate", `"x"`)
			if r.status != 200 || !strings.Contains(r.body, `"keyword":"schema"`) || !strings.Contains(r.body, "input schema does not compile") {
				t.Errorf("bad schema: %d %s", r.status, r.body)
			}
		})
	}
	wg.Wait()
	if got := bad.compiled.compiles.Load(); got != 1 {
		t.Fatalf("first uses compiled %d bad schemas, want 1", got)
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
