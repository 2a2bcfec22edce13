// Package testcatalog writes synthetic tool catalogs of any size for the
// benchmarks of search and listing: tools shaped like a published API's,
// six verbs over twenty resources, a sentence each, three described
// parameters (as internal/toolsyaml/synth writes them for the
// generator). It knows nothing of the runtime: each benchmark makes its
// own tools of these.
package testcatalog

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Tool is one tool of a catalog.
type Tool struct {
	Name, Description string
	InputSchema       json.RawMessage
}

var (
	nouns = []string{"issue", "pull_request", "repository", "comment", "label", "milestone", "release", "deployment", "invoice", "customer", "subscription", "ticket", "order", "shipment", "product", "calendar_event", "document", "folder", "message", "channel"}
	verbs = []struct{ name, desc string }{
		{"list", "Lists the %ss the caller can see, newest first, a page at a time."},
		{"get", "Gets one %s by its identifier, with every field the API returns for it."},
		{"create", "Creates a %s from the given fields and returns it as stored, with its new identifier."},
		{"update", "Updates the given fields of a %s; fields left out keep their values."},
		{"delete", "Deletes a %s. This cannot be undone."},
		{"search", "Searches %ss by free text and filters, ranked by relevance."},
	}
)

// Catalog is a catalog of n tools; the same n gives the same tools.
func Catalog(n int) []Tool {
	tools := make([]Tool, n)
	for i := range n {
		noun := nouns[i%len(nouns)]
		verb := verbs[(i/len(nouns))%len(verbs)]
		words := strings.ReplaceAll(noun, "_", " ")
		tools[i] = Tool{
			Name:        fmt.Sprintf("%s_%s_%d", verb.name, noun, i),
			Description: strings.ReplaceAll(verb.desc, "%s", words),
			InputSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"workspace":{"type":"string","description":"The workspace that owns the %s."},"%s_id":{"type":"string","description":"The %s's identifier."},"page":{"type":"integer","description":"The page to return, from 1."}}}`, words, noun, words)),
		}
	}
	return tools
}
