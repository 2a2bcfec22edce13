package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/sqlite"
)

// History fails closed on a real file system fault: a SQLite file on a
// small tmpfs that fills up, then is remounted read-only. No call is
// acknowledged without a durable record, the handler does not run while
// the store cannot record, /health says 503 naming the store, and all of
// it recovers by itself once the file can be written again.
func TestSQLiteFaultsFailClosed(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root (CI runs as root)")
	}
	dir := t.TempDir()
	mount := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
			t.Fatalf("mount %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", dir)
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })

	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(dir, "history.db"), history.Retention{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var runs atomic.Int64
	tool := runtime.MustNewTool("note", "Keeps a note.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		runs.Add(1)
		return "ok", nil
	})
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{History: store, HistoryTimeout: 2 * time.Second, Logger: discardLogger()})
	hs := httptest.NewServer(house(s))

	var acked []string
	call := func() (int, string) {
		body := `{"input":{"text":"` + strings.Repeat("x", 8000) + `"}}`
		resp, err := http.Post(hs.URL+"/v1/tools/note", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out struct {
			InvocationID string `json:"invocation_id"`
		}
		if resp.StatusCode == 200 && json.Unmarshal(b, &out) == nil && out.InvocationID != "" {
			acked = append(acked, out.InvocationID)
		}
		return resp.StatusCode, string(b)
	}
	health := func() int { return healthOf(t, hs.URL, "sqlite") }
	// refused checks that calls are refused now, and the tool not run.
	refused := func(what string) {
		t.Helper()
		before := runs.Load()
		for range 5 {
			if code, body := call(); code != http.StatusServiceUnavailable {
				t.Errorf("%s: %d %s, want 503", what, code, body)
			}
		}
		if runs.Load() != before {
			t.Errorf("%s: the tool ran %d times", what, runs.Load()-before)
		}
		if code := health(); code != http.StatusServiceUnavailable {
			t.Errorf("%s: /health %d, want 503", what, code)
		}
	}
	// recovers waits (with a generous ceiling) until calls succeed again.
	recovers := func(what string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			if code, _ := call(); code == 200 && health() == 200 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: did not recover", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// The disk fills up: calls are served until the first refusal.
	full := false
	for i := 0; i < 1000 && !full; i++ {
		code, body := call()
		switch code {
		case 200:
		case http.StatusServiceUnavailable:
			full = true
		default:
			t.Fatalf("call %d: %d %s", i, code, body)
		}
	}
	if !full {
		t.Fatal("the 2 MiB file system never filled up")
	}
	refused("disk full")
	// Make room: the WAL is checkpointed once the file can grow again.
	if err := os.WriteFile(filepath.Join(dir, "ballast"), nil, 0o600); err != nil {
		t.Logf("ballast: %v", err)
	}
	mount("-o", "remount,size=16m", dir)
	recovers("after the disk grew")

	// Read-only. Linux refuses to remount a file system read-only while
	// a file on it is open for writing: the store is closed first, and a
	// server started on the read-only file either cannot open it, or
	// refuses every call.
	store.Close()
	hs.Close()
	mount("-o", "remount,ro", dir)
	path := filepath.Join(dir, "history.db")
	if ro, err := sqlite.Open(ctx, path, history.Retention{}); err != nil {
		t.Logf("a read-only file does not open, so no server starts on it: %v", err)
	} else {
		s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{History: ro, HistoryTimeout: 2 * time.Second, Logger: discardLogger()})
		hs = httptest.NewServer(house(s))
		refused("read-only")
		hs.Close()
		ro.Close()
	}
	mount("-o", "remount,rw", dir)
	store, err = sqlite.Open(ctx, path, history.Retention{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })

	// Every acknowledged call is in the store, by its id.
	if len(acked) < 3 {
		t.Fatalf("only %d calls acknowledged", len(acked))
	}
	for _, id := range acked {
		if _, err := store.Get(ctx, id); err != nil {
			t.Errorf("acknowledged call %s is not recorded: %v", id, err)
		}
	}
	if int(runs.Load()) != len(acked) {
		t.Errorf("the tool ran %d times for %d acknowledged calls", runs.Load(), len(acked))
	}
}

