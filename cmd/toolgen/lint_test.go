package main

import (
	"os"
	"strings"
	"testing"
)

const lintSrc = `package cli

import "context"

// Page is a page to fetch.
type Page struct {
	// URL is the page's address.
	URL string ` + "`json:\"url\" jsonschema:\"format=uri\"`" + `
	// Lines is how many lines to keep.
	Lines int ` + "`json:\"lines,omitempty\"`" + `
}

// Fetch fetches a page.
//
//toolgen:tool
func Fetch(ctx context.Context, in Page) (string, error) { return "", nil }
`

// -lint openai on a tool with a format and an optional field prints both
// at their fields, as lint(openai) lines, and exits 0; -strict makes them
// errors (exit 1, nothing written).
func TestLintFlag(t *testing.T) {
	module(t, map[string]string{"tools.go": lintSrc})
	r := toolgen("-lint", "openai")
	r.want(t, 0)
	for _, want := range []string{
		"tools.go:8:2: lint(openai): tool fetch: format uri at #/properties/url: ",
		"tools.go:10:2: lint(openai): tool fetch: optional property lines at #/properties/lines: ",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "warning: lint(") {
		t.Errorf("lint findings print as file:line:col: lint(PROFILE): ..., not as warning:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "lint(claude)") || strings.Contains(r.stderr, "lint(gemini)") {
		t.Errorf("profiles not asked for were linted:\n%s", r.stderr)
	}
	if _, err := os.Stat("tools_gen.go"); err != nil {
		t.Fatalf("-lint without -strict writes the file: %v", err)
	}
	if err := os.Remove("tools_gen.go"); err != nil {
		t.Fatal(err)
	}

	r = toolgen("-strict", "-lint", "openai,gemini")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "tools.go:8:2: lint(openai): tool fetch: format uri") || strings.Contains(r.stderr, "warning:") {
		t.Errorf("-strict: the findings are errors:\n%s", r.stderr)
	}
	if _, err := os.Stat("tools_gen.go"); err == nil {
		t.Errorf("-strict -lint with findings wrote tools_gen.go")
	}

	// Without -lint, nothing is linted.
	r = toolgen("-strict", "-check")
	if strings.Contains(r.stderr, "lint(") {
		t.Errorf("linted without -lint:\n%s", r.stderr)
	}
}

// A clean schema has no findings, even under -strict.
func TestLintFlagClean(t *testing.T) {
	module(t, map[string]string{"tools.go": toolsSrc})
	r := toolgen("-strict", "-lint", "claude,openai,gemini")
	r.want(t, 0)
	if strings.Contains(r.stderr, "lint(") {
		t.Errorf("findings on a clean schema:\n%s", r.stderr)
	}
}

// An unknown profile is a usage error naming the known ones.
func TestLintFlagUnknownProfile(t *testing.T) {
	module(t, map[string]string{"tools.go": toolsSrc})
	for _, arg := range []string{"gpt", "claude,,openai", ""} {
		r := toolgen("-lint", arg)
		if arg == "" {
			// -lint "" is no linting at all.
			r.want(t, 0)
			continue
		}
		r.want(t, 2)
		if !strings.Contains(r.stderr, "known: claude, openai, gemini") || !strings.Contains(r.stderr, "usage: toolgen") {
			t.Errorf("-lint %q: stderr:\n%s", arg, r.stderr)
		}
	}
}
