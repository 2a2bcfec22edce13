package openapi

import "testing"

// ServerURL is the server's root relative to the document's path, whatever
// form the path takes.
func TestServerURL(t *testing.T) {
	for path, want := range map[string]string{
		"/openapi.json":            ".",
		"/docs/api.json":           "..",
		"/docs/":                   "..",
		"/a/b/openapi.json":        "../..",
		"GET /openapi.json":        ".",
		"example.com/api/doc.json": "..",
		"openapi.json":             ".",
	} {
		if got := ServerURL(path); got != want {
			t.Errorf("ServerURL(%q) = %q, want %q", path, got, want)
		}
	}
}

// A document with no options still has a server, and security and tags
// at the top.
func TestBuildDefaults(t *testing.T) {
	doc, err := Build(nil, Options{Title: "t", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	want := `"security":[],"servers":[{"description":"This server: its root, relative to where this document is served.","url":"."}],"tags":[]}`
	if s := string(doc); len(s) < len(want) || s[len(s)-len(want):] != want {
		t.Errorf("got %s\nwant it to end with %s", s, want)
	}
}
