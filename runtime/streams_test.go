package runtime_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

// The surfaces whose answer is not the HTTP response to the request: MCP
// over /sse (the answer comes on the session's event stream) and over
// stdio (no HTTP at all). Their callSurface has a send, which returns the
// answer as a response: for /sse the POST's status and headers with the
// stream's event as the body; for stdio status 200 and the line.

// answerWait bounds the wait for an answer on a stream: generous, for a
// loaded machine; a test that reaches it has lost an answer.
const answerWait = 60 * time.Second

// do sends req on sf and returns its answer.
func (sf callSurface) do(t *testing.T, req *http.Request) (*http.Response, error) {
	if sf.send != nil {
		return sf.send(t, req)
	}
	return http.DefaultClient.Do(req)
}

// events reads the data of each "message" event of an SSE stream.
func events(t *testing.T, body io.ReadCloser) <-chan string {
	ch := make(chan string, 16)
	t.Cleanup(func() { body.Close() })
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event:"):
				event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:"):
				ch <- event + " " + strings.TrimSpace(strings.TrimPrefix(line, "data:"))
			}
		}
	}()
	return ch
}

// next is the next event on ch of kind, within answerWait.
func next(t *testing.T, ch <-chan string, kind string) string {
	t.Helper()
	timer := time.NewTimer(answerWait)
	defer timer.Stop()
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				t.Fatal("the stream ended")
			}
			if data, found := strings.CutPrefix(e, kind+" "); found {
				return data
			}
		case <-timer.C:
			t.Fatalf("no %s event in %v", kind, answerWait)
		}
	}
}

// sseSurface opens an /sse stream with token, and calls tools with POSTs
// to the endpoint it names; each answer is read from the stream. A call
// over /sse runs in the context of the stream's GET: the POST's
// correlation id does not reach the tool (streamCtx).
func sseSurface(t *testing.T, url, token string) callSurface {
	t.Helper()
	get, _ := http.NewRequest(http.MethodGet, url+"/sse", nil)
	get.Header.Set("Authorization", "Bearer "+token)
	get.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(get)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /sse: %v %v", resp, err)
	}
	ch := events(t, resp.Body)
	endpoint := next(t, ch, "endpoint")
	post := func(body string, header ...string) *http.Request {
		r, _ := http.NewRequest(http.MethodPost, url+endpoint, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+token)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		return r
	}
	send := func(t *testing.T, req *http.Request) (*http.Response, error) {
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusAccepted {
			return resp, err
		}
		resp.Body.Close()
		data := next(t, ch, "message")
		return &http.Response{StatusCode: 200, Header: resp.Header, Body: io.NopCloser(strings.NewReader("data: " + data + "\n\n"))}, nil
	}
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	} {
		resp, err := http.DefaultClient.Do(post(m))
		if err != nil || resp.StatusCode != http.StatusAccepted {
			t.Fatalf("POST %s: %v %v", m, resp, err)
		}
		resp.Body.Close()
	}
	next(t, ch, "message") // initialize's answer
	return callSurface{
		name: "mcp-sse",
		request: func(t *testing.T, _, tool string, args []byte) *http.Request {
			return post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + string(args) + `}}`)
		},
		ran:       mcpRan,
		send:      send,
		streamCtx: true,
	}
}

// stdioSurface serves srv with mcp.ServeIO over pipes, as a client that
// started the server would: no HTTP (noHTTP), so no ids, no auth hook and
// no body limit; each request's body is sent as one line.
func stdioSurface(t *testing.T, srv *runtime.Server) callSurface {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcp.ServeIO(ctx, srv, nil, inR, outW) }()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	})
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			lines <- "message " + sc.Text()
		}
	}()
	write := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next(t, lines, "message")
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return callSurface{
		name: "mcp-stdio",
		request: func(t *testing.T, _, tool string, args []byte) *http.Request {
			body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + string(args) + `}}`
			r, _ := http.NewRequest(http.MethodPost, "stdio:", strings.NewReader(body))
			return r
		},
		ran: mcpRan,
		send: func(t *testing.T, req *http.Request) (*http.Response, error) {
			b, _ := io.ReadAll(req.Body)
			write(strings.ReplaceAll(string(b), "\n", " "))
			data := next(t, lines, "message")
			return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("data: " + data + "\n\n"))}, nil
		},
		noHTTP: true,
	}
}
