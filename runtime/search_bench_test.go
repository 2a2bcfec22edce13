package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/internal/testcatalog"
)

// benchCatalog is internal/testcatalog's catalog of n tools, served.
func benchCatalog(n int) ToolList {
	h := func(context.Context, json.RawMessage) (*Result, error) { return TextResult(""), nil }
	var tools ToolList
	for _, t := range testcatalog.Catalog(n) {
		tools = append(tools, Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Handler: h})
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
