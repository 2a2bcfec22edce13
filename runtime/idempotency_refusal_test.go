package runtime

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A refusal before the handler ran (here a rate limit) is not the outcome
// of an idempotency key: once the window has passed, the same request
// with the same key runs the tool, on every surface that takes a key. The
// window passes on the limiter's clock, not the wall's.
func TestRefusalLeavesIdempotencyKeyFree(t *testing.T) {
	var runs atomic.Int64
	tool := MustNewTool("ping_host", "Pings.", func(context.Context, struct{}) (string, error) {
		runs.Add(1)
		return "pong", nil
	})
	tool.RateLimit = Rate{N: 1, Per: 10 * time.Second}
	s := NewServer(ToolList{tool}, &Options{AllowExecute: true, Logger: discard()})
	clock := NewFakeClock()
	s.limiter.now = clock.Now
	hs := newHTTPTest(s)
	defer hs.Close()

	surfaces := []struct {
		name string
		call func(key string) (int, string)
	}{
		{"explorer", func(key string) (int, string) {
			return httpDo(t, "POST", hs.URL+"/tools/ping_host/call", `{}`, HeaderIdempotencyKey, key)
		}},
		{"v1", func(key string) (int, string) {
			return httpDo(t, "POST", hs.URL+"/v1/tools/ping_host", `{"input":{}}`, HeaderIdempotencyKey, key)
		}},
		{"oxp", func(key string) (int, string) {
			return httpDo(t, "POST", hs.URL+"/oxp/tools/call", `{"request":{"tool_id":"Tools.PingHost","call_id":"`+key+`","input":{}}}`)
		}},
	}
	for _, sf := range surfaces {
		t.Run(sf.name, func(t *testing.T) {
			clock.Advance(time.Minute) // a full bucket
			if code, body := sf.call(""); code != 200 && sf.name != "oxp" {
				t.Fatalf("a call without a key: %d %s", code, body)
			}
			if sf.name == "oxp" { // OXP always has a call_id: use the token up
				if code, body := sf.call(sf.name + "-first"); code != 200 {
					t.Fatalf("first call: %d %s", code, body)
				}
			}
			before := runs.Load()
			key := "retry-me-" + sf.name
			code, body := sf.call(key)
			if code != http.StatusTooManyRequests && !(sf.name == "oxp" && strings.Contains(body, "Rate limit")) {
				t.Fatalf("over the limit: %d %s, want a refusal", code, body)
			}
			if sf.name == "oxp" && !strings.Contains(body, `"can_retry":true`) {
				t.Errorf("OXP refusal: %s, want can_retry true", body)
			}
			clock.Advance(11 * time.Second) // the window has passed
			code, body = sf.call(key)
			if code != 200 || !strings.Contains(body, "pong") {
				t.Fatalf("the same request after the window: %d %s, want the tool's result", code, body)
			}
			if n := runs.Load() - before; n != 1 {
				t.Errorf("the tool ran %d times, want once", n)
			}
			// The key now holds that run: a repeat (in a new window: a
			// repeat counts against the limit too) answers it, not
			// running the tool again.
			clock.Advance(11 * time.Second)
			if code, body = sf.call(key); code != 200 || !strings.Contains(body, "pong") || runs.Load()-before != 1 {
				t.Errorf("a repeat of the run: %d %s, %d runs", code, body, runs.Load()-before)
			}
		})
	}
}
