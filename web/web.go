// Package web holds the Tool Explorer page that the runtime serves at GET /.
package web

import _ "embed"

// Index is the explorer page, a template: the runtime substitutes {{TITLE}}
// (HTML-escaped), {{ALLOW_EXECUTE}} (the JS literal true or false) and
// {{PROJECT_LINK}} (an HTML link, or nothing) when it renders it.
//
//go:embed index.html
var Index string
