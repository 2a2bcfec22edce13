package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// revisionCases are requests of revision 2026-07-28 that the fast path
// does not take as they come: every refusal of the revision, and
// requests written unusually.
func revisionCases() []fastReq {
	meta := fastMeta2026
	req := func(name, body string, header ...string) fastReq {
		r := fastReq{name: name, body: body, header: map[string]string{}}
		for i := 0; i+1 < len(header); i += 2 {
			r.header[header[i]] = header[i+1]
		}
		return r
	}
	list := func(params string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + params + `}}`
	}
	return []fastReq{
		// What the revision does not have.
		req("unknown method", `{"jsonrpc":"2.0","id":1,"method":"foo/bar","params":{`+meta+`}}`),
		req("ping", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{`+meta+`}}`),
		req("ping without params", `{"jsonrpc":"2.0","id":1,"method":"ping"}`),
		req("initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{`+meta+`,"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`),
		req("logging/setLevel", `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{`+meta+`,"level":"info"}}`),
		req("resources/subscribe", `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{`+meta+`,"uri":"test://text"}}`),
		req("resources/unsubscribe", `{"jsonrpc":"2.0","id":"u","method":"resources/unsubscribe","params":{`+meta+`,"uri":"test://text"}}`),
		req("a notification", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{`+meta+`}}`),
		req("notifications/cancelled", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`),
		req("an unknown notification", `{"jsonrpc":"2.0","method":"notifications/nope","params":{}}`),
		req("a notification under another Mcp-Method", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{`+meta+`}}`, "Mcp-Method", "notifications/other"),
		req("a notification without Mcp-Method", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{`+meta+`}}`, "Mcp-Method", ""),
		req("a notification of another revision", `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-29"}}}`),
		req("a notification with an id", `{"jsonrpc":"2.0","id":1,"method":"notifications/initialized","params":{`+meta+`}}`),
		// The revision's headers.
		req("no Mcp-Method", list(meta), "Mcp-Method", ""),
		req("another Mcp-Method", list(meta), "Mcp-Method", "prompts/list"),
		req("no Mcp-Name", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"plain"}}`, "Mcp-Name", ""),
		req("another Mcp-Name", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"plain"}}`, "Mcp-Name", "x"),
		req("no name in the body", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`}}`, "Mcp-Name", "plain"),
		req("Mcp-Name of a resource", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{`+meta+`,"uri":"test://text"}}`, "Mcp-Name", "test://binary"),
		req("no Mcp-Protocol-Version", list(meta), "Mcp-Protocol-Version", ""),
		req("an older Mcp-Protocol-Version", list(meta), "Mcp-Protocol-Version", "2025-11-25"),
		req("an unknown older Mcp-Protocol-Version", list(meta), "Mcp-Protocol-Version", "1999-01-01"),
		req("a later revision in both", list(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2027-01-01","io.modelcontextprotocol/clientCapabilities":{}}`), "Mcp-Protocol-Version", "2027-01-01"),
		req("the media type", list(meta), "Content-Type", "text/plain"),
		req("Accept", list(meta), "Accept", "application/json"),
		// _meta.
		req("no _meta", list(``)),
		req("no params", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		req("_meta without the version", list(`"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}`)),
		req("_meta of another version", list(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-29","io.modelcontextprotocol/clientCapabilities":{}}`)),
		req("_meta without capabilities", list(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`)),
		req("capabilities not an object", list(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":5}`)),
		req("client info not an object", list(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":5}`)),
		// Written unusually, served.
		req("a batch", `[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`}}]`),
		req("an escaped key", list(meta+`,"curs\u006fr":"x"`)),
		req("a repeated id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list","params":{`+meta+`}}`),
		req("an id of 1.0", `{"jsonrpc":"2.0","id":1.0,"method":"tools/list","params":{`+meta+`}}`),
		req("an id of 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list","params":{`+meta+`}}`),
		req("an id of 1e2", `{"jsonrpc":"2.0","id":1e2,"method":"tools/list","params":{`+meta+`}}`),
		req("an escaped id", `{"jsonrpc":"2.0","id":"\u0061b","method":"tools/list","params":{`+meta+`}}`),
		req("a member tools/call has not", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"plain","colour":"red"}}`, "Mcp-Name", "plain"),
		req("an escaped tool name", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"pl\u0061in"}}`, "Mcp-Name", "plain"),
		req("a key in capitals", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+meta+`,"Cursor":"x"}}`),
		req("a member prompts/get has not", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{`+meta+`,"name":"hello","x":1}}`, "Mcp-Name", "hello"),
		req("_meta with a member of its own", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"example.com/x":[1,2]},"name":"plain"}}`, "Mcp-Name", "plain"),
		req("null arguments", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`+meta+`,"name":"plain","arguments":null}}`, "Mcp-Name", "plain"),
		req("a listen written unusually", `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+meta+`,"notifications":{},"x":1}}`),
		req("an id in capitals besides", `{"jsonrpc":"2.0","id":1,"ID":2,"method":"tools/list","params":{`+meta+`}}`),
		req("_meta in capitals", list(`"_META":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`)),
		req("a method in capitals", `{"jsonrpc":"2.0","id":1,"Method":"tools/list","params":{`+meta+`}}`),
		req("a listen's notification in capitals", `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+meta+`,"notifications":{"ToolsListChanged":true}}}`),
		req("the revision named in an older one", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}`, "Mcp-Protocol-Version", "2025-11-25", "Mcp-Method", "nope"),
		req("a prompt's name not in ASCII", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{`+meta+`,"name":"héllo"}}`, "Mcp-Name", "héllo"),
		req("a resource's URI not in ASCII", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{`+meta+`,"uri":"test://é"}}`, "Mcp-Name", "test://é"),
		req("a name with a space at its end", `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{`+meta+`,"name":"hello "}}`, "Mcp-Name", "hello "),
		req("server/discover written unusually", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`,"x":1}}`),
	}
}

// TestMCPNativeRevision: the refusals of revision 2026-07-28 and the
// requests written unusually are answered natively, as the SDK answers
// them, in each of its framings.
func TestMCPNativeRevision(t *testing.T) {
	for _, o := range []struct{ jsonResponse, stateless bool }{{true, false}, {false, false}, {false, true}} {
		t.Run(fmt.Sprintf("JSONResponse=%v,Stateless=%v", o.jsonResponse, o.stateless), func(t *testing.T) {
			p := newFastPair(t, o.jsonResponse, o.stateless)
			srv := mcpOf(p.on)
			for _, c := range revisionCases() {
				n := srv.fast.sdkServed.Load()
				on, _ := p.compare(t, c)
				if srv.fast.sdkServed.Load() != n {
					t.Errorf("%s reached the SDK: %+v", c.name, on)
				}
			}
		})
	}
}

// A GET or DELETE of the revision (it has only POST) is refused natively,
// as the SDK refuses it.
func TestMCPNativeRevisionMethods(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		p := newFastPair(t, false, stateless)
		for _, method := range []string{http.MethodGet, http.MethodDelete} {
			req := func(s *runtime.Server) *httptest.ResponseRecorder {
				r := httptest.NewRequest(method, "http://127.0.0.1/mcp", nil)
				r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
				r.Header.Set("Accept", "text/event-stream")
				r.Header.Set("Authorization", "Bearer admin")
				w := httptest.NewRecorder()
				houseOf(s).ServeHTTP(w, r)
				return w
			}
			n := mcpOf(p.on).fast.sdkServed.Load()
			on, off := req(p.on), req(p.off)
			if on.Code != off.Code || on.Code != http.StatusMethodNotAllowed || on.Body.String() != off.Body.String() || on.Header().Get("Allow") != off.Header().Get("Allow") {
				t.Errorf("%s (stateless %v): native %d %q %s, SDK %d %q %s", method, stateless, on.Code, on.Header().Get("Allow"), on.Body, off.Code, off.Header().Get("Allow"), off.Body)
			}
			if mcpOf(p.on).fast.sdkServed.Load() != n || mcpOf(p.on).fast.answered.Load() == 0 {
				t.Errorf("%s: not answered natively", method)
			}
		}
	}
}

// completion/complete on a server that completes nothing is refused
// natively, as the SDK refuses it (-32601).
func TestMCPNativeNoCompletion(t *testing.T) {
	mk := func() *runtime.Server {
		return newTestServer(fastTools(), &runtime.Options{Logger: discard(), Prompts: nativePrompts()}, &Options{Stateless: true})
	}
	p := &fastPair{on: mk(), off: mk(), tron: &recTracer{}, troff: &recTracer{}}
	mcpOf(p.off).fast.off = true
	n := mcpOf(p.on).fast.sdkServed.Load()
	on, _ := p.compare(t, rpc2026("completion/complete", `"ref":{"type":"ref/prompt","name":"explain"},"argument":{"name":"topic","value":"G"}`, ""))
	if on.Status != http.StatusNotFound || !strings.Contains(on.Body, "-32601") || mcpOf(p.on).fast.sdkServed.Load() != n {
		t.Errorf("completion without a handler: %+v", on)
	}
}
