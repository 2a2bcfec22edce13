// Package compile compiles tool schemas the one way toolgen does everywhere:
// the runtime before serving, the generator to check a tools.yaml and the
// examples. A schema that compiles here compiles at run time.
package compile

import (
	"bytes"
	"fmt"
	"io"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// URL names every compiled schema in errors; a schema's own $id may
// override it.
const URL = "toolgen:///schema.json"

// Schema compiles src as JSON Schema draft 2020-12 (the dialect of a schema
// without $schema), with formats asserted. A tool's schema is
// self-contained: a $ref to anything outside it is an error, never a fetch
// from disk or network.
func Schema(src []byte) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("external reference %q is not allowed: a tool's schema must be self-contained", s)
	}
	if err := c.AddResource(URL, bytes.NewReader(src)); err != nil {
		return nil, err
	}
	return c.Compile(URL)
}
