package wire

import (
	"net/http"
	"strings"
	"testing"
)

const goodResult = `{"content":[{"type":"text","text":"{\"city\":\"Paris\",\"days\":3,\"high\":21.5,\"summary\":\"sunny in celsius\"}"}],"structuredContent":{"summary":"sunny in celsius","high":21.5,"days":3,"city":"Paris"}}`

var (
	jsonHeader = http.Header{"Content-Type": {"application/json"}}
	sseHeader  = http.Header{"Content-Type": {"text/event-stream"}}
)

func TestCheck(t *testing.T) {
	rpc := `{"jsonrpc":"2.0","id":2,"result":` + goodResult + `}`
	for _, c := range []struct {
		name  string
		proto Protocol
		h     http.Header
		body  string
	}{
		{"REST", REST, jsonHeader, goodResult},
		{"MCP, JSON", MCP, jsonHeader, rpc},
		{"MCP, SSE", MCP, sseHeader, "event: message\nid: 1\ndata: " + rpc + "\n\n"},
	} {
		if err := Check(c.proto, c.h, []byte(c.body)); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// Each way of answering wrongly fails the check.
func TestCheckWrong(t *testing.T) {
	for _, c := range []struct {
		name  string
		proto Protocol
		body  string
		want  string
	}{
		{"another result", REST, strings.Replace(goodResult, `"city":"Paris"}`, `"city":"Oslo"}`, 1), "structured content"},
		{"an error result", REST, strings.Replace(goodResult, `}}`, `},"isError":true}`, 1), "error result"},
		{"no text content", REST, `{"structuredContent":` + Want + `}`, "content"},
		{"a JSON-RPC error", MCP, `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}`, "-32602"},
		{"no result", MCP, `{"jsonrpc":"2.0","id":2}`, "without a result"},
		{"not JSON", REST, `<html>`, "invalid"},
	} {
		err := Check(c.proto, jsonHeader, []byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one saying %q", c.name, err, c.want)
		}
	}
	if err := Check(MCP, sseHeader, []byte("event: message\n\n")); err == nil {
		t.Error("an event stream without data passed")
	}
}
