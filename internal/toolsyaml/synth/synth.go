// Package synth writes synthetic tools.yaml catalogs of any size, for the
// generator's scale test and benchmarks (gen, bench/cmd/catalog): tools
// shaped like those of published API catalogs, with sentences for
// descriptions, string, integer, boolean, enum, array and nested-object
// properties, bounds, defaults, patterns, required lists, output schemas
// on most tools and examples on some; Small writes the two-property tools
// of issue #44. The same n gives the same bytes.
package synth

import (
	"fmt"
	"strings"
)

// nouns and verbs make the tools' names and descriptions: an API's
// resources and what can be done to them.
var (
	nouns = []string{"issue", "pull_request", "repository", "comment", "label", "milestone", "release", "deployment", "invoice", "customer", "subscription", "ticket", "order", "shipment", "product", "calendar_event", "document", "folder", "message", "channel"}
	verbs = []struct{ name, desc string }{
		{"list", "Lists the %ss the caller can see, newest first, a page at a time. Use the filters to narrow the result; an empty page means there are no more."},
		{"get", "Gets one %s by its identifier, with every field the API returns for it. Fails with a not-found error when the identifier is unknown or hidden from the caller."},
		{"create", "Creates a %s from the given fields and returns it as stored, with its new identifier. The caller needs write access to the parent resource."},
		{"update", "Updates the given fields of a %s; fields left out keep their values. Returns the %s as stored after the change."},
		{"delete", "Deletes a %s. This cannot be undone: archived data is removed after thirty days, and links to it stop working at once."},
		{"search", "Searches %ss by free text and filters, ranked by relevance. The query supports quoted phrases and a minus sign to exclude a word."},
	}
)

// Catalog is a tools.yaml of n tools in package pkg.
func Catalog(pkg string, n int) []byte {
	var b strings.Builder
	b.Grow(n * 1400)
	fmt.Fprintf(&b, "package: %s\ntoolkit: Synth\nversion: 1.0.0\ntools:\n", pkg)
	for i := range n {
		tool(&b, i)
	}
	return []byte(b.String())
}

