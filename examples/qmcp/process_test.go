package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Tests of the real server process: the history survives kill -9, and two
// replicas share one PostgreSQL database.

// buildServer builds this example once for the test.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "qmcp")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServer runs the server with args and returns its URL; the process
// is killed at the end of the test if it is still running.
func startServer(t *testing.T, bin string, args ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if url, ok := strings.CutPrefix(lines.Text(), "Serving on "); ok {
			go io.Copy(io.Discard, stdout)
			return strings.TrimSuffix(url, "/"), cmd
		}
	}
	t.Fatalf("the server printed no URL: %v", lines.Err())
	return "", nil
}

type invocation struct {
	ID     string `json:"id"`
	Tool   string `json:"tool_name"`
	Status string `json:"status"`
	Result any    `json:"result"`
}

func getInvocation(url, id string) (int, invocation, error) {
	resp, err := http.Get(url + "/v1/invocations/" + id)
	if err != nil {
		return 0, invocation{}, err
	}
	defer resp.Body.Close()
	var inv invocation
	err = json.NewDecoder(resp.Body).Decode(&inv)
	return resp.StatusCode, inv, err
}

// An invocation whose answer reached the client is in the store with its
// final status, even when the server is killed with SIGKILL in the middle
// of a concurrent burst.
func TestKill9KeepsAnsweredInvocations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a server")
	}
	bin := buildServer(t)
	db := filepath.Join(t.TempDir(), "history.db")
	url, cmd := startServer(t, bin, "-history", "sqlite:"+db)

	var (
		mu       sync.Mutex
		answered = map[string]string{} // invocation id → message
		count    atomic.Int32
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 5 * time.Second}
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				msg := fmt.Sprintf("w%d-%d", w, i)
				resp, err := client.Post(url+"/v1/tools/echo", "application/json", strings.NewReader(`{"input":{"message":"`+msg+`"}}`))
				if err != nil {
					return // the server is gone
				}
				var r struct {
					Result       string `json:"result"`
					InvocationID string `json:"invocation_id"`
				}
				err = json.NewDecoder(resp.Body).Decode(&r)
				resp.Body.Close()
				if err != nil || r.InvocationID == "" {
					return // cut off mid-answer: not answered
				}
				mu.Lock()
				answered[r.InvocationID] = r.Result
				mu.Unlock()
				count.Add(1)
			}
		})
	}
	for count.Load() < 400 {
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL, mid-burst
		t.Fatal(err)
	}
	wg.Wait()
	_ = cmd.Wait()

	url, _ = startServer(t, bin, "-history", "sqlite:"+db)
	mu.Lock()
	defer mu.Unlock()
	for id, msg := range answered {
		code, inv, err := getInvocation(url, id)
		if err != nil || code != 200 || inv.Status != "success" || inv.Result != msg {
			t.Errorf("invocation %s (%q) after the restart: %d %+v %v", id, msg, code, inv, err)
		}
	}
	t.Logf("%d answered invocations, every one found after kill -9 and a restart", len(answered))
}

