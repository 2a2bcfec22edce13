package mcp

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// Over stdio a line that is not a JSON-RPC message, or is longer than the
// body limit, is answered with a JSON-RPC error, and the session goes on
// (the SDK's own transport ends it, with its decoder's Go text). The
// cross-surface table (runtime/surfaces_test.go) sends stdio the rest.
func TestStdioRefusesBadLines(t *testing.T) {
	srv := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard(), MaxBodyBytes: 300})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeIO(ctx, srv, nil, inR, outW) }()
	defer func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	}()
	out := bufio.NewScanner(outR)
	for _, c := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, `"id":1,"result"`},
		{`{"jsonrpc":"2.0","id":2,"method":"ping"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not valid JSON."}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"` + strings.Repeat("y", 1000) + `"}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is longer than the limit."}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"ping"}`, `{"jsonrpc":"2.0","id":4,"result":{}}`},
		// A notification with bad params is dropped (it may not be
		// answered): the next answer is the ping's.
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}` + "\n" + `{"jsonrpc":"2.0","id":5,"method":"ping"}`, `{"jsonrpc":"2.0","id":5,"result":{}}`},
		// A request with bad params is answered, with its id.
		{`{"jsonrpc":"2.0","id":6,"method":"ping","params":[1]}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Invalid params: params must be an object."}}`},
	} {
		if _, err := io.WriteString(inW, c.line+"\n"); err != nil {
			t.Fatal(err)
		}
		if !out.Scan() {
			t.Fatalf("no answer to %.60s: %v", c.line, out.Err())
		}
		if got := out.Text(); !strings.Contains(got, c.want) {
			t.Errorf("%.60s: got %s, want %s", c.line, got, c.want)
		}
	}
}
