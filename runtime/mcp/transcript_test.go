package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"

	"github.com/toolgen-go/toolgen/runtime"
)

// JSON-RPC transcripts: testdata/*.txtar hold requests (N.request) and
// the exact messages the server answers them with (N.response, one message
// a line: notifications first, then the response), on a session opened
// with protocol 2025-11-25 against mcpTools() and sessionTool(). They pin the wire shape of
// tools/list and tools/call.
//
//	go test ./runtime/mcp -run Transcript -update  rewrites the responses.

var updateTranscripts = flag.Bool("update", false, "rewrite the MCP transcripts' responses")

func TestTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			conn := rawSession(t, runtime.NewServer(append(mcpTools(), sessionTool()), &runtime.Options{Logger: discard()}))
			responses := map[string]string{}
			var order []string
			for _, f := range ar.Files {
				name, ok := strings.CutSuffix(f.Name, ".request")
				if !ok {
					continue
				}
				responses[name] = exchange(t, conn, bytes.TrimSpace(f.Data))
				order = append(order, name)
			}
			changed := false
			for i, f := range ar.Files {
				name, ok := strings.CutSuffix(f.Name, ".response")
				if !ok {
					continue
				}
				got, ok := responses[name]
				if !ok {
					t.Errorf("%s: no %s.request", f.Name, name)
					continue
				}
				delete(responses, name)
				if got != string(f.Data) {
					if *updateTranscripts {
						ar.Files[i].Data = []byte(got)
						changed = true
						continue
					}
					t.Errorf("%s:\n got %s\nwant %s", f.Name, got, f.Data)
				}
			}
			for _, name := range order {
				got, ok := responses[name]
				if !ok {
					continue
				}
				if !*updateTranscripts {
					t.Errorf("%s.request has no %s.response", name, name)
					continue
				}
				ar.Files = append(ar.Files, txtar.File{Name: name + ".response", Data: []byte(got)})
				changed = true
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// rawSession connects to s as a bare JSON-RPC peer and completes the
// initialize handshake.
func rawSession(t *testing.T, s *runtime.Server) sdk.Connection {
	t.Helper()
	conn, err := serveInMemory(t, context.Background(), s).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	exchange(t, conn, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"transcript","version":"1"}}}`))
	send(t, conn, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return conn
}

func send(t *testing.T, conn sdk.Connection, data []byte) jsonrpc.Message {
	t.Helper()
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		t.Fatalf("request %s: %v", data, err)
	}
	if err := conn.Write(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	return msg
}

// exchange sends a request and returns every message up to and including
// its response, one encoded message a line.
func exchange(t *testing.T, conn sdk.Connection, data []byte) string {
	t.Helper()
	req, ok := send(t, conn, data).(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		t.Fatalf("%s is not a request", data)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out strings.Builder
	for {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("reading the answer to %s: %v", data, err)
		}
		b, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s\n", buf.Bytes())
		if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID == req.ID {
			return out.String()
		}
	}
}
