// Package web holds the Tool Explorer page that the runtime serves at GET /.
//
// The page is plain HTML, CSS and JavaScript with no build step. It is kept
// in separate files for editing (index.html, explorer.css, explorer.js,
// theme.js) and assembled here into one self-contained document, so that
// the page needs no other request and its Content-Security-Policy can allow
// exactly its own inline blocks by hash.
package web

import (
	_ "embed"
	"strings"
)

var (
	//go:embed index.html
	indexHTML string
	//go:embed explorer.css
	css string
	//go:embed explorer.js
	js string
	//go:embed theme.js
	themeJS string
)

// Index is the explorer page, a template: the runtime substitutes {{TITLE}}
// (HTML-escaped), {{ALLOW_EXECUTE}} (the JS literal true or false) and
// {{PROJECT_LINK}} (an HTML link, or nothing), {{PROTOCOL_LINKS}} (links
// to the server's other surfaces), {{HISTORY_URL}} (a JS string: where
// /v1/invocations is, relative to the page, or ""), {{HUMAN_URL}} (a JS
// string: where /v1/human is, relative to the page, or "") and
// {{AUTH_REQUIRED}}
// (the JS literal true when the server has an auth hook) when it renders
// it.
var Index = strings.NewReplacer(
	"/*EXPLORER_THEME*/", strings.TrimSpace(themeJS),
	"/*EXPLORER_CSS*/", "\n"+css,
	"/*EXPLORER_JS*/", "\n"+js,
).Replace(indexHTML)
