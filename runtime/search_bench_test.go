package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchCatalog is a catalog of n tools shaped like a published API's:
// verbs over resources, with sentences for descriptions and parameters
// (as internal/toolsyaml/synth writes them for the generator's scale
// test).
func benchCatalog(n int) ToolList {
	nouns := []string{"issue", "pull_request", "repository", "comment", "label", "milestone", "release", "deployment", "invoice", "customer", "subscription", "ticket", "order", "shipment", "product", "calendar_event", "document", "folder", "message", "channel"}
	verbs := []struct{ name, desc string }{
		{"list", "Lists the %ss the caller can see, newest first, a page at a time."},
		{"get", "Gets one %s by its identifier, with every field the API returns for it."},
		{"create", "Creates a %s from the given fields and returns it as stored, with its new identifier."},
		{"update", "Updates the given fields of a %s; fields left out keep their values."},
		{"delete", "Deletes a %s. This cannot be undone."},
		{"search", "Searches %ss by free text and filters, ranked by relevance."},
	}
	h := func(context.Context, json.RawMessage) (*Result, error) { return TextResult(""), nil }
	tools := make(ToolList, n)
	for i := range n {
		noun := nouns[i%len(nouns)]
		verb := verbs[(i/len(nouns))%len(verbs)]
		words := strings.ReplaceAll(noun, "_", " ")
		schema := fmt.Sprintf(`{"type":"object","properties":{"workspace":{"type":"string","description":"The workspace that owns the %s."},"%s_id":{"type":"string","description":"The %s's identifier."},"page":{"type":"integer","description":"The page to return, from 1."}}}`, words, noun, words)
		tools[i] = Tool{
			Name:        fmt.Sprintf("%s_%s_%d", verb.name, noun, i),
			Description: strings.ReplaceAll(verb.desc, "%s", words),
			InputSchema: json.RawMessage(schema),
			Handler:     h,
		}
	}
	return tools
}

// BenchmarkSearchTools: building the index of 1,000 and 10,000 tools (its
// first search), a query against it, and NewServer beside them (what the
// index adds to a server's start, were it built there: it is not).
//
//	go test -run '^$' -bench BenchmarkSearchTools -benchmem ./runtime
func BenchmarkSearchTools(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1000, 10000} {
		tools := benchCatalog(n)
		b.Run(fmt.Sprintf("tools=%d/part=newserver", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewServer(tools, nil)
			}
		})
		b.Run(fmt.Sprintf("tools=%d/part=index", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := NewServer(tools, nil)
				if found, _ := s.SearchTools(ctx, "refund", 1); len(found) != 0 {
					b.Fatal("found a refund")
				}
			}
		})
		b.Run(fmt.Sprintf("tools=%d/part=query", n), func(b *testing.B) {
			s := NewServer(tools, nil)
			q := "create an invoice for a customer"
			if found, _ := s.SearchTools(ctx, q, 5); len(found) != 5 || !strings.HasPrefix(found[0].Name, "create_invoice") {
				b.Fatalf("found %v", toolNames(found))
			}
			b.ReportAllocs()
			for b.Loop() {
				s.SearchTools(ctx, q, 5)
			}
		})
	}
}
