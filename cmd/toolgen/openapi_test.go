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
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/toolgen-go/toolgen/gen"
)

// validOpenAPI checks doc with libopenapi-validator, against the OpenAPI
// 3.1 specification's own schema.
func validOpenAPI(t *testing.T, doc []byte) {
	t.Helper()
	d, err := libopenapi.NewDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(d)
	if len(errs) > 0 {
		t.Fatalf("validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("invalid OpenAPI: %s: %s", e.Message, e.Reason)
		}
	}
}

const openapiSrc = `package cli

import "context"

// Sum is what add answers.
type Sum struct {
	// The sum.
	Value float64 ` + "`json:\"value\"`" + `
}

// Add adds two numbers.
//
// Both are required.
//
//toolgen:tool readonly
//toolgen:param a description="The first number."
//toolgen:param b description="The second number."
func Add(ctx context.Context, a, b float64) (Sum, error) { return Sum{a + b}, nil }

// Node is a tree.
type Node struct {
	// The node's children.
	Kids []Node ` + "`json:\"kids,omitempty\"`" + `
}

// CountInput holds a tree.
type CountInput struct {
	// The tree.
	Root Node ` + "`json:\"root\"`" + `
}

// Count counts the nodes of a tree.
//
//toolgen:tool
func Count(in CountInput) int { return 1 }
`

// toolgen -openapi FILE writes a valid OpenAPI 3.1 document of every tool
// generated (code-first and schema-first alike): each tool's explorer call
// path and /v1 path with its own schemas, the error bodies, and the auth
// scheme when asked. -check checks it like a generated file.
func TestOpenAPIFlag(t *testing.T) {
	dir := module(t, map[string]string{
		"code/tools.go":   openapiSrc + "\n" + strings.TrimPrefix(toolsSrc, "package cli\n\nimport \"context\"\n"),
		"calc/tools.yaml": strings.Replace(yamlSrc, "name: add", "name: plus", 1),
		"calc/calc.go":    "package calc\n",
	})
	doc := filepath.Join(dir, "openapi.json")
	r := toolgen("-v", "-openapi", "openapi.json", "calc/tools.yaml", "./code")
	r.want(t, 0)
	if r.stdout != "wrote calc/tools_gen.go\nwrote code/tools_gen.go\nwrote openapi.json\n" {
		t.Errorf("-v: %q", r.stdout)
	}
	text := read(t, doc)
	validOpenAPI(t, []byte(text))
	var d struct {
		OpenAPI string
		Info    struct{ Title, Version string }
		Paths   map[string]struct {
			Post struct {
				Summary, Description string
				RequestBody          struct {
					Content map[string]struct{ Schema json.RawMessage }
				}
				Responses map[string]json.RawMessage
			}
		}
		Components struct {
			SecuritySchemes map[string]any
		}
	}
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" || d.Info.Title != "MCP Tool Explorer" || d.Info.Version != "0.0.0" || d.Components.SecuritySchemes != nil {
		t.Errorf("openapi %q, info %+v, security schemes %v", d.OpenAPI, d.Info, d.Components.SecuritySchemes)
	}
	var paths []string
	for p := range d.Paths {
		paths = append(paths, p)
	}
	for _, tool := range []string{"add", "count", "greet", "plus"} {
		for _, p := range []string{"/tools/" + tool + "/call", "/v1/tools/" + tool} {
			if _, ok := d.Paths[p]; !ok {
				t.Errorf("no %s in %v", p, paths)
			}
		}
	}
	add := d.Paths["/tools/add/call"].Post
	if add.Summary != "Adds two numbers." || add.Description != "Adds two numbers.\n\nBoth are required." {
		t.Errorf("add: summary %q, description %q", add.Summary, add.Description)
	}
	var in bytes.Buffer
	json.Compact(&in, add.RequestBody.Content["application/json"].Schema)
	if !strings.Contains(in.String(), `"a":{"type":"number","description":"The first number."}`) {
		t.Errorf("add's input schema: %s", in.String())
	}
	for path, want := range map[string]string{
		"/tools/add/call":   `"structuredContent":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"value":{"type":"number","description":"The sum."}}`,
		"/v1/tools/count":   `"result":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"result":{"type":"integer"`, // wrapped, as MCP needs
		"/tools/count/call": `The structure repeats from here`,                                                                                             // Node unrolled
	} {
		p := d.Paths[path].Post
		var all bytes.Buffer
		json.Compact(&all, p.Responses["200"])
		json.Compact(&all, p.RequestBody.Content["application/json"].Schema)
		if !strings.Contains(all.String(), want) {
			t.Errorf("%s has no %s:\n%s", path, want, all.String())
		}
	}
	for _, code := range []string{"401", "403", "404", "413"} {
		if !strings.Contains(string(d.Paths["/tools/greet/call"].Post.Responses[code]), "#/components/schemas/ExplorerError") {
			t.Errorf("/tools/greet/call has no %s error body", code)
		}
	}
	if !strings.Contains(string(d.Paths["/v1/tools/greet"].Post.Responses["404"]), "#/components/schemas/V1Error") {
		t.Error("/v1/tools/greet has no 404 error body")
	}
	if strings.Contains(text, `"$defs"`) || !strings.HasSuffix(text, "}\n") || !strings.HasPrefix(text, "{\n  \"components\"") {
		t.Errorf("the file is not indented, self-contained JSON:\n%.200s", text)
	}

	// -check: current, then stale once the options change; nothing is
	// written.
	toolgen("-check", "-openapi", "openapi.json", "./...").want(t, 0)
	r = toolgen("-check", "-openapi", "openapi.json", "-openapi-title", "Mine", "-openapi-version", "1.2.0", "-openapi-auth", "./...")
	r.want(t, 1)
	if got := withoutWarnings(r.stderr); got != "openapi.json is out of date: run toolgen\n" {
		t.Errorf("-check: %q", got)
	}
	if read(t, doc) != text {
		t.Error("-check wrote the document")
	}
	toolgen("-openapi", "openapi.json", "-openapi-title", "Mine", "-openapi-version", "1.2.0", "-openapi-auth", "./...").want(t, 0)
	authed := read(t, doc)
	validOpenAPI(t, []byte(authed))
	for _, want := range []string{`"title": "Mine"`, `"version": "1.2.0"`, `"bearerAuth": {`, `"scheme": "bearer"`} {
		if !strings.Contains(authed, want) {
			t.Errorf("with -openapi-title, -openapi-version and -openapi-auth, no %s", want)
		}
	}

	// Only the packages named are in it.
	toolgen("-openapi", "openapi.json", "./calc").want(t, 0)
	if text := read(t, doc); !strings.Contains(text, `"/v1/tools/plus": {`) || strings.Contains(text, `"/v1/tools/add"`) {
		t.Errorf("./calc alone:\n%.300s", text)
	}
}