// Two replicas on one PostgreSQL database: calls made on one are listed by
// the other.
func TestReplicasShareHistory(t *testing.T) {
	dsn := testDSN(t)
	if testing.Short() {
		t.Skip("builds two servers")
	}
	bin := buildServer(t)
	a, _ := startServer(t, bin, "-history", dsn)
	b, _ := startServer(t, bin, "-history", dsn)
	var ids []string
	for i, url := range []string{a, b, a} {
		resp, err := http.Post(url+"/v1/tools/echo", "application/json", strings.NewReader(fmt.Sprintf(`{"input":{"message":"m%d"},"correlation_id":"replicas"}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			InvocationID string `json:"invocation_id"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		ids = append(ids, r.InvocationID)
	}
	for _, url := range []string{a, b} {
		for _, id := range ids {
			if code, inv, err := getInvocation(url, id); code != 200 || inv.Status != "success" || err != nil {
				t.Errorf("%s does not list %s: %d %+v %v", url, id, code, inv, err)
			}
		}
		resp, err := http.Get(url + "/v1/invocations?correlation_id=replicas")
		if err != nil {
			t.Fatal(err)
		}
		var page struct{ Total int }
		_ = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if page.Total != 3 {
			t.Errorf("%s lists %d of the 3 calls", url, page.Total)
		}
	}
}

// testDSN is the test database's DSN ($TOOLGEN_TEST_POSTGRES) with a
// search_path of its own, which the store creates. Without the variable
// the test is skipped, except in CI (.ci/postgres sets it), where a
// missing database is a broken setup.
func testDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("TOOLGEN_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TOOLGEN_TEST_POSTGRES is not set: CI runs this test against a real PostgreSQL (.ci/postgres)")
		}
		t.Skip("TOOLGEN_TEST_POSTGRES is not set")
	}
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=qmcp_replicas_" + strconv.FormatInt(time.Now().UnixNano(), 36)
}

