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
	"strings"
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
	hs := httptest.NewServer(s)

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
	health := func() int {
		resp, err := http.Get(hs.URL + "/health")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 && !strings.Contains(string(b), `"store":"sqlite"`) {
			t.Errorf("/health does not name the store: %s", b)
		}
		return resp.StatusCode
	}
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
		hs = httptest.NewServer(s)
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
