//go:build unix

package gen

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Write replaces only a regular file: a directory, a symbolic link or a
// named pipe with the output's name is refused and left as it was, as a
// device is (a rename over /dev/null, as toolgen -o /dev/null run as root
// did, replaced the device with a file; the test does not try it on the
// machine's own /dev/null).
func TestWriteOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.go")
	if err := os.WriteFile(target, []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.go")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.go")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, kind string }{{link, "a symbolic link"}, {sub, "a directory"}, {pipe, "a named pipe"}} {
		before, err := os.Lstat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		wrote, err := Write([]*File{{Path: c.path, Content: []byte("package q\n")}})
		if err == nil || len(wrote) != 0 || !strings.Contains(err.Error(), "not a regular file ("+c.kind+")") {
			t.Errorf("%s: wrote %v, err %v", c.path, wrote, err)
		}
		after, err := os.Lstat(c.path)
		if err != nil || after.Mode() != before.Mode() {
			t.Errorf("%s changed: %v -> %v (%v)", c.path, before.Mode(), after, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "package p\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
	// A regular file, or none, is written.
	wrote, err := Write([]*File{{Path: target, Content: []byte("package q\n")}, {Path: filepath.Join(dir, "new.go"), Content: []byte("package q\n")}})
	if err != nil || len(wrote) != 2 {
		t.Fatalf("wrote %v, err %v", wrote, err)
	}
}
