package mcp

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// sseEvent is one server-sent event as the SSE spec parses it.
type sseEvent struct {
	name, id, data, retry string
	hasData               bool
}

// readEvents parses an SSE stream until it ends, as a client does.
func readEvents(r io.Reader) []sseEvent {
	var out []sseEvent
	var e sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			out = append(out, e)
			e = sseEvent{}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			e.name = value
		case "id":
			e.id = value
		case "retry":
			e.retry = value
		case "data":
			e.data += value
			e.hasData = true
		}
	}
	return out
}

// A tool that closes its response stream mid-call (SEP-1699): at
// 2025-11-25 the stream opens with the spec's priming event (an id and
// empty data, of the default type: no "event: prime", which the Python SDK
// does not know), and a client that resumes from that id with
// Last-Event-ID gets the result; at 2025-06-18 and 2025-03-26, revisions
// with no way to resume, the stream is not closed early and the result
// arrives on it.
func TestMCPResumableStreams(t *testing.T) {
	closed := make(chan bool, 1)
	proceed := make(chan struct{})
	tool := runtime.MustNewTool("reconnect", "Closes its stream.", func(ctx context.Context, _ struct{}) (string, error) {
		can := false
		if r, ok := MCPRequestFromContext(ctx); ok {
			if e := r.GetExtra(); e != nil && e.CloseSSEStream != nil {
				can = true
				e.CloseSSEStream(sdk.CloseSSEStreamArgs{RetryAfter: 10 * time.Millisecond})
			}
		}
		closed <- can
		if can {
			<-proceed // the client has seen its stream close
		}
		return "done", nil
	})
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{Logger: discard(), AllowExecute: true})
	hs := newHTTPTest(s)
	defer hs.Close()

	for _, rev := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		t.Run(rev, func(t *testing.T) {
			init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + rev + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
			code, sid, body := postMCP(t, hs.URL, "", init)
			if code != 200 || sid == "" {
				t.Fatalf("initialize: %d %s", code, body)
			}
			post := func(msg string) *http.Response {
				req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(msg))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Mcp-Session-Id", sid)
				req.Header.Set("Mcp-Protocol-Version", rev)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				return resp
			}
			post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
			resp := post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"reconnect","arguments":{}}}`)
			events := readEvents(resp.Body) // until the server ends the stream
			resp.Body.Close()
			can := <-closed
			hasResult := func(evs []sseEvent) bool {
				for _, e := range evs {
					if strings.Contains(e.data, `"id":2`) && strings.Contains(e.data, "done") {
						return true
					}
				}
				return false
			}
			if rev < "2025-11-25" {
				if can {
					t.Error("the handler could close a stream its client cannot resume")
				}
				if !hasResult(events) {
					t.Errorf("no result on the stream: %+v", events)
				}
				for _, e := range events {
					if e.name == "prime" {
						t.Errorf("a priming event at %s: %+v", rev, e)
					}
				}
				return
			}
			if !can {
				t.Fatal("at 2025-11-25 the handler had no CloseSSEStream")
			}
			if len(events) == 0 || events[0].id == "" || !events[0].hasData || events[0].data != "" || (events[0].name != "" && events[0].name != "message") {
				t.Fatalf("the stream does not open with a priming event (an id, empty data, the default type): %+v", events)
			}
			if hasResult(events) {
				t.Fatalf("the stream was not closed mid-call: %+v", events)
			}
			close(proceed)
			// Resume as the spec says: GET with the last event id seen.
			req, _ := http.NewRequest("GET", hs.URL+"/mcp", nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", rev)
			req.Header.Set("Last-Event-ID", lastID(events))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a generous ceiling
			defer cancel()
			resp, err := http.DefaultClient.Do(req.WithContext(ctx))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("resume: %d %s", resp.StatusCode, b)
			}
			if resumed := readEvents(resp.Body); !hasResult(resumed) {
				t.Errorf("resumed from %s: no result: %+v", lastID(events), resumed)
			}
		})
	}
}

// lastID is the id of the last event that had one, as a client keeps it.
func lastID(evs []sseEvent) string {
	id := ""
	for _, e := range evs {
		if e.id != "" {
			id = e.id
		}
	}
	return id
}