func TestOpenAPIErrors(t *testing.T) {
	dir := module(t, map[string]string{
		"a/tools.go": toolsSrc,
		"b/tools.go": toolsSrc,
	})
	r := toolgen("-openapi-title", "x", "./a")
	r.want(t, 2)
	if !strings.HasPrefix(r.stderr, "-openapi-title without -openapi FILE\n") {
		t.Errorf("stderr: %s", r.stderr)
	}
	r = toolgen("-openapi", "openapi.json", "./...")
	r.want(t, 1)
	if want := "b/tools.go:9:6: -openapi: tool greet is also at a/tools.go:9:6: a server's tools (and the document's paths) need unique names\n"; r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	for _, p := range []string{"openapi.json", "a/tools_gen.go", "b/tools_gen.go"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	r = toolgen("-openapi", "a/tools_gen.go", "./a")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "-openapi a/tools_gen.go is where package example.com/cli/a is generated") {
		t.Errorf("stderr: %s", r.stderr)
	}
}

// For each example, the document the generator writes from the source is
// the one the running example serves at /openapi.json, byte for byte once
// compacted. The title and version are the example's options (its main
// sets them; toolgen takes them as flags), so they are read from the
// served document and given to the generator.
func TestOpenAPIMatchesServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the examples")
	}
	root := checkout(t)
	examples, err := filepath.Glob(filepath.Join(root, "examples", "*", "main.go"))
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	bin := t.TempDir()
	for _, main := range examples {
		dir := filepath.Dir(main)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			exe := filepath.Join(bin, name)
			build := exec.Command("go", "build", "-o", exe, ".")
			build.Dir = dir
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			served := serveOnce(t, exe, "/openapi.json")
			var info struct {
				Info struct{ Title, Version string }
			}
			if err := json.Unmarshal(served, &info); err != nil {
				t.Fatal(err)
			}
			files, err := gen.Generate(gen.Config{Dir: dir, OpenAPI: &gen.OpenAPIConfig{
				Path: filepath.Join(bin, name+".json"), Title: info.Info.Title, Version: info.Info.Version,
				// An example with an auth hook (qmcp's) serves the bearer scheme.
				Auth: bytes.Contains(served, []byte(`"security":[{"bearerAuth":[]}]`)),
			}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			written := files[len(files)-1].Content
			validOpenAPI(t, written)
			var compact bytes.Buffer
			if err := json.Compact(&compact, written); err != nil {
				t.Fatal(err)
			}
			if compact.String() != string(served) {
				t.Errorf("toolgen -openapi and GET /openapi.json differ:\n%s\n%s", compact.String(), served)
			}
		})
	}
}

// serveOnce starts a server program on a free port, GETs path, and stops
// it.
func serveOnce(t *testing.T, exe, path string) []byte {
	t.Helper()
	cmd := exec.Command(exe, "-addr", "127.0.0.1:0", "-history", "memory")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		io.Copy(io.Discard, stdout)
	}()
	var base string
	select {
	case line := <-lines:
		var ok bool
		if base, ok = strings.CutPrefix(strings.TrimSpace(line), "Serving on "); !ok {
			t.Fatalf("%s printed %q\n%s", exe, line, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start\n%s", exe, stderr.String())
	}
	resp, err := http.Get(base + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v %s", path, resp.StatusCode, err, b)
	}
	return b
}
