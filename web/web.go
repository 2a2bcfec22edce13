// Package web holds the Tool Explorer page that the runtime serves at GET /.
//
// The page is plain HTML, CSS and JavaScript with no build step. It is kept
// in separate files for editing (index.html, explorer.css, theme.js and the
// explorer's script in js/, one file per section, listed in order in
// scripts) and assembled here into one self-contained document, so that
// the page needs no other request and its Content-Security-Policy can allow
// exactly its own inline blocks by hash.
package web

import (
	"embed"
	"strings"
)

var (
	//go:embed index.html
	indexHTML string
	//go:embed explorer.css
	css string
	//go:embed theme.js
	themeJS string
	//go:embed js/*.js
	jsFiles embed.FS
)

// scripts are the files of js/ in the order they make up the explorer's
// one script. They are pieces of a single function expression, not modules:
// state.js opens it and start.js closes it, and each file is the text of its
// sections, concatenated as they are (each ends with the blank line before
// the next one's banner).
var scripts = []string{
	"state.js",     // the page's state, DOM helpers, HTTP, theme, auth bar
	"schemas.js",   // schemas as tables
	"console.js",   // the try-it console: form, JSON, cURL, run
	"results.js",   // a call's result
	"list.js",      // the tool list and a tool's detail
	"history.js",   // the History view
	"approvals.js", // the Approvals view
	"views.js",     // the views and their tabs
	"prompts.js",   // prompts, and what prompts and resources share
	"resources.js", // resources and URI templates
	"start.js",     // the OpenAPI link, and the start
}

// js is the explorer's script: the files of scripts, concatenated.
var js = concat(scripts)

func concat(names []string) string {
	var b strings.Builder
	for _, name := range names {
		src, err := jsFiles.ReadFile("js/" + name)
		if err != nil {
			panic("web: " + err.Error())
		}
		b.Write(src)
	}
	return b.String()
}

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
