package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"sync"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
	"github.com/toolgen-go/toolgen/internal/toolsearch"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// Search: the tools that best match a query, ranked by BM25 over each
// tool's name, title, description and its parameters' names and
// descriptions (internal/toolsearch), among those the caller may see. An
// agent that cannot be handed a catalog of thousands finds what it needs
// with it: runtime/mcp's search_tools meta-tool is this, as the other
// surfaces' search parameters are.
//
// The index is built once per tool list: at the first search for a
// ToolList (NewServer stays as cheap as it was), and for a provider whose
// list may change, again whenever the list's fingerprint (its names,
// titles, descriptions and input schemas) is new. The last few lists'
// indexes are kept, so that a provider whose list depends on the caller
// does not rebuild on every search.

// Field weights of a tool's text in the index.
const (
	weightName        = 3
	weightTitle       = 2
	weightDescription = 1
	weightParamName   = 1.5
	weightParamDesc   = 0.5
)

// searchIndexes holds the index of a ToolList, and those of the last
// lists of another provider searched.
type searchIndexes struct {
	fixedOnce sync.Once
	fixed     *toolsearch.Index

	mu     sync.Mutex
	byList map[uint64]*toolsearch.Index
	order  []uint64 // oldest first
}

// maxSearchIndexes is how many lists' indexes are kept.
const maxSearchIndexes = 4

// SearchTools returns the tools of the caller's list (what [Server.VisibleTools]
// gives) that best match query, best first, at most limit of them (limit
// <= 0: none). A query matches a tool by its words, whatever their case
// and form ("refunds", "refunded" and "refund" are one word; snake_case and
// camelCase names are split into words); a tool that matches none of
// them is not returned.
func (s *Server) SearchTools(ctx context.Context, query string, limit int) ([]Tool, error) {
	tools, err := s.Tools(ctx)
	if err != nil || limit <= 0 {
		return nil, err
	}
	ix := s.searchIndex(tools)
	hits := ix.Search(query, limit, func(doc int) bool { return s.Visible(ctx, &tools[doc]) })
	out := make([]Tool, len(hits))
	for i, h := range hits {
		out[i] = tools[h.Doc]
	}
	return out, nil
}

// searchIndex is the index of tools, built or found.
func (s *Server) searchIndex(tools []Tool) *toolsearch.Index {
	c := &s.search
	if s.FixedList() {
		// The list never changes: no fingerprint to take at each search.
		c.fixedOnce.Do(func() { c.fixed = buildIndex(tools) })
		return c.fixed
	}
	key := listFingerprint(tools)
	c.mu.Lock()
	defer c.mu.Unlock()
	if ix, ok := c.byList[key]; ok {
		return ix
	}
	ix := buildIndex(tools)
	if c.byList == nil {
		c.byList = map[uint64]*toolsearch.Index{}
	}
	if len(c.order) == maxSearchIndexes {
		delete(c.byList, c.order[0])
		c.order = c.order[1:]
	}
	c.byList[key] = ix
	c.order = append(c.order, key)
	return ix
}

func buildIndex(tools []Tool) *toolsearch.Index {
	docs := make([][]toolsearch.Field, len(tools))
	for i := range tools {
		docs[i] = searchFields(&tools[i])
	}
	return toolsearch.New(docs)
}

// searchFields is a tool's text, weighted, as the index reads it.
func searchFields(t *Tool) []toolsearch.Field {
	f := []toolsearch.Field{
		{Text: t.Name, Weight: weightName, Name: true},
		{Text: t.Title, Weight: weightTitle},
		{Text: t.Description, Weight: weightDescription},
	}
	// The parameters: the top-level properties' names, titles and
	// descriptions, read with the scanner (decoding every schema with
	// encoding/json was a third of building an index).
	if !jsoncheck.Plain(t.InputSchema) {
		return f
	}
	jsonscan.MemberBytes(t.InputSchema, func(k, v []byte) bool {
		if string(k) != "properties" || len(v) == 0 || v[0] != '{' {
			return true
		}
		jsonscan.MemberBytes(v, func(name, p []byte) bool {
			f = append(f, toolsearch.Field{Text: string(name), Weight: weightParamName})
			if len(p) == 0 || p[0] != '{' {
				return true
			}
			jsonscan.MemberBytes(p, func(k, v []byte) bool {
				if string(k) == "description" || string(k) == "title" {
					f = append(f, toolsearch.Field{Text: jsonString(v), Weight: weightParamDesc})
				}
				return true
			})
			return true
		})
		return true
	})
	return f
}

// jsonString is v's text when it is a JSON string, "" otherwise.
func jsonString(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// listFingerprint hashes what the index reads of a tool list.
func listFingerprint(tools []Tool) uint64 {
	h := fnv.New64a()
	for i := range tools {
		t := &tools[i]
		for _, part := range []string{t.Name, t.Title, t.Description} {
			h.Write([]byte(part))
			h.Write([]byte{0})
		}
		h.Write(t.InputSchema)
		h.Write([]byte{1})
	}
	return h.Sum64()
}
