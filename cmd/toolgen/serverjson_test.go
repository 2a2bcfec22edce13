package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -server-json writes the registry's server.json of the generated server:
// its name from the module path, its description from the package doc, its
// version from the toolkit, reached where the flags say; -check checks it.
func TestServerJSONFlag(t *testing.T) {
	src := "// Package cli greets people, politely.\n//\n//toolgen:toolkit Greeter version=2.4.0\n" + toolsSrc
	dir := module(t, map[string]string{"tools.go": src})
	r := toolgen("-server-json", "server.json", "-server-url", "https://greeter.example.com/mcp", "-server-oci", "ghcr.io/example/greeter:2.4.0", ".")
	r.want(t, 0)
	b, err := os.ReadFile(filepath.Join(dir, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema      string `json:"$schema"`
		Name        string
		Description string
		Version     string
		Packages    []struct {
			RegistryType, Identifier, Version string
			Transport                         struct{ Type string }
		}
		Remotes []struct{ Type, URL string }
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if doc.Name != "com.example/cli" || doc.Description != "Package cli greets people, politely." || doc.Version != "2.4.0" ||
		!strings.Contains(doc.Schema, "2025-09-29") {
		t.Errorf("server.json:\n%s", b)
	}
	if len(doc.Remotes) != 1 || doc.Remotes[0].Type != "streamable-http" || doc.Remotes[0].URL != "https://greeter.example.com/mcp" {
		t.Errorf("remotes: %+v", doc.Remotes)
	}
	if len(doc.Packages) != 1 || doc.Packages[0].RegistryType != "oci" || doc.Packages[0].Identifier != "ghcr.io/example/greeter" ||
		doc.Packages[0].Version != "2.4.0" || doc.Packages[0].Transport.Type != "stdio" {
		t.Errorf("packages: %+v", doc.Packages)
	}
	// -check: current, then stale once the file differs.
	toolgen("-check", "-server-json", "server.json", "-server-url", "https://greeter.example.com/mcp", "-server-oci", "ghcr.io/example/greeter:2.4.0", ".").want(t, 0)
	r = toolgen("-check", "-server-json", "server.json", "-server-url", "https://other.example.com/mcp", "-server-oci", "ghcr.io/example/greeter:2.4.0", ".")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "server.json is out of date") {
		t.Errorf("stderr: %s", r.stderr)
	}
	// Flags override what is derived.
	toolgen("-server-json", "s2.json", "-server-name", "io.github.example/greeter", "-server-description", "Greets.", "-server-version", "3.0.0", "-server-url", "https://g.example.com/mcp", ".").want(t, 0)
	if s := read(t, filepath.Join(dir, "s2.json")); !strings.Contains(s, `"name": "io.github.example/greeter"`) || !strings.Contains(s, `"description": "Greets."`) || !strings.Contains(s, `"version": "3.0.0"`) {
		t.Errorf("s2.json:\n%s", s)
	}
}

func TestServerJSONErrors(t *testing.T) {
	module(t, map[string]string{"tools.go": toolsSrc}) // no package doc
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-server-url", "https://x.example/mcp", "."}, 2, "-server-url without -server-json FILE"},
		{[]string{"-server-json", "s.json", "-server-description", "X.", "."}, 1, "-server-url URL"},
		{[]string{"-server-json", "s.json", "-server-url", "https://x.example/mcp", "."}, 1, "-server-description"},
		{[]string{"-server-json", "s.json", "-server-description", "X.", "-server-url", "/mcp", "."}, 1, "absolute"},
		{[]string{"-server-json", "s.json", "-server-description", "X.", "-server-version", "^1.0.0", "-server-url", "https://x.example/mcp", "."}, 1, "not one version"},
	} {
		r := toolgen(append([]string{}, tc.args...)...)
		r.want(t, tc.code)
		if !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: stderr %q, want it to say %q", tc.args, r.stderr, tc.want)
		}
		if _, err := os.Stat("s.json"); err == nil {
			t.Errorf("%v: s.json was written", tc.args)
		}
	}
}
