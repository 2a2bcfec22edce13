package mcp

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// A subscriptions/listen that ends at once (agreed nothing, or refused) is
// answered natively as the SDK answers it.
func TestMCPNativeListenSameAnswers(t *testing.T) {
	for _, o := range []struct{ jsonResponse, stateless bool }{{true, false}, {false, true}} {
		p := newFastPair(t, o.jsonResponse, o.stateless)
		for _, params := range []string{
			`"notifications":{}`,
			`"notifications":{"toolsListChanged":false,"resourceSubscriptions":[]}`,
			``,
			`"notifications":null`,
			`"notifications":{"resourceSubscriptions":["test://nope"]}`,
		} {
			n := mcpOf(p.on).fast.answered.Load()
			on, _ := p.compare(t, rpc2026("subscriptions/listen", params, ""))
			if mcpOf(p.on).fast.answered.Load() != n+1 {
				t.Errorf("%s: not answered natively: %+v", params, on)
			}
		}
		// Notifications of the wrong shape are refused before either
		// path, in words that name no Go type.
		for _, params := range []string{`"notifications":5`, `"notifications":{"taskIds":5}`, `"notifications":{"toolsListChanged":"yes"}`} {
			on, _ := p.compare(t, rpc2026("subscriptions/listen", params, ""))
			if on.Status != http.StatusBadRequest || !strings.Contains(on.Body, `"code":-32602`) || !strings.Contains(on.Body, "params.notifications") || strings.Contains(on.Body, "unmarshal") {
				t.Errorf("%s: %+v", params, on)
			}
		}
	}
}

// listenStream is an open subscriptions/listen: its events, one JSON-RPC
// message each, normalized.
type listenStream struct {
	events chan string
	cancel func()
}

// openListen sends a subscriptions/listen with params to url and returns
// its stream.
func openListen(t *testing.T, url, params, caps string) *listenStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"jsonrpc":"2.0","id":"l-1","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `},` + params + `}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/mcp", strings.NewReader(body))
	for k, v := range map[string]string{
		"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen", "Authorization": "Bearer admin",
	} {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		cancel()
		t.Fatalf("listen: %d %s", res.StatusCode, ct)
	}
	ls := &listenStream{events: make(chan string, 64), cancel: func() { cancel(); res.Body.Close() }}
	go func() {
		defer close(ls.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				ls.events <- normalizeAnswer(data)
			}
		}
	}()
	t.Cleanup(ls.cancel)
	return ls
}

// next is the stream's next event, waited for with a generous ceiling.
func (ls *listenStream) next(t *testing.T) string {
	t.Helper()
	select {
	case e, ok := <-ls.events:
		if !ok {
			t.Fatal("the listen ended")
		}
		return e
	case <-time.After(time.Minute):
		t.Fatal("no event in a minute")
	}
	return ""
}

// A listen opens with the acknowledgement and carries the list changes
// and resource updates it asked for, natively as through the SDK: the
// same events, each with the listen's id.
func TestMCPNativeListenStreams(t *testing.T) {
	p := newFastPair(t, false, true)
	on, off := httptest.NewServer(houseOf(p.on)), httptest.NewServer(houseOf(p.off))
	t.Cleanup(on.Close) // after the listens' own cleanups, which end them
	t.Cleanup(off.Close)
	params := `"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["test://text"],"taskIds":[]}`
	n, sdkN := mcpOf(p.on).fast.answered.Load(), mcpOf(p.on).fast.sdkServed.Load()
	lon, loff := openListen(t, on.URL, params, `{}`), openListen(t, off.URL, params, `{}`)
	ackOn, ackOff := lon.next(t), loff.next(t)
	if ackOn != ackOff || !strings.Contains(ackOn, `subscriptionId":"l-1"`) || !strings.Contains(ackOn, `"toolsListChanged":true`) {
		t.Fatalf("acknowledged:\nnative: %s\nSDK:    %s", ackOn, ackOff)
	}
	if mcpOf(p.on).fast.answered.Load() != n+1 || mcpOf(p.on).fast.sdkServed.Load() != sdkN {
		t.Error("the listen was not answered natively")
	}
	// One change at a time, each heard on both before the next (the SDK
	// coalesces changes made close together). The update of a resource
	// the listen did not name is not heard: the next event is the next
	// change's.
	for _, c := range []struct {
		change func(s *runtime.Server)
		want   string
	}{
		{func(s *runtime.Server) { s.NotifyToolsChanged() }, "notifications/tools/list_changed"},
		{func(s *runtime.Server) { s.NotifyPromptsChanged() }, "notifications/prompts/list_changed"},
		{func(s *runtime.Server) { _ = s.NotifyResourceUpdated(context.Background(), "test://text") }, `"uri":"test://text"`},
		{func(s *runtime.Server) {
			_ = s.NotifyResourceUpdated(context.Background(), "test://binary")
			s.NotifyPromptsChanged()
		}, "notifications/prompts/list_changed"},
	} {
		c.change(p.on)
		c.change(p.off)
		eon, eoff := lon.next(t), loff.next(t)
		if eon != eoff || !strings.Contains(eon, c.want) || !strings.Contains(eon, `subscriptionId":"l-1"`) {
			t.Errorf("want %s:\nnative: %s\nSDK:    %s", c.want, eon, eoff)
		}
	}
}
