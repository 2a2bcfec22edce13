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
	"slices"
	"strings"
	"testing"
	"time"
)

// checkout is the root of the toolgen module these tests run in, for
// init's -replace.
func checkout(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return root
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

var initFiles = []string{"README.md", "go.mod", "main.go", "tools.go", "tools.lock", "tools_client_gen.go", "tools_gen.go", "tools_test.go"}

// init writes the module's files and nothing else; without -replace a
// development build of toolgen (as in this test) refuses, since it does
// not know what version to require.
func TestInitWrites(t *testing.T) {
	root := checkout(t)
	t.Chdir(t.TempDir())

	r := toolgen("init", "-tidy=false", "srv")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "development build") || !strings.Contains(r.stderr, "-replace") {
		t.Errorf("a development build without -replace: %s", r.stderr)
	}
	if _, err := os.Stat("srv"); err == nil {
		t.Error("the refusal wrote srv")
	}

	r = toolgen("init", "-tidy=false", "-module", "example.com/me/srv", "-replace", root, "srv")
	r.want(t, 0)
	if got := listDir(t, "srv"); !slices.Equal(got, initFiles) {
		t.Errorf("wrote %v, want %v", got, initFiles)
	}
	if !strings.Contains(r.stdout, "cd srv\n") || !strings.Contains(r.stdout, "go mod tidy\n") || !strings.Contains(r.stdout, "go run . -allow-execute\n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	gomod := read(t, "srv/go.mod")
	for _, want := range []string{"module example.com/me/srv\n", "replace github.com/toolgen-go/toolgen => " + root + "\n", "\ntool github.com/toolgen-go/toolgen/cmd/toolgen\n"} {
		if !strings.Contains(gomod, want) {
			t.Errorf("go.mod has no %q:\n%s", want, gomod)
		}
	}

	// A relative -replace is written relative to the new module, and the
	// module path defaults to the directory's name.
	rel, err := filepath.Rel(mustGetwd(t), root)
	if err != nil {
		t.Fatal(err)
	}
	toolgen("init", "-tidy=false", "-replace", rel, "sub/other").want(t, 0)
	want, err := filepath.Rel(filepath.Join(mustGetwd(t), "sub", "other"), root)
	if err != nil {
		t.Fatal(err)
	}
	if gomod := read(t, "sub/other/go.mod"); !strings.Contains(gomod, "module other\n") || !strings.Contains(gomod, "=> "+filepath.ToSlash(want)+"\n") {
		t.Errorf("go.mod of -replace %s, want => %s:\n%s", rel, want, gomod)
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// init overwrites nothing: when any file it would write exists, it names
// each and writes none.
func TestInitRefusesToOverwrite(t *testing.T) {
	root := checkout(t)
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("srv", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"srv/README.md", "srv/go.sum", "srv/LICENSE"} {
		if err := os.WriteFile(name, []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := toolgen("init", "-replace", root, "srv")
	r.want(t, 1)
	want := "srv/README.md: already exists: toolgen init writes only new files, and wrote none\n" +
		"srv/go.sum: already exists: toolgen init writes only new files, and wrote none\n"
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	if got := listDir(t, "srv"); !slices.Equal(got, []string{"LICENSE", "README.md", "go.sum"}) {
		t.Errorf("srv holds %v", got)
	}
	if read(t, "srv/README.md") != "mine\n" {
		t.Error("README.md was overwritten")
	}

	// Other files are no obstacle.
	if err := os.Remove("srv/README.md"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove("srv/go.sum"); err != nil {
		t.Fatal(err)
	}
	toolgen("init", "-tidy=false", "-replace", root, "srv").want(t, 0)
	if got := listDir(t, "srv"); !slices.Equal(got, append([]string{"LICENSE"}, initFiles...)) {
		t.Errorf("srv holds %v", got)
	}
}

// When go mod tidy fails, the files are written, and toolgen says so and
// what to run.
func TestInitTidyFails(t *testing.T) {
	fake := t.TempDir() // says it is toolgen, but has none of its packages
	if err := os.WriteFile(filepath.Join(fake, "go.mod"), []byte("module github.com/toolgen-go/toolgen\n\ngo 1.26.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPROXY", "off") // fail without asking the proxy for the missing packages
	t.Chdir(t.TempDir())
	r := toolgen("init", "-replace", fake, "srv")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "toolgen init: go mod tidy in srv: ") || !strings.HasSuffix(r.stderr, "The files are written: run go mod tidy in srv once that is fixed.\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if got := listDir(t, "srv"); !slices.Equal(got, initFiles) {
		t.Errorf("wrote %v, want %v", got, initFiles)
	}
}

func TestInitUsage(t *testing.T) {
	root := checkout(t)
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"init"}, 2, "toolgen init: no directory given"},
		{[]string{"init", "a", "b"}, 2, "one directory, and flags before it: got a b"},
		{[]string{"init", "srv", "-module", "x"}, 2, "one directory, and flags before it"},
		{[]string{"init", "-nope", "srv"}, 2, "usage: toolgen init"},
		{[]string{"init", "-replace", root, "my server"}, 1, `the directory's name "my server" is not a module path: give one with -module`},
		{[]string{"init", "-replace", root, "-module", "bad path!", "srv"}, 1, "-module bad path!: "},
		{[]string{"init", "-replace", ".", "srv"}, 1, "-replace .: not a checkout of github.com/toolgen-go/toolgen"},
	} {
		r := toolgen(c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("toolgen %s: exit %d, stderr:\n%s\nwant exit %d and %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.want)
		}
	}
	if got := listDir(t, "."); len(got) != 0 {
		t.Errorf("the failures wrote %v", got)
	}
	toolgen("init", "-h").want(t, 0)
}

// goIn runs the go command in dir, outside any workspace.
func goIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// The whole way a user goes: toolgen init (with -replace, as while toolgen
// is not published), which runs go mod tidy; go generate gives the same
// file; vet and the module's own test pass; the server built from it
// serves the explorer, /v1, OXP and MCP at once, and its /openapi.json is
// what toolgen -openapi writes.
func TestInitServes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	root := checkout(t)
	t.Chdir(t.TempDir())
	r := toolgen("init", "-replace", root, "notes-server")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "ran go mod tidy in notes-server\n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	dir := filepath.Join(mustGetwd(t), "notes-server")
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err != nil {
		t.Fatal("go mod tidy wrote no go.sum")
	}
	generated := read(t, filepath.Join(dir, "tools_gen.go"))
	client := read(t, filepath.Join(dir, "tools_client_gen.go"))
	lock := read(t, filepath.Join(dir, "tools.lock"))

	goIn(t, dir, "generate", "./...")
	if read(t, filepath.Join(dir, "tools.lock")) != lock {
		t.Error("go generate (toolgen -lock) changed the tools.lock that init wrote")
	}
	if read(t, filepath.Join(dir, "tools_gen.go")) != generated {
		t.Error("go generate changed the tools_gen.go that init wrote")
	}
	if read(t, filepath.Join(dir, "tools_client_gen.go")) != client {
		t.Error("go generate changed the tools_client_gen.go that init wrote")
	}
	goIn(t, dir, "tool", "toolgen", "-check", "-client", "./...")
	goIn(t, dir, "vet", "./...")
	goIn(t, dir, "test", "./...")
	goIn(t, dir, "tool", "toolgen", "-openapi", "openapi.json", "-openapi-title", "notes-server")
	bin := filepath.Join(t.TempDir(), "server")
	goIn(t, dir, "build", "-o", bin, ".")

	// No -history: main.go imports the SQLite store, so the history goes
	// to a file in the user's cache directory, and survives a restart.
	cache := t.TempDir()
	env := append(os.Environ(), "XDG_CACHE_HOME="+cache, "HOME="+cache)
	srv, done, stderr, base, historyLine := startServer(t, bin, env)
	if want := "History: sqlite:" + filepath.Join(cache, "toolgen", "server", "history.db"); historyLine != want {
		t.Errorf("the server printed %q, want %q", historyLine, want)
	}

	post := func(path, body string, header ...string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest("POST", base+strings.TrimPrefix(path, "/"), strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(base + strings.TrimPrefix(path, "/"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	expect := func(what string, code int, body string, wantCode int, want string) {
		t.Helper()
		if code != wantCode || !strings.Contains(body, want) {
			t.Errorf("%s: %d %s\nwant %d and %s", what, code, body, wantCode, want)
		}
	}

	// The explorer: the page, and a call (the default applied).
	if page := get("/"); !strings.Contains(page, "<title>notes-server</title>") {
		t.Errorf("GET /: no title in\n%.300s", page)
	}
	code, _, body := post("/tools/greet/call", `{"name":"Ada"}`)
	expect("explorer greet", code, body, 200, `"text":"Hello, Ada."`)
	code, _, body = post("/tools/save_note/call", `{"title":"ideas","text":"more tools"}`)
	expect("explorer save_note", code, body, 200, `Saved \"ideas\".`)
	code, _, body = post("/tools/greet/call", `{"name":""}`)
	expect("explorer greet with an empty name", code, body, 400, `"isError":true`)

	// /v1, and the history of the calls.
	code, _, body = post("/v1/tools/greet", `{"input":{"name":"Ada","excited":true}}`)
	expect("/v1 greet", code, body, 200, `"result":"Hello, Ada!","error":null`)
	code, _, body = post("/v1/tools/list_notes", `{"input":{}}`)
	expect("/v1 list_notes", code, body, 200, `"result":{"titles":["ideas"],"count":1}`)
	if inv := get("/v1/invocations?tool_name=greet"); !strings.Contains(inv, `"surface":"v1"`) || !strings.Contains(inv, `"surface":"explorer"`) {
		t.Errorf("/v1/invocations?tool_name=greet: %s", inv)
	}

	// OXP.
	code, _, body = post("/oxp/tools/call", `{"request":{"tool_id":"NotesServer.Greet","input":{"name":"Ada"}}}`)
	expect("OXP greet", code, body, 200, `"success":true,"value":"Hello, Ada."`)

	// MCP over Streamable HTTP: a session, and a call in it.
	mcp := func(session, body string) (string, string) {
		t.Helper()
		code, h, resp := post("/mcp", body, "Accept", "application/json, text/event-stream", "Mcp-Session-Id", session)
		if code != 200 && code != 202 {
			t.Fatalf("MCP %s: %d %s", body, code, resp)
		}
		for _, line := range strings.Split(resp, "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				return data, h.Get("Mcp-Session-Id")
			}
		}
		return resp, h.Get("Mcp-Session-Id")
	}
	res, session := mcp("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if session == "" || !strings.Contains(res, `"serverInfo"`) {
		t.Fatalf("MCP initialize: %s (session %q)", res, session)
	}
	mcp(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	res, _ = mcp(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_notes","arguments":{}}}`)
	if !strings.Contains(res, `"structuredContent":{"count":1,"titles":["ideas"]}`) && !strings.Contains(res, `"structuredContent":{"titles":["ideas"],"count":1}`) {
		t.Errorf("MCP tools/call list_notes: %s", res)
	}

	// The document the server serves is the one toolgen -openapi wrote.
	var served, written bytes.Buffer
	if err := json.Compact(&served, []byte(get("/openapi.json"))); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&written, []byte(read(t, filepath.Join(dir, "openapi.json")))); err != nil {
		t.Fatal(err)
	}
	if served.String() != written.String() {
		t.Errorf("GET /openapi.json and toolgen -openapi differ:\n%s\n%s", served.String(), written.String())
	}

	// SIGINT stops it cleanly.
	if err := srv.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		done <- err // for the cleanup
		if err != nil {
			t.Errorf("the server exited with %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop on SIGINT")
	}

	// Started again, it still has the calls made before.
	_, _, _, base, _ = startServer(t, bin, env)
	if inv := get("/v1/invocations?tool_name=greet&surface=v1"); !strings.Contains(inv, `"result":"Hello, Ada!"`) {
		t.Errorf("after a restart, /v1/invocations?tool_name=greet&surface=v1: %s", inv)
	}
}

// startServer starts the server built at bin on a free port, with the
// environment env, and waits for its first two lines, "Serving on URL"
// and "History: DSN". It is killed when the test ends.
func startServer(t *testing.T, bin string, env []string) (srv *exec.Cmd, done chan error, stderr *bytes.Buffer, base, historyLine string) {
	t.Helper()
	srv = exec.Command(bin, "-addr", "127.0.0.1:0", "-allow-execute")
	srv.Env = env
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr = new(bytes.Buffer)
	srv.Stderr = stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	done = make(chan error, 1)
	go func() { done <- srv.Wait() }()
	t.Cleanup(func() {
		srv.Process.Kill()
		err := <-done
		done <- err
	})
	lines := make(chan [2]string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		first, _ := r.ReadString('\n')
		second, _ := r.ReadString('\n')
		lines <- [2]string{first, second}
		io.Copy(io.Discard, r)
	}()
	select {
	case l := <-lines:
		var ok bool
		if base, ok = strings.CutPrefix(strings.TrimSpace(l[0]), "Serving on "); !ok {
			t.Fatalf("the server printed %q\n%s", l[0], stderr.String())
		}
		historyLine = strings.TrimSpace(l[1])
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not start\n%s", stderr.String())
	}
	return srv, done, stderr, base, historyLine
}
