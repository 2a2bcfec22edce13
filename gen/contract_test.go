package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/internal/contract"
)

// The contract cases (toolgen -lock, -check, -diff): each of
// testdata/contracts/<rule>_<direction>/ holds old.yaml, the tools a
// tools.lock was written from; tools.yaml, the tools now; and want.txt,
// every change CheckLocks finds between the two, at its position in
// tools.yaml, "refused: " before each breaking change the versions do not
// allow. <rule> is the rule the case is about (internal/contract's Rule
// constants), and the direction says what must happen to it:
//
//   - caught: the change is breaking and the version is unchanged: it is
//     refused (-check and -lock fail).
//   - allowed: the same change with the version raised (the tool's major;
//     for a removed tool the toolkit's), or a compatible (or other) change
//     with none: it is listed, and nothing is refused.
//
// A compatible rule's caught direction is its reverse, a breaking rule's
// case (an enum value added to an input, input-enum-value-removed; a new
// optional property, input-property-removed; a bound loosened,
// bound-tightened; a new tool, tool-removed). input-property-removed-open
// is input-property-removed where the schema lets unknown properties
// through: compatible.
//
//	go test ./gen -run TestContracts -update   rewrites want.txt
func TestContracts(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "testdata", "contracts")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("no contract cases")
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			rule, direction, ok := strings.Cut(name, "_")
			if !ok || (direction != "caught" && direction != "allowed") {
				t.Fatalf("case %s: want <rule>_caught or <rule>_allowed", name)
			}
			rule = strings.TrimSuffix(rule, "-open")
			caseDir := filepath.Join(dir, name)
			tmp := t.TempDir()
			lockFrom(t, tmp, filepath.Join(caseDir, "old.yaml"))
			copyFile(t, filepath.Join(caseDir, "tools.yaml"), filepath.Join(tmp, "tools.yaml"))
			files, err := Generate(Config{Dir: tmp}, []string{"tools.yaml"})
			if err != nil {
				t.Fatal(err)
			}
			checks, err := CheckLocks(files)
			if err != nil {
				t.Fatal(err)
			}
			if len(checks) != 1 {
				t.Fatalf("%d lock checks, want 1", len(checks))
			}
			var b strings.Builder
			var refused, listed bool
			for _, ch := range checks[0].Changes {
				if ch.Class == contract.Breaking && !ch.Allowed {
					b.WriteString("refused: ")
					refused = refused || ch.Rule == rule
				}
				listed = listed || ch.Rule == rule
				b.WriteString(ch.Error() + "\n")
			}
			switch {
			case direction == "caught" && !refused:
				t.Errorf("no %s change refused", rule)
			case direction == "allowed" && len(checks[0].Refused) > 0:
				t.Errorf("%d changes refused, want none", len(checks[0].Refused))
			case !listed:
				t.Errorf("no %s change listed", rule)
			}
			compareGolden(t, filepath.Join(caseDir, "want.txt"), b.String())
		})
	}
}

// lockFrom writes dir/tools.lock from the tools of a tools.yaml, as
// toolgen -lock does.
func lockFrom(t *testing.T, dir, yaml string) {
	t.Helper()
	copyFile(t, yaml, filepath.Join(dir, "tools.yaml"))
	files, err := Generate(Config{Dir: dir, Lock: true}, []string{"tools.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f.Path) == contract.FileName {
			if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatal("Config.Lock generated no tools.lock")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareGolden compares got with the file want, or with -update writes it.
func compareGolden(t *testing.T, want, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != got {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", want, got, data)
	}
}
