package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// Fuzz targets: `go test ./runtime -run '^$' -fuzz FuzzExplorerCall
// -fuzztime 1m` (one target at a time). CI runs each for a short while.

// argSeeds are argument bodies that reach every branch of the argument
// checks.
var argSeeds = []string{
	``, `{}`, `{"city":"Paris","days":3}`, `{"city":"x","days":3.0}`, `{"city":"x","days":1e400}`,
	`{"city":"x","big":99999999999999999999}`, `{"city":5}`, `[1,2]`, `null`, `"str"`, `{"city":`,
	"{\"city\":\"\xff\"}", strings.Repeat("[", 200), `{"city":"x","tags":["a",1]}`, `{"a/b":1}`,
	`{"city":"x","ratio":-0.0e-7}`, `{"city":"x","big":9223372036854775807}`, `{"city":"x","big":-9223372036854775809}`,
	`{"city":"x","big":1e19}`, `{"city":"x","big":-9.223372036854775808e18}`, `{"city":"x","big":[9223372036854775808]}`, `{"city":"\u0000"}`, `{"city":"x"} {}`,
}

func fuzzServer() *Server {
	return NewServer(append(callTools()[:2:2], callTools()[7]), &Options{AllowExecute: true, Logger: discard()})
}

// POST /tools/{name}/call answers every body with JSON: a result, with 200
// when it succeeded and 400 when the arguments were refused.
func FuzzExplorerCall(f *testing.F) {
	for _, s := range argSeeds {
		f.Add(s)
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body string) {
		r := do(t, s, "POST", "/tools/count/call", body)
		var res struct {
			Content []json.RawMessage `json:"content"`
			IsError *bool             `json:"isError"`
		}
		if err := json.Unmarshal([]byte(r.body), &res); err != nil || res.IsError == nil || len(res.Content) == 0 {
			t.Fatalf("%d %q: not a result (%v)", r.status, r.body, err)
		}
		if (r.status == 200) == *res.IsError || (r.status != 200 && r.status != 400) {
			t.Fatalf("%d with isError=%v: %s", r.status, *res.IsError, r.body)
		}
	})
}

// POST /tools/{name}/validate answers every body with JSON, and says valid
// exactly when /call gets past validation.
func FuzzExplorerValidate(f *testing.F) {
	for _, s := range argSeeds {
		f.Add(s)
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body string) {
		v := do(t, s, "POST", "/tools/count/validate", body)
		var vr validateResponse
		if err := json.Unmarshal([]byte(v.body), &vr); err != nil || (v.status != 200 && v.status != 400) || (vr.Valid != (len(vr.Errors) == 0)) {
			t.Fatalf("%d %q (%v)", v.status, v.body, err)
		}
		if v.status == 400 {
			return // not JSON: /call counts it as {}
		}
		c := do(t, s, "POST", "/tools/count/call", body)
		if vr.Valid != (c.status == 200) {
			t.Fatalf("/validate %s but /call %d %s", v.body, c.status, c.body)
		}
	})
}

// MCP's tools/call answers any arguments with a result: isError for
// refused arguments, never a protocol error or a panic.
func FuzzMCPToolsCall(f *testing.F) {
	for _, s := range argSeeds {
		f.Add(s)
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, args string) {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "count", Arguments: json.RawMessage(args)}}
		r, err := s.serveToolCall(context.Background(), req)
		if err != nil {
			t.Fatalf("%q: protocol error %v", args, err)
		}
		if len(r.Content) == 0 && r.StructuredContent == nil {
			t.Fatalf("%q: result %#v", args, r)
		}
		if _, err := httpkit.Marshal(r); err != nil {
			t.Fatalf("%q: the result does not encode: %v", args, err)
		}
	})
}
