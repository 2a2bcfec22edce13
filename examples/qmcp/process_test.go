package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
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
	dsn := os.Getenv("TOOLGEN_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TOOLGEN_TEST_POSTGRES is not set: CI runs this test against a real PostgreSQL (.ci/postgres)")
		}
		t.Skip("TOOLGEN_TEST_POSTGRES is not set")
	}
	if testing.Short() {
		t.Skip("builds two servers")
	}
	dsn = freshSchema(t, dsn)
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

// freshSchema returns dsn with a search_path of its own, which the store
// creates on open, so that runs do not see each other's records.
func freshSchema(t *testing.T, dsn string) string {
	t.Helper()
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=qmcp_replicas_" + strconv.FormatInt(time.Now().UnixNano(), 36)
}
