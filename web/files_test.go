package web

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
)

// maxScriptLines is how long a JavaScript file of the page may grow before
// it is split further, along its sections.
const maxScriptLines = 500

// TestScriptFileLength holds every .js file of the package, the ones of js/
// and theme.js, to maxScriptLines lines.
func TestScriptFileLength(t *testing.T) {
	n := 0
	err := fs.WalkDir(os.DirFS("."), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".js" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		lines := strings.Count(string(b), "\n")
		if len(b) > 0 && b[len(b)-1] != '\n' {
			lines++
		}
		if lines > maxScriptLines {
			t.Errorf("%s has %d lines, more than %d: split it along its sections", p, lines, maxScriptLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no .js files found")
	}
}

// TestScriptsListed checks that scripts names every file of js/ once, so
// that none is left out of the page (the embed takes them all, the page only
// the ones listed).
func TestScriptsListed(t *testing.T) {
	files, err := fs.Glob(jsFiles, "js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for _, name := range scripts {
		listed[name]++
	}
	for name, k := range listed {
		if k != 1 {
			t.Errorf("scripts lists %s %d times", name, k)
		}
	}
	for _, f := range files {
		name := path.Base(f)
		if listed[name] == 0 {
			t.Errorf("js/%s is not in scripts, so not in the page", name)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("scripts lists %s, which js/ does not have", name)
	}
	if !strings.HasPrefix(js, "'use strict';") || !strings.HasSuffix(js, "})();\n") {
		t.Errorf("the script does not open with 'use strict' and close its function: scripts is out of order")
	}
}
