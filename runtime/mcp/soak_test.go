package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// A bounded mixed load over loopback against one server (valid, invalid,
// panicking, slow-past-timeout and unauthorised calls, new and abandoned
// MCP sessions): every answer has the expected status, and afterwards the
// goroutines and the heap come back to where they were. Run with -race by
// CI; skipped under -short.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test")
	}
	// Only the slow tool has a timeout, and it never answers before it:
	// however loaded the machine, it times out and nothing else does.
	tools := callTools()
	for i := range tools {
		if tools[i].Name == "slow" {
			tools[i].Timeout = 50 * time.Millisecond
			tools[i].Handler = func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
				<-ctx.Done()
				return runtime.TextResult("late"), nil
			}
		}
	}
	s := newTestServer(tools, &runtime.Options{
		AllowExecute: true,
		AuthHook:     runtime.BearerTokens("soak"),
		Logger:       discard(),
	}, &Options{
		// Long enough that a busy machine's gaps between a worker's uses
		// of its session do not expire it; short enough for the check at
		// the end.
		SessionIdleTimeout: 2 * time.Second, MaxSessions: 200,
	})
	hs := newHTTPTest(s)
	defer hs.Close()
	transport := &http.Transport{MaxIdleConnsPerHost: 16}
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}

	settle := func() (int, uint64) {
		goruntime.GC()
		var ms goruntime.MemStats
		goruntime.ReadMemStats(&ms)
		return goruntime.NumGoroutine(), ms.HeapInuse
	}
	baseG, baseHeap := settle()

	type request struct {
		name, path, body string
		auth             bool
		want             int
		mcp              bool
	}
	kinds := []request{
		{name: "valid", path: "/tools/count/call", body: `{"city":"Oslo","days":2}`, auth: true, want: 200},
		{name: "invalid", path: "/tools/count/call", body: `{"days":0,"x":1}`, auth: true, want: 400},
		{name: "panicking", path: "/tools/panics/call", body: `{}`, auth: true, want: 500},
		{name: "slow", path: "/tools/slow/call", body: `{}`, auth: true, want: 504},
		{name: "unauthorised", path: "/tools/count/call", body: `{"city":"Oslo"}`, want: 401},
		{name: "abandoned session", path: "/mcp", body: mcpInitialize, auth: true, want: 200, mcp: true},
		{name: "session call", path: "/mcp", auth: true, want: 200, mcp: true},
		{name: "bad JSON", path: "/tools/count/call", body: "{\"city\":\"\xff\"}", auth: true, want: 400},
	}
	send := func(k request, sid string) (int, string, string, error) {
		body := k.body
		if k.name == "session call" {
			body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count","arguments":{"city":"Bergen"}}}`
		}
		req, _ := http.NewRequest("POST", hs.URL+k.path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if k.auth {
			req.Header.Set("Authorization", "Bearer soak")
		}
		if k.mcp {
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, "", "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b), nil
	}

	const workers, rounds = 8, 120
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
		counts   = map[string]int{}
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	for w := range workers {
		wg.Go(func() {
			var sid string
			for i := range rounds {
				k := kinds[(w+i)%len(kinds)]
				if k.name == "session call" && sid == "" {
					k = kinds[5]
				}
				code, newSID, body, err := send(k, sid)
				switch {
				case err != nil:
					fail("%s: %v", k.name, err)
				case code != k.want:
					fail("%s: %d %.200s, want %d", k.name, code, body, k.want)
				case k.name == "session call" && !strings.Contains(body, `Bergen`):
					fail("session call: %.200s", body)
				}
				if k.name == "abandoned session" && i%3 == 0 {
					sid = newSID // some sessions are used again, the rest abandoned
				}
				mu.Lock()
				counts[k.name]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	for _, k := range kinds {
		if counts[k.name] == 0 {
			t.Errorf("no %s requests were sent", k.name)
		}
	}

	transport.CloseIdleConnections()
	deadline := time.Now().Add(20 * time.Second)
	for {
		g, heap := settle()
		if g <= baseG+10 && heap <= baseHeap+16<<20 && countSessions(s) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the load: %d goroutines (baseline %d), heap %d KiB (baseline %d KiB), %d sessions", g, baseG, heap>>10, baseHeap>>10, countSessions(s))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
