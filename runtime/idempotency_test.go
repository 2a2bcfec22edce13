package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/sqlite"
)

// A caller-given key makes a call happen once, on every surface that has
// one (OXP's call_id, Idempotency-Key on /v1 and the explorer), across
// replicas sharing a store: a repeat answers the first call's outcome
// without running the tool, waits for it while it runs, is refused for
// other arguments, and a key is the caller's own.
func TestIdempotentCalls(t *testing.T) {
	// Two replicas on one SQLite file: the database's unique id decides.
	path := filepath.Join(t.TempDir(), "history.db")
	var runs atomic.Int64
	release := make(chan struct{})
	var releaseOnce sync.Once
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) })
	ring := runtime.MustNewTool("ring", "Rings the doorbell.", func(_ context.Context, in struct {
		Times int  `json:"times"`
		Wait  bool `json:"wait,omitempty"`
	}) (string, error) {
		runs.Add(1)
		if in.Wait {
			<-release
		}
		return "rang " + strings.Repeat("*", in.Times), nil
	})
	var urls []string
	// waiting hears from the second replica's store when a repeat reads
	// a record still pending: the repeat is waiting for the first call.
	waiting := make(chan struct{}, 1)
	for i := range 2 {
		store, err := sqlite.Open(context.Background(), path, history.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		var h history.Store = store
		if i == 1 {
			h = &pendingReads{Store: store, seen: waiting}
		}
		s := runtime.NewServer(runtime.ToolList{ring}, &runtime.Options{
			AllowExecute: true, History: h, Logger: discardLogger(),
			AuthHook: runtime.BearerCredentials(runtime.Credential{Secret: "a", Subject: "alice"}, runtime.Credential{Secret: "b", Subject: "bob"}),
		})
		hs := httptest.NewServer(house(s))
		t.Cleanup(hs.Close)
		urls = append(urls, hs.URL)
	}

	type answer struct {
		status int
		body   string
	}
	surfaces := []struct {
		name string
		call func(url, tok, key, args string) answer
		// text is what a successful answer says.
		ok func(a answer) string
	}{
		{"explorer", func(url, tok, key, args string) answer {
			return post(t, url+"/tools/ring/call", tok, args, "Idempotency-Key", key)
		}, func(a answer) string { return a.body }},
		{"v1", func(url, tok, key, args string) answer {
			return post(t, url+"/v1/tools/ring", tok, `{"input":`+args+`}`, "Idempotency-Key", key)
		}, func(a answer) string {
			var r struct {
				Result       any
				InvocationID string `json:"invocation_id"`
			}
			_ = json.Unmarshal([]byte(a.body), &r)
			b, _ := json.Marshal(r)
			return string(b)
		}},
		{"oxp", func(url, tok, key, args string) answer {
			return post(t, url+"/oxp/tools/call", tok, `{"request":{"tool_id":"Tools.Ring","call_id":"`+key+`","input":`+args+`}}`)
		}, func(a answer) string {
			var r struct{ Result struct{ Value any } }
			_ = json.Unmarshal([]byte(a.body), &r)
			b, _ := json.Marshal(r.Result.Value)
			return string(b)
		}},
	}
	for _, sf := range surfaces {
		t.Run(sf.name, func(t *testing.T) {
			key := "ring-" + sf.name
			before := runs.Load()
			first := sf.call(urls[0], "a", key, `{"times":2}`)
			if first.status != 200 || !strings.Contains(first.body, "rang **") {
				t.Fatalf("first call: %d %s", first.status, first.body)
			}
			// The same key again, on the other replica: the recorded
			// outcome, the tool not run.
			again := sf.call(urls[1], "a", key, `{"times":2}`)
			if again.status != 200 || sf.ok(again) != sf.ok(first) {
				t.Errorf("repeat: %d %s, want %s", again.status, again.body, first.body)
			}
			if n := runs.Load() - before; n != 1 {
				t.Errorf("the tool ran %d times for one key", n)
			}
			// Other arguments under the same key: refused.
			// OXP's call_id is a bad request then (specs/README.md).
			want := http.StatusConflict
			if sf.name == "oxp" {
				want = http.StatusBadRequest
			}
			if other := sf.call(urls[1], "a", key, `{"times":3}`); other.status != want || !strings.Contains(other.body, "another call") {
				t.Errorf("other arguments: %d %s", other.status, other.body)
			}
			// A key is its caller's: bob's call with it runs.
			if bob := sf.call(urls[0], "b", key, `{"times":1}`); bob.status != 200 || runs.Load()-before != 2 {
				t.Errorf("another caller's key: %d %s, %d runs", bob.status, bob.body, runs.Load()-before)
			}
		})
	}

	// A repeat while the first call runs waits for its outcome.
	t.Run("while running", func(t *testing.T) {
		before := runs.Load()
		done := make(chan answer, 1)
		go func() { done <- surfaces[1].call(urls[0], "a", "slow-1", `{"times":1,"wait":true}`) }()
		deadline := time.Now().Add(30 * time.Second)
		for runs.Load() == before { // the first call is in its handler
			if time.Now().After(deadline) {
				t.Fatal("the first call never started")
			}
			time.Sleep(10 * time.Millisecond)
		}
		select {
		case <-waiting: // an earlier read's: not this repeat's
		default:
		}
		second := make(chan answer, 1)
		go func() { second <- surfaces[1].call(urls[1], "a", "slow-1", `{"times":1,"wait":true}`) }()
		select {
		case <-waiting: // the repeat read the first call's record, pending
		case <-time.After(30 * time.Second):
			t.Fatal("the repeat never waited for the first call")
		}
		releaseOnce.Do(func() { close(release) })
		a, b := <-done, <-second
		if a.status != 200 || b.status != 200 || surfaces[1].ok(a) != surfaces[1].ok(b) {
			t.Errorf("first %d %s, repeat %d %s", a.status, a.body, b.status, b.body)
		}
		if n := runs.Load() - before; n != 1 {
			t.Errorf("the tool ran %d times", n)
		}
	})

	// A key that is not one is refused before anything runs.
	if a := post(t, urls[0]+"/v1/tools/ring", "a", `{"input":{"times":1}}`, "Idempotency-Key", strings.Repeat("k", 200)); a.status != 422 {
		t.Errorf("a 200-character key: %d %s", a.status, a.body)
	}
}

