//go:build unix

package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// TestCrash: every record whose Finish returned before the process was
// killed (SIGKILL: no deferred code, no Close, no checkpoint) is in the
// file afterwards. The test runs itself as the process to kill.
func TestCrash(t *testing.T) {
	if path := os.Getenv("TOOLGEN_SQLITE_CRASH"); path != "" {
		crashChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "history.db")
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestCrash$")
	cmd.Env = append(os.Environ(), "TOOLGEN_SQLITE_CRASH="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "finished "); ok {
			acked = append(acked, id)
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v", err)
	}
	if len(acked) < 50 {
		t.Fatalf("the child acknowledged only %d records", len(acked))
	}
	s := open(t, path)
	defer s.Close()
	for _, id := range acked {
		r, err := s.Get(t.Context(), id)
		if err != nil {
			t.Fatalf("%s was acknowledged, then lost: %v", id, err)
		}
		if r.Status != history.Success {
			t.Errorf("%s was acknowledged finished, and is %s", id, r.Status)
		}
	}
	t.Logf("%d acknowledged records survived SIGKILL", len(acked))
}

// crashChild records calls, printing each id once Finish returned, and
// kills itself in the middle of writing, once it has written 100.
func crashChild(path string) {
	// Retention passes run all along, but delete nothing.
	s, err := Open(context.Background(), path, history.Retention{MaxRows: 1 << 30, Interval: time.Millisecond})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		if i == 100 {
			// Killed after so many records, not after so long: a loaded
			// machine (CI under -race) writes fewer in a given time. The
			// loop goes on writing meanwhile.
			go func() {
				time.Sleep(5 * time.Millisecond)
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}()
		}
		r := pending(fmt.Sprintf("crash-%d", i), time.Now())
		if err := s.Start(context.Background(), r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		r.Status, r.Result = history.Success, []byte(`{"n":`+fmt.Sprint(i)+`}`)
		if err := s.Finish(context.Background(), r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(w, "finished %s\n", r.ID)
		w.Flush()
	}
}