// Two replicas on one PostgreSQL behind a real load balancer (HAProxy,
// round robin, health checked): a bounded mixed load of /v1 calls with
// idempotency keys and stateless MCP calls, one replica killed with
// SIGKILL mid-run, what failed retried with the same keys. Then every
// acknowledged call is recorded exactly once, no idempotent call ran
// twice, and every record is success or failed (the killed replica's
// pending ones read "interrupted" once their deadline has passed).
func TestReplicasBehindHAProxy(t *testing.T) {
	dsn := testDSN(t)
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("haproxy is not installed: .ci/run installs Debian's")
		}
		t.Skip("haproxy is not installed")
	}
	bin := buildServer(t)
	// A call timeout bounds each record's deadline: the killed replica's
	// pending records read "interrupted" within seconds.
	// One state key for the fleet: -stateless on a shared store refuses
	// to start without one.
	keyFile := filepath.Join(t.TempDir(), "state.key")
	if err := os.WriteFile(keyFile, []byte("a key the replicas share, 32 bytes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"-history", dsn, "-stateless", "-call-timeout", "1s", "-state-key-file", keyFile}
	a, killA := startServer(t, bin, args...)
	b, _ := startServer(t, bin, args...)

	// HAProxy in front, on a free port, checking /health.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lb := "http://" + ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(t.TempDir(), "haproxy.cfg")
	host := func(url string) string { return strings.TrimPrefix(url, "http://") }
	conf := fmt.Sprintf(`global
	maxconn 256
defaults
	mode http
	timeout connect 1s
	timeout client 10s
	timeout server 10s
	option redispatch
	retries 2
	retry-on conn-failure empty-response
frontend fe
	bind %s
	default_backend replicas
backend replicas
	balance roundrobin
	option httpchk
	http-check send meth GET uri /health ver HTTP/1.1 hdr Host localhost
	default-server inter 200ms fall 1 rise 2
	server a %s check
	server b %s check
`, host(lb), host(a), host(b))
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	hp := exec.Command(haproxy, "-db", "-f", cfg)
	hp.Stderr = os.Stderr
	if err := hp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = hp.Process.Kill(); _ = hp.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		if resp, err := http.Get(lb + "/health"); err == nil && resp.StatusCode == 200 {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("HAProxy did not come up")
		}
		time.Sleep(50 * time.Millisecond)
	}

	// call sends operation i once: a /v1 call with an idempotency key, or
	// (every third) a stateless MCP call; both carry a correlation id of
	// their own. It reports whether the call was acknowledged.
	client := &http.Client{Timeout: 15 * time.Second}
	call := func(i int) bool {
		corr := fmt.Sprintf("op-%d", i)
		var req *http.Request
		if i%3 == 2 {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"m%d"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`, i, i)
			req, _ = http.NewRequest("POST", lb+"/mcp", strings.NewReader(body))
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "echo")
		} else {
			req, _ = http.NewRequest("POST", lb+"/v1/tools/echo", strings.NewReader(fmt.Sprintf(`{"input":{"message":"m%d"}}`, i)))
			req.Header.Set("Idempotency-Key", fmt.Sprintf("key-%d", i))
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Correlation-ID", corr)
		resp, err := client.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if i%3 != 2 {
			// /v1 answers 200 with the call's outcome: its result, or the
			// recorded failure of a first attempt that was interrupted
			// (a repeat never runs the tool again). 409: still running.
			return resp.StatusCode == 200
		}
		return resp.StatusCode == 200 && strings.Contains(string(b), fmt.Sprintf("m%d", i)) && !strings.Contains(string(b), `"isError":true`)
	}

	const ops, workers = 240, 4
	acked := make([]bool, ops)
	var next atomic.Int64
	var wg sync.WaitGroup
	killed := make(chan struct{})
	var killOnce sync.Once
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= ops {
					return
				}
				if i == ops/3 {
					killOnce.Do(func() { _ = killA.Process.Kill(); close(killed) })
				}
				acked[i] = call(i)
			}
		}()
	}
	wg.Wait()
	<-killed
	// Retry what failed, with the same keys (an MCP call has none: it is
	// retried as a new call, and counted once below by its outcome).
	retryUntil := time.Now().Add(60 * time.Second) // a generous ceiling: deadlines are seconds
	for i := range ops {
		for !acked[i] {
			if time.Now().After(retryUntil) {
				t.Fatalf("operation %d never answered", i)
			}
			time.Sleep(100 * time.Millisecond)
			acked[i] = call(i)
		}
	}

	// The records, through the surviving replica: every operation's, each
	// success or failed once the dead replica's deadlines have passed.
	type page struct {
		Invocations []struct {
			ID, Status, Error, CorrelationID string
		}
		Total int
	}
	list := func(query string) page {
		resp, err := http.Get(b + "/v1/invocations?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var p page
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deadline = time.Now().Add(60 * time.Second)
	for list("status=pending").Total > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d records still pending", list("status=pending").Total)
		}
		time.Sleep(200 * time.Millisecond)
	}
	interrupted := 0
	for i := range ops {
		if i%3 != 2 {
			// An idempotent call has one record, whatever was retried:
			// it ran once, or was interrupted once.
			p := list(fmt.Sprintf("correlation_id=op-%d", i))
			if p.Total != 1 {
				t.Errorf("operation %d (idempotent): %d records, want exactly 1", i, p.Total)
			} else if p.Invocations[0].Status == "failed" {
				interrupted++
			}
			continue
		}
		if p := list(fmt.Sprintf("correlation_id=op-%d&status=success", i)); p.Total < 1 {
			t.Errorf("operation %d (MCP): acknowledged, but no successful record", i)
		}
	}
	t.Logf("%d operations, %d idempotent calls interrupted by the kill", ops, interrupted)
	if all := list("limit=500"); all.Total < ops {
		t.Errorf("%d records for %d operations", all.Total, ops)
	} else {
		for _, r := range all.Invocations {
			if r.Status != "success" && r.Status != "failed" {
				t.Errorf("record %s is %s", r.ID, r.Status)
			}
		}
	}
}

// On PostgreSQL, which replicas share, -stateless (replicas without
// sticky routing) does not start without a state key they share, and
// says how to give one; with one it serves.
func TestStatelessFleetNeedsStateKey(t *testing.T) {
	dsn := testDSN(t)
	bin := buildServer(t)
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-history", dsn, "-stateless")
	cmd.Env = append(os.Environ(), "TOOLGEN_STATE_KEY=")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "-state-key-file or $TOOLGEN_STATE_KEY") {
		t.Fatalf("-stateless on PostgreSQL without a key: %v\n%s", err, out)
	}
	t.Setenv("TOOLGEN_STATE_KEY", "the fleet's key, long enough")
	startServer(t, bin, "-history", dsn, "-stateless") // fails the test unless it serves
}