func post(t *testing.T, url, tok, body string, header ...string) struct {
	status int
	body   string
} {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return struct {
		status int
		body   string
	}{resp.StatusCode, string(b)}
}

// pendingReads is a SQLite store that tells seen (without blocking) of
// each read of a record still pending. It embeds the store itself, not
// history.Store, so that the server finds every interface it has.
type pendingReads struct {
	*sqlite.Store
	seen chan<- struct{}
}

func (p *pendingReads) Get(ctx context.Context, id string) (*history.Record, error) {
	rec, err := p.Store.Get(ctx, id)
	if err == nil && rec.Status == history.Pending {
		select {
		case p.seen <- struct{}{}:
		default:
		}
	}
	return rec, err
}

// A repeat that gives up waiting for the first call (its record's
// deadline has passed, the first still pending) is told to retry, each
// surface in its own way: OXP, whose call_id names one call, with a
// failure the caller may retry (200, can_retry) and its 400 only for
// another call under the same call_id; the others with a 409.
func TestIdempotentRepeatGivesUp(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 4)
	slow := runtime.MustNewTool("slow", "Waits.", func(context.Context, struct {
		N int `json:"n"`
	}) (string, error) {
		started <- struct{}{}
		<-release
		return "done", nil
	})
	s := runtime.NewServer(runtime.ToolList{slow}, &runtime.Options{
		AllowExecute: true, Logger: discardLogger(),
		History: stalePending{history.NewMemory(history.Retention{})},
	})
	hs := httptest.NewServer(house(s))
	t.Cleanup(hs.Close)
	defer close(release)
	for _, tc := range []struct {
		name   string
		call   func() (int, string) // the first call, then its repeat
		status int
		want   string
	}{
		{"explorer", func() (int, string) {
			a := post(t, hs.URL+"/tools/slow/call", "", `{"n":1}`, "Idempotency-Key", "e-1")
			return a.status, a.body
		}, 409, `still running`},
		{"oxp", func() (int, string) {
			a := post(t, hs.URL+"/oxp/tools/call", "", `{"request":{"tool_id":"Tools.Slow","call_id":"o-1","input":{"n":1}}}`)
			return a.status, a.body
		}, 200, `"success":false,"error":{"message":"A call with this \"call_id\" is still running; retry later for its outcome.","can_retry":true,"retry_after_ms":1000}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			go tc.call()
			select {
			case <-started:
			case <-time.After(30 * time.Second):
				t.Fatal("the first call never started")
			}
			if status, body := tc.call(); status != tc.status || !strings.Contains(body, tc.want) {
				t.Errorf("the repeat: %d %s, want %d with %s", status, body, tc.status, tc.want)
			}
		})
	}
}

// stalePending is a store whose pending records read as past their
// deadline: a repeat finds the first call running longer than it may.
type stalePending struct{ *history.Memory }

func (p stalePending) Get(ctx context.Context, id string) (*history.Record, error) {
	rec, err := p.Memory.Get(ctx, id)
	if err == nil && rec.Status == history.Pending {
		past := time.Unix(0, 0)
		rec.Deadline = &past
	}
	return rec, err
}

// A repeat answers what the first call answered, content blocks and all:
// an image and a text, not their JSON as one text.
func TestIdempotentReplayKeepsContent(t *testing.T) {
	var runs atomic.Int64
	picture := runtime.Tool{Name: "picture", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
		runs.Add(1)
		return &runtime.Result{Content: []runtime.Content{runtime.Image([]byte{0x89, 'P', 'N', 'G'}, "image/png"), runtime.Text("a dot")}}, nil
	}}
	s := runtime.NewServer(runtime.ToolList{picture}, &runtime.Options{AllowExecute: true, Logger: discardLogger()})
	hs := httptest.NewServer(house(s))
	t.Cleanup(hs.Close)
	for _, sf := range []struct {
		name string
		call func() string
	}{
		{"explorer", func() string { return post(t, hs.URL+"/tools/picture/call", "", `{}`, "Idempotency-Key", "p-e").body }},
		{"v1", func() string {
			var r struct{ Result json.RawMessage }
			_ = json.Unmarshal([]byte(post(t, hs.URL+"/v1/tools/picture", "", `{"input":{}}`, "Idempotency-Key", "p-v").body), &r)
			return string(r.Result)
		}},
		{"oxp", func() string {
			var r struct {
				Result struct{ Value json.RawMessage }
			}
			_ = json.Unmarshal([]byte(post(t, hs.URL+"/oxp/tools/call", "", `{"request":{"tool_id":"Tools.Picture","call_id":"p-o","input":{}}}`).body), &r)
			return string(r.Result.Value)
		}},
	} {
		t.Run(sf.name, func(t *testing.T) {
			before := runs.Load()
			first, again := sf.call(), sf.call()
			if first != again || !strings.Contains(first, `"type":"image"`) || runs.Load() != before+1 {
				t.Errorf("first %s\nrepeat %s\n(%d runs)", first, again, runs.Load()-before)
			}
		})
	}
}
