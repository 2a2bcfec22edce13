package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const lockYAML = `package: kit
version: 1.0.0
tools:
  - name: pick
    description: Picks a letter.
    input:
      type: object
      properties:
        letter: {type: string, enum: [x, y], description: The letter.}
      required: [letter]
      additionalProperties: false
`

// -lock writes tools.lock; once it stands there, -check and -lock refuse
// a breaking change the version does not allow, at its position, writing
// nothing; -lock -force accepts it, listing it; -diff prints the changes
// (text or JSON) with exit 0, 1 or 2.
func TestLockCheckForceDiff(t *testing.T) {
	module(t, map[string]string{"tools.yaml": lockYAML})
	toolgen("-lock", "tools.yaml").want(t, 0)
	lock := read(t, "tools.lock")
	if !strings.Contains(lock, `"pick": {`) || !strings.HasPrefix(lock, "{\n  \"lock\": 1,\n") {
		t.Fatalf("tools.lock:\n%s", lock)
	}
	toolgen("-check", "tools.yaml").want(t, 0)
	toolgen("-diff", "tools.lock", "tools.yaml").want(t, 0)

	// An enum value removed from the input, the version unchanged.
	if err := os.WriteFile("tools.yaml", []byte(strings.Replace(lockYAML, "[x, y]", "[x]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	gen := read(t, "tools_gen.go")
	const at = "tools.yaml:9:9: tool pick: input #/properties/letter: input-enum-value-removed (breaking): removed the enum value y of the input property letter"
	r := toolgen("-check", "tools.yaml")
	r.want(t, 1)
	if !strings.Contains(r.stderr, at) || !strings.Contains(r.stderr, "version 1.0.0: raise it to 2.0.0") {
		t.Errorf("-check stderr:\n%s", r.stderr)
	}
	r = toolgen("-lock", "tools.yaml")
	r.want(t, 1)
	if !strings.Contains(r.stderr, at) || !strings.Contains(r.stderr, "nothing written") {
		t.Errorf("-lock stderr:\n%s", r.stderr)
	}
	if read(t, "tools.lock") != lock || read(t, "tools_gen.go") != gen {
		t.Error("-lock wrote over a refused breaking change")
	}
	// Without -lock, a lock standing there is checked as well.
	toolgen("tools.yaml").want(t, 1)

	r = toolgen("-diff", "tools.lock", "tools.yaml")
	r.want(t, 1)
	if !strings.Contains(r.stdout, "tools.lock → now: 1 change, 1 breaking\n  "+at) {
		t.Errorf("-diff stdout:\n%s", r.stdout)
	}
	r = toolgen("-diff", "tools.lock", "-json", "tools.yaml")
	r.want(t, 1)
	var got struct {
		Breaking int `json:"breaking"`
		Changes  []struct {
			Pos, Tool, Part, Pointer, Rule, Class string
			Allowed                               bool
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("-diff -json: %v\n%s", err, r.stdout)
	}
	if got.Breaking != 1 || len(got.Changes) != 1 || got.Changes[0].Pos != "tools.yaml:9:9" || got.Changes[0].Pointer != "/properties/letter" ||
		got.Changes[0].Rule != "input-enum-value-removed" || got.Changes[0].Class != "breaking" || got.Changes[0].Allowed {
		t.Errorf("-diff -json:\n%s", r.stdout)
	}

	// A lock in git: -diff git:REV reads it with git show.
	if _, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{{"init", "-q"}, {"add", "tools.lock"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "lock"}} {
			if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		r = toolgen("-diff", "git:HEAD", "tools.yaml")
		r.want(t, 1)
		if !strings.Contains(r.stdout, "git:HEAD:tools.lock → now: 1 change, 1 breaking\n  "+at) {
			t.Errorf("-diff git:HEAD stdout:\n%s", r.stdout)
		}
		r = toolgen("-diff", "git:nosuchrev", "tools.yaml")
		r.want(t, 2)
	}

	r = toolgen("-lock", "-force", "tools.yaml")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "accepted: "+at) {
		t.Errorf("-lock -force stderr:\n%s", r.stderr)
	}
	if read(t, "tools.lock") == lock {
		t.Error("-lock -force did not rewrite tools.lock")
	}
	toolgen("-check", "tools.yaml").want(t, 0)
	r = toolgen("-diff", "tools.lock", "tools.yaml")
	r.want(t, 0)
	if r.stdout != "tools.lock → now: no changes\n" {
		t.Errorf("-diff stdout:\n%s", r.stdout)
	}

	// A version raised allows the change, and -check lists what is stale.
	if err := os.WriteFile("tools.yaml", []byte(strings.Replace(lockYAML, "version: 1.0.0", "version: 2.0.0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = toolgen("-check", "tools.yaml")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "tools.lock is out of date") {
		t.Errorf("-check stderr:\n%s", r.stderr)
	}
	toolgen("-lock", "tools.yaml").want(t, 0)
}

// -diff's errors exit 2: a missing or malformed lock (at its position),
// and flags that do not go together.
func TestDiffErrors(t *testing.T) {
	module(t, map[string]string{"tools.yaml": lockYAML, "bad.lock": "{\n  \"lock\": 1,\n  \"tools\": [\n"})
	r := toolgen("-diff", "missing.lock", "tools.yaml")
	r.want(t, 2)
	r = toolgen("-diff", "bad.lock", "tools.yaml")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "bad.lock:4:1: not a tools.lock: unexpected EOF") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	for _, args := range [][]string{{"-force", "tools.yaml"}, {"-json", "tools.yaml"}, {"-diff", "x.lock", "-check", "tools.yaml"}} {
		toolgen(args...).want(t, 2)
	}
}

const lockGo = `package cli

import "context"

// In is the input.
type In struct {
	// Days to forecast.
	Days int ` + "`" + `json:"days" jsonschema:"minimum=1,maximum=14"` + "`" + `
}

// Out is the result.
type Out struct {
	// City named.
	City string ` + "`" + `json:"city"` + "`" + `
	// Temp in degrees.
	Temp float64 ` + "`" + `json:"temp"` + "`" + `
}

// Forecast forecasts.
//
//toolgen:tool
func Forecast(ctx context.Context, in In) (Out, error) { return Out{}, nil }
`

// In Go, a change is at the field it is in: an input bound at the input
// field, a result property removed at the result type.
func TestLockPositionsInGo(t *testing.T) {
	module(t, map[string]string{"tools.go": lockGo})
	toolgen("-lock").want(t, 0)
	src := strings.Replace(lockGo, "maximum=14", "maximum=7", 1)
	src = strings.Replace(src, "\t// Temp in degrees.\n\tTemp float64 `json:\"temp\"`\n", "", 1)
	if err := os.WriteFile("tools.go", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := toolgen("-check")
	r.want(t, 1)
	for _, want := range []string{
		"tools.go:8:2: tool forecast: input #/properties/days: bound-tightened (breaking)",
		"tools.go:12:6: tool forecast: output #/properties/temp: output-property-removed (breaking)",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}
