package main

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's client talks to every example, built as it ships, over every
// transport the server offers: Streamable HTTP at /mcp, stateful
// (2025-11-25) and -stateless (2026-07-28), the HTTP+SSE transport at /sse
// (2025-11-25), and stdio (2026-07-28, which needs no session there). Each
// lists the same tools, and reads the same tool registry.
func TestEveryExampleOverEveryTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example")
	}
	mains, err := filepath.Glob("../*/main.go")
	if err != nil || len(mains) < 4 {
		t.Fatalf("examples: %v %v", mains, err)
	}
	for _, m := range mains {
		dir := filepath.Dir(m)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			bin := filepath.Join(t.TempDir(), name)
			build := exec.Command("go", "build", "-o", bin, ".")
			build.Dir = dir
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			var seen []string
			// check connects with a client of clientVersion (the SDK's
			// newest when empty), which must get wantVersion.
			check := func(transport, clientVersion, wantVersion string, tr sdk.Transport) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, tr, &sdk.ClientSessionOptions{ProtocolVersion: clientVersion})
				if err != nil {
					t.Fatalf("%s: %v", transport, err)
				}
				defer cs.Close()
				if v := cs.InitializeResult().ProtocolVersion; v != wantVersion {
					t.Errorf("%s: protocol %s, want %s", transport, v, wantVersion)
				}
				if info := cs.InitializeResult().ServerInfo; info == nil || info.Name == "" || info.Version == "" {
					t.Errorf("%s: serverInfo %+v", transport, info)
				}
				res, err := cs.ListTools(ctx, nil)
				if err != nil || len(res.Tools) == 0 {
					t.Fatalf("%s: tools/list %v %v", transport, res, err)
				}
				var names []string
				for _, tl := range res.Tools {
					names = append(names, tl.Name)
				}
				if seen == nil {
					seen = names
				} else if !slices.Equal(names, seen) {
					t.Errorf("%s lists %v, another transport %v", transport, names, seen)
				}
				reg, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "toolgen://tools"})
				if err != nil || !strings.Contains(reg.Contents[0].Text, `"name":"`+names[0]+`"`) {
					t.Errorf("%s: the registry: %v %v", transport, reg, err)
				}
			}

			// One endpoint serves every revision: a session for an older
			// client, stateless requests for a client of 2026-07-28.
			url := start(t, bin)
			check("/mcp 2025-11-25", "2025-11-25", "2025-11-25", &sdk.StreamableClientTransport{Endpoint: url + "/mcp"})
			check("/mcp", "", "2026-07-28", &sdk.StreamableClientTransport{Endpoint: url + "/mcp"})
			check("/sse", "", "2025-11-25", &sdk.SSEClientTransport{Endpoint: url + "/sse"})
			check("/mcp -stateless", "", "2026-07-28", &sdk.StreamableClientTransport{Endpoint: start(t, bin, "-stateless") + "/mcp"})
			check("stdio", "", "2026-07-28", &sdk.CommandTransport{Command: exec.Command(bin, "-stdio", "-history", "memory")})
		})
	}
}

// start runs the server bin with args on a free port, and returns its URL;
// the process is killed when the test ends.
func start(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-history", "memory"}, args...)...)
	var logs bytes.Buffer
	cmd.Stderr = &logs
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("%s %s:\n%s", bin, strings.Join(args, " "), logs.Bytes())
		}
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if url, ok := strings.CutPrefix(sc.Text(), "Serving on "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			return strings.TrimSuffix(url, "/")
		}
	}
	t.Fatalf("%s did not start: %v", bin, sc.Err())
	return ""
}
