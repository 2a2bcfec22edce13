package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The example imports runtime/otel: run with OTEL_TRACES_EXPORTER=console,
// it prints a span for each call, by the conventions, continuing the
// caller's trace; at SIGTERM it flushes them.
func TestTracesToTheConsole(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example")
	}
	bin := filepath.Join(t.TempDir(), "weather")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-history", "memory")
	cmd.Env = append(os.Environ(), "OTEL_TRACES_EXPORTER=console", "OTEL_SERVICE_NAME=weather-test")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(first), "Serving on ")
	if err != nil || !ok {
		t.Fatalf("the server printed %q, %v", first, err)
	}
	url = strings.TrimSuffix(url, "/")
	rest := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(lines)
		rest <- b
	}()

	const trace = "0af7651916cd43dd8448eb211c80319c"
	call := func(path, body string, header ...string) {
		t.Helper()
		req, _ := http.NewRequest("POST", url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("traceparent", "00-"+trace+"-b7ad6b7169203331-01")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "Oslo") {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
		}
	}
	call("/v1/tools/get_weather", `{"input":{"city":"Oslo"}}`)
	call("/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		"Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "get_weather")

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var out []byte
	select {
	case out = <-rest:
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not stop within 60s")
	}
	_ = cmd.Wait()

	// The console exporter writes one JSON object per span.
	type span struct {
		Name        string
		SpanContext struct{ TraceID string }
		Attributes  []struct {
			Key   string
			Value struct{ Value any }
		}
		Resource []struct {
			Key   string
			Value struct{ Value any }
		}
	}
	found := map[string]map[string]any{}
	for _, line := range bytes.Split(out, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("{")) {
			continue // "History: memory", and the like
		}
		var s span
		if err := json.Unmarshal(line, &s); err != nil {
			t.Fatalf("not a span: %v\n%s", err, line)
		}
		if s.SpanContext.TraceID != trace {
			continue
		}
		attrs := map[string]any{}
		for _, a := range s.Attributes {
			attrs[a.Key] = a.Value.Value
		}
		for _, a := range s.Resource {
			if a.Key == "service.name" {
				attrs["service.name"] = a.Value.Value
			}
		}
		found[s.Name] = attrs
	}
	for name, want := range map[string]map[string]any{
		"execute_tool get_weather": {"gen_ai.tool.name": "get_weather", "gen_ai.operation.name": "execute_tool", "toolgen.surface": "v1", "service.name": "weather-test"},
		"tools/call get_weather":   {"gen_ai.tool.name": "get_weather", "mcp.method.name": "tools/call", "mcp.protocol.version": "2026-07-28", "jsonrpc.request.id": "1", "toolgen.surface": "mcp"},
	} {
		got, ok := found[name]
		if !ok {
			t.Errorf("no span %q in trace %s:\n%s", name, trace, out)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v", name, k, got[k], v)
			}
		}
		if id, _ := got["toolgen.invocation_id"].(string); len(id) != 36 {
			t.Errorf("%s: toolgen.invocation_id = %v", name, got["toolgen.invocation_id"])
		}
	}
}
