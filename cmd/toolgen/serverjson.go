package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/internal/serverjson"
)

// serverJSONFlags are -server-json and the flags that go with it.
type serverJSONFlags struct {
	path, name, description, version, url, oci string
}

// serverJSONFile is -server-json's file: the MCP registry's server.json
// of the server the generated tools make. What the flags leave out comes
// from the package of the first generated tools file: the name from its
// module path (serverjson.NameFromModule), the description from its doc
// comment's first sentence, the version from its toolkit's (the lock's
// toolkit version: //toolgen:toolkit version=, tools.yaml's version:, else
// 1.0.0). The file is checked by -check and written with the rest.
func serverJSONFile(files []*gen.File, f serverJSONFlags) (*gen.File, error) {
	var tools *gen.File
	for _, file := range files {
		if file.Contract != nil && file.Contract.Lock != nil {
			tools = file
			break
		}
	}
	if tools == nil {
		return nil, fmt.Errorf("-server-json: no tools were generated")
	}
	info := serverjson.Info{Name: f.name, Description: f.description, Version: f.version, URL: f.url, OCI: f.oci}
	if info.Version == "" {
		info.Version = tools.Contract.Lock.Toolkit.Version
	}
	if info.Name == "" || info.Description == "" {
		module, doc, err := goList(filepath.Dir(tools.Path))
		if err != nil {
			return nil, fmt.Errorf("-server-json: %w", err)
		}
		if info.Name == "" {
			if info.Name, err = serverjson.NameFromModule(module); err != nil {
				return nil, fmt.Errorf("-server-json: %w", err)
			}
		}
		if info.Description == "" {
			info.Description = serverjson.Description(doc)
		}
	}
	b, err := serverjson.Build(info)
	if err != nil {
		return nil, fmt.Errorf("-server-json %s: %w", f.path, err)
	}
	path, err := filepath.Abs(f.path)
	if err != nil {
		return nil, err
	}
	return &gen.File{Path: path, Content: b}, nil
}

// goList is the module path and doc synopsis of the package in dir.
func goList(dir string) (module, doc string, err error) {
	cmd := exec.Command("go", "list", "-f", "{{with .Module}}{{.Path}}{{end}}\n{{.Doc}}", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("go list in %s: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	module, doc, _ = strings.Cut(string(out), "\n")
	return strings.TrimSpace(module), strings.TrimSpace(doc), nil
}