func tool(b *strings.Builder, i int) {
	noun := nouns[i%len(nouns)]
	verb := verbs[(i/len(nouns))%len(verbs)]
	words := strings.ReplaceAll(noun, "_", " ")
	name := fmt.Sprintf("%s_%s_%d", verb.name, noun, i)
	desc := strings.ReplaceAll(verb.desc, "%s", words)
	fmt.Fprintf(b, "  - name: %s\n    description: %q\n", name, desc)
	if verb.name == "list" || verb.name == "get" || verb.name == "search" {
		b.WriteString("    annotations: {readOnlyHint: true, openWorldHint: true}\n")
	} else if verb.name == "delete" {
		b.WriteString("    annotations: {destructiveHint: true}\n")
	}
	b.WriteString("    input:\n      type: object\n      properties:\n")
	fmt.Fprintf(b, "        workspace: {type: string, description: \"The workspace that owns the %s, by its slug (lowercase letters, digits and hyphens).\", pattern: \"^[a-z0-9-]{1,64}$\"}\n", words)
	switch verb.name {
	case "list", "search":
		if verb.name == "search" {
			b.WriteString("        query: {type: string, description: \"Free text to search for; quoted phrases match exactly.\", minLength: 1, maxLength: 256}\n")
		}
		fmt.Fprintf(b, "        state: {type: string, description: \"Only %ss in this state.\", enum: [open, closed, all], default: open}\n", words)
		fmt.Fprintf(b, "        per_page: {type: integer, description: \"How many %ss a page holds.\", minimum: 1, maximum: %d, default: 30}\n", words, 50+i%51)
		b.WriteString("        page: {type: integer, description: \"The page to return, from 1.\", minimum: 1, default: 1}\n")
		b.WriteString("        labels: {type: array, description: \"Only items with all of these labels.\", items: {type: string}, maxItems: 20}\n")
		b.WriteString("        since: {type: string, format: date-time, description: \"Only items updated at or after this time (RFC 3339).\"}\n")
		b.WriteString("      required: [workspace]\n")
	case "get", "delete":
		fmt.Fprintf(b, "        id: {type: integer, description: \"The %s's identifier.\", minimum: 1}\n", words)
		if verb.name == "delete" {
			b.WriteString("        force: {type: boolean, description: \"Delete even when other items still refer to it.\", default: false}\n")
		}
		b.WriteString("      required: [workspace, id]\n      additionalProperties: false\n")
	default:
		if verb.name == "update" {
			fmt.Fprintf(b, "        id: {type: integer, description: \"The %s's identifier.\", minimum: 1}\n", words)
		}
		fmt.Fprintf(b, "        title: {type: string, description: \"A one-line title for the %s.\", minLength: 1, maxLength: 200}\n", words)
		b.WriteString("        body: {type: string, description: \"The text, in Markdown.\"}\n")
		b.WriteString("        priority: {type: string, description: \"How urgent it is.\", enum: [low, normal, high, urgent]}\n")
		b.WriteString("        owner:\n          type: object\n          description: \"Who is responsible for it.\"\n          properties:\n")
		b.WriteString("            login: {type: string, description: \"The owner's login name.\"}\n")
		b.WriteString("            notify: {type: boolean, description: \"Whether to send the owner a notification.\", default: true}\n")
		b.WriteString("          required: [login]\n")
		b.WriteString("        tags: {type: array, items: {type: string, maxLength: 50}, description: \"Free-form tags.\", uniqueItems: true}\n")
		if verb.name == "update" {
			b.WriteString("      required: [workspace, id]\n")
		} else {
			b.WriteString("      required: [workspace, title]\n")
		}
	}
	if verb.name != "delete" {
		b.WriteString("    output:\n      type: object\n      properties:\n")
		if verb.name == "list" || verb.name == "search" {
			fmt.Fprintf(b, "        items:\n          type: array\n          description: \"The %ss of this page.\"\n          items:\n            type: object\n            properties:\n", words)
			b.WriteString("              id: {type: integer, description: \"Its identifier.\"}\n              title: {type: string, description: \"Its title.\"}\n              url: {type: string, description: \"Where to see it in a browser.\"}\n            required: [id, title]\n")
			b.WriteString("        next_page: {type: integer, description: \"The next page, absent on the last one.\"}\n      required: [items]\n")
		} else {
			fmt.Fprintf(b, "        id: {type: integer, description: \"The %s's identifier.\"}\n", words)
			b.WriteString("        title: {type: string, description: \"Its title.\"}\n        url: {type: string, description: \"Where to see it in a browser.\"}\n")
			b.WriteString("        created_at: {type: string, format: date-time, description: \"When it was created.\"}\n      required: [id, title, url]\n")
		}
	}
	if i%3 == 0 {
		switch verb.name {
		case "get", "delete":
			b.WriteString("    examples: [{workspace: acme, id: 42}]\n")
		case "list":
			b.WriteString("    examples: [{workspace: acme, state: closed}]\n")
		case "search":
			b.WriteString("    examples: [{workspace: acme, query: \"timeout\"}]\n")
		case "create":
			b.WriteString("    examples: [{workspace: acme, title: \"First one\"}]\n")
		case "update":
			b.WriteString("    examples: [{workspace: acme, id: 7, title: \"Renamed\"}]\n")
		}
	}
}

// Small is a tools.yaml of n small tools in package pkg, the shape of the
// catalog issue #44 names: each tool, named and described as Catalog's
// (list_issue_0 first), takes two properties and returns two.
func Small(pkg string, n int) []byte {
	var b strings.Builder
	b.Grow(n * 500)
	fmt.Fprintf(&b, "package: %s\ntools:\n", pkg)
	for i := range n {
		noun := nouns[i%len(nouns)]
		verb := verbs[(i/len(nouns))%len(verbs)]
		words := strings.ReplaceAll(noun, "_", " ")
		fmt.Fprintf(&b, "  - name: %s_%s_%d\n    description: %q\n", verb.name, noun, i, strings.ReplaceAll(verb.desc, "%s", words))
		fmt.Fprintf(&b, "    input:\n      type: object\n      properties:\n        workspace: {type: string, description: \"The workspace that owns the %s.\"}\n", words)
		b.WriteString("        limit: {type: integer, description: \"The most items to return.\"}\n      required: [workspace]\n")
		b.WriteString("    output:\n      type: object\n      properties:\n        id: {type: integer, description: \"Its identifier.\"}\n        title: {type: string, description: \"Its title.\"}\n      required: [id, title]\n")
	}
	return []byte(b.String())
}
