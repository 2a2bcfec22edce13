package doctest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// root is the repository's root: this package is internal/doctest.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// markdownFiles are the files whose shell blocks are run, relative to the
// root, in the order they are run.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	var have []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			have = append(have, f)
		}
	}
	return have
}

// A block is one fenced code block of a Markdown file.
type block struct {
	line   int    // the line of its opening fence, from 1
	lang   string // the fence's info string's first word
	text   string // its content, each line ending in "\n"
	marker string // "skip", "background", "file" or ""
	arg    string // the marker's argument
}

func (b block) shell() bool {
	switch b.lang {
	case "sh", "bash", "shell", "console":
		return true
	}
	return false
}

var markerRE = regexp.MustCompile(`^<!--\s*docs:(\S+)\s*(.*?)\s*-->\s*$`)

// parse reads the fenced blocks of a Markdown file, with the marker on the
// line before each. Fences are ``` or ~~~, at the start of a line or
// indented (inside a list item).
func parse(name, md string) ([]block, error) {
	var blocks []block
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimLeft(lines[i], " ")
		if m := markerRE.FindStringSubmatch(trimmed); m != nil {
			next := ""
			if i+1 < len(lines) {
				next = strings.TrimLeft(lines[i+1], " ")
			}
			if !strings.HasPrefix(next, "```") && !strings.HasPrefix(next, "~~~") {
				return nil, fmt.Errorf("%s:%d: a docs: marker must be on the line just before a fence", name, i+1)
			}
			switch m[1] {
			case "skip":
				if m[2] == "" {
					return nil, fmt.Errorf("%s:%d: docs:skip needs a reason", name, i+1)
				}
			case "background":
			case "file":
				if m[2] == "" {
					return nil, fmt.Errorf("%s:%d: docs:file needs a path", name, i+1)
				}
				if strings.ContainsAny(m[2], "\"`\\") {
					return nil, fmt.Errorf("%s:%d: docs:file's path is put in double quotes: no \", ` or \\ in it", name, i+1)
				}
			default:
				return nil, fmt.Errorf("%s:%d: unknown marker docs:%s (skip, background or file)", name, i+1, m[1])
			}
			continue
		}
		if !strings.HasPrefix(trimmed, "```") && !strings.HasPrefix(trimmed, "~~~") {
			continue
		}
		indent := len(lines[i]) - len(trimmed)
		fence := trimmed[:3]
		b := block{line: i + 1, lang: strings.Fields(trimmed[3:] + " x")[0]}
		if b.lang == "x" {
			b.lang = ""
		}
		if i > 0 {
			if m := markerRE.FindStringSubmatch(strings.TrimLeft(lines[i-1], " ")); m != nil {
				b.marker, b.arg = m[1], m[2]
			}
		}
		var text strings.Builder
		closed := false
		for i++; i < len(lines); i++ {
			l := lines[i]
			if strings.HasPrefix(strings.TrimLeft(l, " "), fence) && strings.TrimSpace(l) == fence {
				closed = true
				break
			}
			// Drop the fence's own indentation.
			n := 0
			for n < indent && n < len(l) && l[n] == ' ' {
				n++
			}
			text.WriteString(l[n:] + "\n")
		}
		if !closed {
			return nil, fmt.Errorf("%s:%d: the block is not closed", name, b.line)
		}
		b.text = text.String()
		if b.marker == "background" && !b.shell() {
			return nil, fmt.Errorf("%s:%d: docs:background on a %q block", name, b.line, b.lang)
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// A command is one shell command of a block (several lines when they
// continue it), with the output lines ("# → ...") that follow it.
type command struct {
	text   string
	expect []string
}

var heredocRE = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// commands splits a shell block into commands and the comment lines
// between them (a command with empty text and no expectations is
// verbatim text). It knows quotes, backslash continuations, lines ending
// in a pipe or && or ||, and heredocs: enough for the docs.
func commands(text string) ([]command, error) {
	var out []command
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if exp, ok := strings.CutPrefix(t, "# → "); ok {
			if len(out) == 0 || out[len(out)-1].text == "" {
				return nil, fmt.Errorf("line %d: an output line (# → ) without a command before it", i+1)
			}
			out[len(out)-1].expect = append(out[len(out)-1].expect, exp)
			continue
		}
		if t == "" || strings.HasPrefix(t, "#") {
			out = append(out, command{text: "", expect: []string{l}})
			continue
		}
		var cmd strings.Builder
		single, double := false, false
		for ; i < len(lines); i++ {
			l = lines[i]
			cmd.WriteString(l + "\n")
			heredoc := ""
			code := l
			for j := 0; j < len(l); j++ {
				c := l[j]
				switch {
				case single:
					if c == '\'' {
						single = false
					}
				case c == '\\':
					j++
				case double:
					if c == '"' {
						double = false
					}
				case c == '\'':
					single = true
				case c == '"':
					double = true
				case c == '#' && (j == 0 || l[j-1] == ' ' || l[j-1] == '\t'):
					code = l[:j]
					j = len(l)
				}
			}
			if !single && !double {
				if m := heredocRE.FindStringSubmatch(code); m != nil {
					heredoc = m[1]
				}
			}
			if heredoc != "" {
				for i++; i < len(lines) && strings.TrimSpace(lines[i]) != heredoc; i++ {
					cmd.WriteString(lines[i] + "\n")
				}
				if i == len(lines) {
					return nil, fmt.Errorf("heredoc %s not closed", heredoc)
				}
				cmd.WriteString(lines[i] + "\n")
				break
			}
			c := strings.TrimSpace(code)
			if single || double || strings.HasSuffix(c, "\\") || strings.HasSuffix(c, "|") || strings.HasSuffix(c, "&&") || strings.HasSuffix(c, "||") {
				continue
			}
			break
		}
		if single || double {
			return nil, fmt.Errorf("a quote is not closed in:\n%s", cmd.String())
		}
		out = append(out, command{text: cmd.String()})
	}
	return out, nil
}

// glob turns an expected output line into a bash pattern that matches any
// text containing it: "..." and <placeholder> match anything.
func glob(expect string) string {
	var b strings.Builder
	b.WriteString("*")
	for _, part := range wildRE.Split(expect, -1) {
		b.WriteString(quote(part) + "*")
	}
	return b.String()
}

var wildRE = regexp.MustCompile(`\.\.\.|<[A-Za-z][A-Za-z0-9 _-]*>`)

// quote single-quotes s for bash.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

const prelude = `set -euo pipefail
export OLDPWD="$PWD"
__docs_bg=
__docs_n=0
__docs_fail() { echo "docs: FAILED (exit $1): $2" >&2; exit 1; }
__docs_mismatch() { echo "docs: FAILED: the output above does not contain: $1" >&2; exit 1; }
# __docs_wait waits until URL answers, while the background block runs.
__docs_wait() {
	for ((i = 0; i < 300; i++)); do
		if ! kill -0 "$__docs_bg" 2>/dev/null; then
			echo "docs: the background block stopped before $1 answered; its output:" >&2
			cat "$DOCS_TMP/bg-$__docs_n.log" >&2
			exit 1
		fi
		if curl -s -o /dev/null --max-time 5 "$1"; then return 0; fi
		sleep 1
	done
	echo "docs: $1 did not answer within 5 minutes; the background block's output:" >&2
	cat "$DOCS_TMP/bg-$__docs_n.log" >&2
	exit 1
}
# __docs_stop stops the background block's process group, and waits for
# port 8080 to be free.
__docs_stop() {
	if [[ -n $__docs_bg ]]; then
		kill -TERM -- "-$__docs_bg" 2>/dev/null || true
		for ((i = 0; i < 150; i++)); do
			kill -0 -- "-$__docs_bg" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$__docs_bg" 2>/dev/null || true
		__docs_bg=
	fi
	for ((i = 0; i < 150; i++)); do
		(exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null || return 0
		sleep 0.1
	done
}
trap __docs_stop EXIT
`

// script turns a file's blocks into one bash script.
func script(blocks []block) (string, error) {
	var s strings.Builder
	s.WriteString(prelude)
	wait := ""
	bg := 0
	for _, b := range blocks {
		fmt.Fprintf(&s, "\n# line %d\n", b.line)
		switch {
		case b.marker == "skip":
			continue
		case b.marker == "file":
			// In double quotes: the path may name the session's
			// variables ($tmp).
			fmt.Fprintf(&s, "mkdir -p \"$(dirname \"%s\")\"\ncat > \"%s\" <<'__DOCS_EOF__'\n%s__DOCS_EOF__\n", b.arg, b.arg, b.text)
			continue
		case !b.shell():
			continue
		}
		if wait != "" {
			fmt.Fprintf(&s, "__docs_wait %s\n", quote(wait))
			wait = ""
		}
		if b.marker == "background" {
			bg++
			wait = b.arg
			if wait == "" {
				wait = "http://127.0.0.1:8080/health"
			}
			fmt.Fprintf(&s, "__docs_stop\n__docs_n=%d\ncat > \"$DOCS_TMP/bg-%d.sh\" <<'__DOCS_EOF__'\nset -euo pipefail\n%s__DOCS_EOF__\n", bg, bg, b.text)
			fmt.Fprintf(&s, "setsid bash \"$DOCS_TMP/bg-%d.sh\" > \"$DOCS_TMP/bg-%d.log\" 2>&1 &\n__docs_bg=$!\necho \"$__docs_bg\" >> \"$DOCS_TMP/bg.pids\"\necho \"docs: started in the background (pid $__docs_bg): %s\"\n",
				bg, bg, strings.ReplaceAll(strings.TrimSpace(strings.SplitN(b.text, "\n", 2)[0]), `"`, `\"`))
			continue
		}
		cmds, err := commands(b.text)
		if err != nil {
			return "", fmt.Errorf("line %d: %v", b.line, err)
		}
		for _, c := range cmds {
			switch {
			case c.text == "":
				s.WriteString(c.expect[0] + "\n")
			case len(c.expect) == 0:
				fmt.Fprintf(&s, "echo %s\n%s", quote("$ "+strings.TrimSpace(c.text)), c.text)
			default:
				// In this shell, not a subshell: a cd or a variable
				// stays for the commands after it, as for a reader.
				fmt.Fprintf(&s, "echo %s\n__docs_rc=0\n{ %s\n} > \"$DOCS_TMP/out\" 2>&1 || __docs_rc=$?\n__docs_out=$(cat \"$DOCS_TMP/out\")\nprintf '%%s\\n' \"$__docs_out\"\n", quote("$ "+strings.TrimSpace(c.text)), c.text)
				fmt.Fprintf(&s, "[[ $__docs_rc == 0 ]] || __docs_fail \"$__docs_rc\" %s\n", quote(strings.TrimSpace(c.text)))
				for _, e := range c.expect {
					fmt.Fprintf(&s, "[[ $__docs_out == %s ]] || __docs_mismatch %s\n", glob(e), quote(e))
				}
			}
		}
	}
	return s.String(), nil
}

// TestBlocks reads every file's blocks: the markers are well formed, and
// every shell block that runs splits into commands. It runs nothing.
func TestBlocks(t *testing.T) {
	r := root(t)
	for _, f := range markdownFiles(t, r) {
		md, err := os.ReadFile(filepath.Join(r, f))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parse(f, string(md))
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := script(blocks); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestCommands(t *testing.T) {
	cmds, err := commands(`curl -s a \
  -d '{"x":
  1}'   # a comment
# → {"ok":...}
# prose
cat > f <<'EOF'
x'y
EOF
echo done`)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 4 || !strings.HasSuffix(cmds[0].text, "# a comment\n") || len(cmds[0].expect) != 1 || cmds[1].text != "" || !strings.Contains(cmds[2].text, "EOF\n") || cmds[3].text != "echo done\n" {
		t.Errorf("%q", cmds)
	}
	if g := glob(`{"id":"<uuid>","n":...}`); g != `*'{"id":"'*'","n":'*'}'*` {
		t.Errorf("glob: %s", g)
	}
}

// TestDocs runs every shell block, one bash session a file, each in a
// fresh copy of the repository. It runs only with TOOLGEN_DOCS=1 (.ci/docs
// sets it): it builds and starts servers, minutes in all.
func TestDocs(t *testing.T) {
	if os.Getenv("TOOLGEN_DOCS") == "" {
		t.Skip("TOOLGEN_DOCS is not set: run .ci/docs")
	}
	r := root(t)
	files, err := exec.Command("git", "-C", r, "ls-files", "-z", "-co", "--exclude-standard").Output()
	if err != nil {
		t.Fatal(err)
	}
	gocache, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	goenv := strings.Fields(string(gocache))
	for _, f := range markdownFiles(t, r) {
		t.Run(f, func(t *testing.T) {
			md, err := os.ReadFile(filepath.Join(r, f))
			if err != nil {
				t.Fatal(err)
			}
			blocks, err := parse(f, string(md))
			if err != nil {
				t.Fatal(err)
			}
			runs := false
			for _, b := range blocks {
				runs = runs || (b.shell() && b.marker != "skip") || b.marker == "file"
			}
			if !runs {
				t.Skip("no block to run")
			}
			sh, err := script(blocks)
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			// The readers' own temporary directories ($tmp=$(mktemp -d)):
			// under a TMPDIR of the test's, removed with it, and open
			// to other users to pass through, as /tmp is (.ci/postgres
			// runs PostgreSQL as one, in a directory it makes there).
			readerTmp, err := os.MkdirTemp("", "toolgen-docs-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(readerTmp) })
			if err := os.Chmod(readerTmp, 0o755); err != nil {
				t.Fatal(err)
			}
			repo := filepath.Join(tmp, "toolgen")
			copyFiles(t, r, repo, files)
			// A reader has a clone: blocks may ask git what changed.
			for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=docs", "-c", "user.email=docs@localhost", "commit", "-q", "-m", "the docs' copy"}} {
				if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
					t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			for _, d := range []string{"cache", "docs"} {
				if err := os.Mkdir(filepath.Join(tmp, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(tmp, "docs", "script.sh"), []byte(sh), 0o644); err != nil {
				t.Fatal(err)
			}
			env := []string{"DOCS_TMP=" + filepath.Join(tmp, "docs"),
				"XDG_CACHE_HOME=" + filepath.Join(tmp, "cache"),
				"TMPDIR=" + readerTmp,
				"GOCACHE=" + goenv[0], "GOMODCACHE=" + goenv[1]}
			// Twice in the same copy, with the same cache directory, as a
			// reader who runs a guide again: the second run must pass
			// too, and neither may leave a file in the checkout (what a
			// guide writes goes under its $tmp, or outside the checkout).
			for run := 1; run <= 2; run++ {
				out, err := runScript(t, fmt.Sprintf("%s, run %d of 2", f, run), repo, filepath.Join(tmp, "docs"), env)
				if err != nil {
					t.Errorf("%s, run %d of 2: %v; the session's output (script: %s):\n%s", f, run, err, filepath.Join(tmp, "docs", "script.sh"), tail(out, 150))
					return
				}
				if testing.Verbose() {
					t.Logf("output of run %d:\n%s", run, tail(out, 40))
				}
				st, err := exec.Command("git", "-C", repo, "status", "--porcelain").CombinedOutput()
				if err != nil {
					t.Fatalf("git status: %v\n%s", err, st)
				}
				if len(st) > 0 {
					t.Errorf("%s, run %d of 2: the blocks left the checkout changed (git status --porcelain; write such files under a guide's $tmp):\n%s", f, run, st)
				} else {
					t.Logf("%s, run %d of 2: git status --porcelain is empty", f, run)
				}
			}
		})
	}
}

// runScript runs the script docs/script.sh of dir in repo, once, as one
// bash session, with env added to the test's environment; it kills what
// the session left running, and returns its output.
func runScript(t *testing.T, name, repo, dir string, env []string) (string, error) {
	t.Helper()
	portFree(t)
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(dir, "script.sh"))
	cmd.Dir = repo
	for _, kv := range os.Environ() {
		// A block that runs go test ./internal/doctest must not run
		// TestDocs again.
		if !strings.HasPrefix(kv, "TOOLGEN_DOCS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	// Whatever is left: the session's group, and every background
	// block's (setsid: a group of its own).
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	pidFile := filepath.Join(dir, "bg.pids")
	if pids, _ := os.ReadFile(pidFile); len(pids) > 0 {
		for _, p := range strings.Fields(string(pids)) {
			if pid, err := strconv.Atoi(p); err == nil {
				syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
	}
	os.Remove(pidFile)
	t.Logf("%s: %s", name, time.Since(start).Round(time.Second))
	return out.String(), err
}

// copyFiles copies the NUL-separated list of files from src to dst.
func copyFiles(t *testing.T, src, dst string, list []byte) {
	t.Helper()
	for _, f := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		from := filepath.Join(src, f)
		fi, err := os.Lstat(from)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		to := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(from)
		if err != nil {
			t.Fatal(err)
		}
		o, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(o, in); err != nil {
			t.Fatal(err)
		}
		in.Close()
		if err := o.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// portFree waits up to a minute for nothing to listen on 127.0.0.1:8080,
// the docs' port.
func portFree(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		c, err := net.DialTimeout("tcp", "127.0.0.1:8080", time.Second)
		if err != nil {
			return
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("something listens on 127.0.0.1:8080, the port the docs use")
		}
		time.Sleep(time.Second)
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[... %d lines]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
