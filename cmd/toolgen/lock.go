package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/internal/contract"
)

// lockFlagsError says what is wrong with a combination of -lock, -force,
// -check, -diff and -json, or "".
func lockFlagsError(lock, force, check bool, diff string, jsonOut bool) string {
	switch {
	case force && !lock:
		return "-force without -lock"
	case jsonOut && diff == "":
		return "-json without -diff OLD"
	case diff != "" && (lock || check || force):
		return "-diff OLD writes nothing and checks nothing: give it without -lock, -check or -force"
	}
	return ""
}

// checkLocks compares the tools with each tools.lock beside a generated
// file. A breaking change the versions do not allow is printed at its
// position and refused (false), unless force (toolgen -lock -force, not
// with -check) accepts it, listed as accepted.
func checkLocks(files []*gen.File, check, force bool, rel func(string) string, stderr io.Writer) bool {
	checks, err := gen.CheckLocks(files)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return false
	}
	ok := true
	for _, c := range checks {
		if len(c.Refused) == 0 {
			continue
		}
		lock := rel(c.Contract.Path)
		if force && !check {
			for _, ch := range c.Refused {
				fmt.Fprintf(stderr, "accepted: %s\n", ch.Error())
			}
			fmt.Fprintf(stderr, "toolgen: -force: %s rewritten over %s the versions do not allow\n", lock, plural(len(c.Refused), "breaking change"))
			continue
		}
		ok = false
		for _, ch := range c.Refused {
			fmt.Fprintln(stderr, ch.Error())
		}
		fmt.Fprintf(stderr, "toolgen: %s against %s that the versions do not allow; nothing written: raise the versions (the major, at 0.x the minor; for a removed tool the toolkit's), or accept them with -lock -force\n", plural(len(c.Refused), "breaking change"), lock)
	}
	return ok
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// diffChange is a change as -diff -json prints it.
type diffChange struct {
	Lock string `json:"lock"`
	Pos  string `json:"pos"`
	contract.Change
}

// runDiff is toolgen -diff OLD: the changes from OLD (a lock file, or
// git:REV for the lock beside each generated file at REV) to the tools
// now. It returns 0 when none breaks a caller, 1 when one does, 2 on an
// error.
func runDiff(files []*gen.File, old string, jsonOut bool, rel func(string) string, stdout, stderr io.Writer) int {
	var contracts []*gen.Contract
	for _, f := range files {
		if f.Contract != nil {
			contracts = append(contracts, f.Contract)
		}
	}
	rev, fromGit := strings.CutPrefix(old, "git:")
	if !fromGit && len(contracts) != 1 {
		fmt.Fprintf(stderr, "toolgen: -diff %s compares one lock with one generated file's tools, and %d are generated: give one package (or tools.yaml), or -diff git:REV\n", old, len(contracts))
		return 2
	}
	var all []diffChange
	breaking := 0
	var text bytes.Buffer
	for _, c := range contracts {
		name, data, err := readOld(c, old, rev, fromGit, rel)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: -diff: %v\n", err)
			return 2
		}
		lock, err := contract.Parse(name, data)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: -diff: %v\n", err)
			return 2
		}
		changes, err := c.Compare(lock)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: -diff: %v\n", err)
			return 2
		}
		n := 0
		for _, ch := range changes {
			if ch.Class == contract.Breaking {
				n++
			}
			all = append(all, diffChange{Lock: rel(c.Path), Pos: posString(ch), Change: ch.Change})
		}
		breaking += n
		if len(changes) == 0 {
			fmt.Fprintf(&text, "%s → now: no changes\n", name)
			continue
		}
		fmt.Fprintf(&text, "%s → now: %s, %d breaking\n", name, plural(len(changes), "change"), n)
		for _, ch := range changes {
			fmt.Fprintf(&text, "  %s\n", ch.Error())
		}
	}
	if jsonOut {
		if all == nil {
			all = []diffChange{}
		}
		b, err := json.MarshalIndent(struct {
			Breaking int          `json:"breaking"`
			Changes  []diffChange `json:"changes"`
		}{breaking, all}, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: -diff: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		stdout.Write(text.Bytes())
	}
	if breaking > 0 {
		return 1
	}
	return 0
}

func posString(ch *gen.LockChange) string {
	p := ch.Pos
	if p.Line == 0 {
		return p.Filename
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// readOld reads the old lock of c: the file old, or the lock beside c's
// generated file at the git revision rev.
func readOld(c *gen.Contract, old, rev string, fromGit bool, rel func(string) string) (string, []byte, error) {
	if !fromGit {
		data, err := os.ReadFile(old)
		return old, data, err
	}
	if rev == "" {
		return "", nil, fmt.Errorf("git: with no revision (git:REV, such as git:HEAD or git:v1.2.0)")
	}
	dir := filepath.Dir(c.Path)
	cmd := exec.Command("git", "-C", dir, "show", rev+":./"+contract.FileName)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	data, err := cmd.Output()
	name := "git:" + rev + ":" + rel(c.Path)
	if err != nil {
		return name, nil, fmt.Errorf("git show %s:%s: %v: %s", rev, rel(c.Path), err, strings.TrimSpace(errb.String()))
	}
	return name, data, nil
}