// History fails closed when PostgreSQL stops mid-burst (as a crash would)
// and comes back: no call is acknowledged without a durable record, no
// tool runs without one, /health says 503 naming the store while it is
// down, and all of it recovers by itself.
func TestPostgresDownFailsClosed(t *testing.T) {
	dsn, ctl := os.Getenv("TOOLGEN_TEST_POSTGRES"), os.Getenv("TOOLGEN_TEST_POSTGRES_CTL")
	if dsn == "" || ctl == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TOOLGEN_TEST_POSTGRES(_CTL) is not set: CI runs this test under .ci/postgres")
		}
		t.Skip("TOOLGEN_TEST_POSTGRES(_CTL) is not set")
	}
	pg := func(op string) {
		t.Helper()
		if out, err := exec.Command(ctl, op).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", ctl, op, err, out)
		}
	}
	t.Cleanup(func() { _ = exec.Command(ctl, "start").Run() }) // whatever happened, for the tests after
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	dsn += sep + "search_path=faults_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ctx := context.Background()
	store, err := history.Open(ctx, dsn, history.Retention{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var runs atomic.Int64
	tool := runtime.MustNewTool("note", "Keeps a note.", func(context.Context, struct{}) (string, error) {
		runs.Add(1)
		return "ok", nil
	})
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{History: store, HistoryTimeout: time.Second, Logger: discardLogger()})
	hs := httptest.NewServer(house(s))
	defer hs.Close()
	health := func() int { return healthOf(t, hs.URL, "postgres") }

	var mu sync.Mutex
	var acked []string
	refused := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var sent atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent.Add(1) <= 50_000 { // bounded in count as in time
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Post(hs.URL+"/v1/tools/note", "application/json", strings.NewReader(`{"input":{}}`))
				if err != nil {
					continue
				}
				var out struct {
					InvocationID string `json:"invocation_id"`
				}
				_ = json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				mu.Lock()
				switch {
				case resp.StatusCode == 200 && out.InvocationID != "":
					acked = append(acked, out.InvocationID)
				case resp.StatusCode == http.StatusServiceUnavailable:
					refused++
				default:
					t.Errorf("a call answered %d", resp.StatusCode)
				}
				mu.Unlock()
			}
		}()
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	count := func() (n, r int) { mu.Lock(); defer mu.Unlock(); return len(acked), refused }
	waitFor("calls to be served", func() bool { n, _ := count(); return n >= 20 })
	pg("stop")
	waitFor("calls to be refused", func() bool { _, r := count(); return r >= 5 })
	if code := health(); code != http.StatusServiceUnavailable {
		t.Errorf("/health with PostgreSQL down: %d", code)
	}
	ranWhileDown := runs.Load()
	pg("start")
	waitFor("/health to recover", func() bool { return health() == 200 })
	before, _ := count()
	waitFor("calls to be served again", func() bool { n, _ := count(); return n >= before+20 })
	close(stop)
	wg.Wait()

	// Every acknowledged call is in the store; the tool never ran without
	// a pending record written first.
	for _, id := range acked {
		if _, err := store.Get(ctx, id); err != nil {
			t.Errorf("acknowledged call %s is not recorded: %v", id, err)
		}
	}
	recs, total, err := store.List(ctx, history.Filter{Tool: "note", Limit: 1})
	if err != nil || len(recs) == 0 {
		t.Fatal(err)
	}
	// (A record may outnumber the runs: a write that PostgreSQL made as it
	// died, whose answer was lost, refused its call all the same.)
	if int64(total) < runs.Load() {
		t.Errorf("%d records, the tool ran %d times", total, runs.Load())
	}
	n, r := count()
	t.Logf("%d calls acknowledged, %d refused while PostgreSQL was down (%d runs then)", n, r, ranWhileDown)
}

// healthOf is the status of GET /health at url; an unhealthy answer must
// name the store.
func healthOf(t *testing.T, url, store string) int {
	t.Helper()
	resp, err := http.Get(url + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 && !strings.Contains(string(b), `"store":"`+store+`"`) {
		t.Errorf("/health does not name the store: %s", b)
	}
	return resp.StatusCode
}
