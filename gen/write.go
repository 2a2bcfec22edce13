package gen

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes the files that differ from what is on disk and returns
// those it wrote. Every file is first written in full beside its target and
// only then renamed over it, so that a failure leaves no file half written.
func Write(files []*File) ([]*File, error) {
	type pending struct {
		f   *File
		tmp string
	}
	var todo []pending
	cleanup := func() {
		for _, p := range todo {
			os.Remove(p.tmp)
		}
	}
	for _, f := range files {
		// A rename replaces whatever has the name: a device such as
		// /dev/null (-o /dev/null, run as root), a symbolic link, a
		// directory. Only a regular file, or nothing, is replaced; and
		// nothing else is read (a named pipe would block).
		if fi, err := os.Lstat(f.Path); err == nil && !fi.Mode().IsRegular() {
			cleanup()
			return nil, fmt.Errorf("writing %s: not a regular file (%s); toolgen writes only regular files", f.Path, fileKind(fi.Mode()))
		}
		if !f.Stale() {
			continue
		}
		tmp, err := os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+".*")
		if err != nil {
			cleanup()
			return nil, err
		}
		todo = append(todo, pending{f, tmp.Name()})
		_, err = tmp.Write(f.Content)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), 0o644)
		}
		if err != nil {
			cleanup()
			return nil, fmt.Errorf("writing %s: %w", f.Path, err)
		}
	}
	var wrote []*File
	for _, p := range todo {
		if err := os.Rename(p.tmp, p.f.Path); err != nil {
			cleanup()
			return wrote, fmt.Errorf("writing %s: %w", p.f.Path, err)
		}
		wrote = append(wrote, p.f)
	}
	return wrote, nil
}

// fileKind names a file mode's kind for an error.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}
