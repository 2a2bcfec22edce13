// Package templates holds the text templates toolgen renders for output
// that is not generated Go code: init/ is the server module that toolgen
// init writes. Each file there named NAME.tmpl becomes NAME in the new
// module (the suffix keeps the go command from reading go.mod.tmpl as a
// module or tools.go.tmpl as source). The templates are rendered with
// text/template; the data they see is documented by the generator that
// renders them (gen.Init).
//
// https://github.com/toolgen-go/toolgen/blob/main/docs/code-first.md describes the module init writes.
package templates

import (
	"embed"
	"io/fs"
)

//go:embed init
var files embed.FS

// Init returns the templates of the module toolgen init writes.
func Init() fs.FS {
	sub, err := fs.Sub(files, "init")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}
