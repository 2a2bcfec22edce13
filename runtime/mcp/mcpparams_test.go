package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// goWords is what Go-internal text looks like in an MCP answer: the
// decoder's words, and the go-sdk's type names.
var goWords = regexp.MustCompile(`json: |cannot unmarshal|Go struct|Go value|\bmcp\.[A-Za-z]|unexpected end of JSON|invalid character '`)

// Params of the wrong shape are refused before the go-sdk decodes them,
// as invalid params (-32602) answering the request's id, in toolgen's
// words: in a session (an error in a 200, as the SDK answers), on /sse (a
// 400 to the POST) and at 2026-07-28 (a 400, as the revision maps -32602).
func TestMCPParamsErrorsInOurWords(t *testing.T) {
	s := runtime.NewServer(runtime.ToolList{sessionTool()}, &runtime.Options{Logger: discard(), AllowExecute: true})
	hs := newHTTPTest(s)
	defer hs.Close()
	const init = `"capabilities":{},"clientInfo":{"name":"t","version":"1"}`
	cases := []struct{ name, method, params string }{
		{"protocolVersion a number", "initialize", `{"protocolVersion":5,` + init + `}`},
		{"initialize without params", "initialize", ""},
		{"initialize with null params", "initialize", "null"},
		{"clientInfo.name a number", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":5,"version":"1"}}`},
		{"capabilities.roots a string", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"roots":"yes"},"clientInfo":{"name":"t","version":"1"}}`},
		{"cursor an object", "tools/list", `{"cursor":{}}`},
		{"_meta a string", "tools/list", `{"_meta":"x"}`},
		{"params an array", "ping", `[]`},
		{"a prompt's name a number", "prompts/get", `{"name":5}`},
		{"a prompt's argument a number", "prompts/get", `{"name":"p","arguments":{"who":1}}`},
		{"uri an array", "resources/read", `{"uri":["x"]}`},
		{"level a number", "logging/setLevel", `{"level":3}`},
		{"ref.type a number", "completion/complete", `{"ref":{"type":1},"argument":{"name":"a","value":"b"}}`},
		{"ref.type none the SDK has", "completion/complete", `{"ref":{"type":"ref/zzz"},"argument":{"name":"a","value":"b"}}`},
		{"a prompt's ref with a uri", "completion/complete", `{"ref":{"type":"ref/prompt","name":"p","uri":"x://y"},"argument":{"name":"a","value":"b"}}`},
		{"a tool's name an object", "tools/call", `{"name":{}}`},
		{"subscriptions/listen without params", "subscriptions/listen", ""},
	}
	type transport struct {
		name   string
		status int
		post   func(t *testing.T, method, msg string) *http.Response
	}
	send := func(t *testing.T, url, msg string, header ...string) *http.Response {
		req, _ := http.NewRequest("POST", url, strings.NewReader(msg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	transports := []transport{
		{"session", 200, func(t *testing.T, method, msg string) *http.Response {
			if method == "initialize" {
				return send(t, hs.URL+"/mcp", msg)
			}
			return send(t, hs.URL+"/mcp", msg, "Mcp-Session-Id", openSession(t, hs.URL), "Mcp-Protocol-Version", "2025-11-25")
		}},
		{"sse", 400, func(t *testing.T, _, msg string) *http.Response {
			endpoint, stop := openSSE(t, hs.URL, "")
			defer stop()
			return send(t, hs.URL+endpoint, msg)
		}},
		{"2026-07-28", 400, func(t *testing.T, method, msg string) *http.Response {
			return send(t, hs.URL+"/mcp", msg, "Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", method)
		}},
	}
	for _, tr := range transports {
		for _, tc := range cases {
			if tr.name == "2026-07-28" && tc.method == "initialize" {
				continue // no initialize at 2026-07-28
			}
			t.Run(tr.name+"/"+tc.name, func(t *testing.T) {
				params := tc.params
				if tr.name == "2026-07-28" && strings.HasPrefix(params, "{") {
					params = `{"_meta":{"` + metaProtocolVersion + `":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},` + params[1:]
				}
				msg := `{"jsonrpc":"2.0","id":9,"method":"` + tc.method + `"`
				if params != "" {
					msg += `,"params":` + params
				}
				resp := tr.post(t, tc.method, msg+"}")
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var e struct {
					ID    json.RawMessage `json:"id"`
					Error struct {
						Code    int64  `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(rpcData(string(b))), &e); err != nil || e.Error.Code != -32602 || string(e.ID) != "9" {
					t.Errorf("%d %s, want invalid params (-32602) answering id 9", resp.StatusCode, b)
				}
				if resp.StatusCode != tr.status {
					t.Errorf("status %d, want %d", resp.StatusCode, tr.status)
				}
				if m := goWords.FindString(string(b)); m != "" || !strings.HasPrefix(e.Error.Message, "Invalid params: ") {
					t.Errorf("not in toolgen's words (%q): %s", m, b)
				}
			})
		}
	}
	// Params of the right shape still reach the SDK: a session opens.
	openSession(t, hs.URL)
}

// rpcData is the JSON of an answer: the body, or its SSE event's data.
func rpcData(body string) string {
	for line := range strings.Lines(body) {
		if d, ok := strings.CutPrefix(line, "data: "); ok && strings.TrimSpace(d) != "" {
			return d
		}
	}
	return body
}
