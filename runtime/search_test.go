package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

func searchCatalog() ToolList {
	h := func(context.Context, json.RawMessage) (*Result, error) { return TextResult(""), nil }
	return ToolList{
		{Name: "list_orders", Description: "Lists a customer's orders, newest first.", InputSchema: json.RawMessage(`{"type":"object","properties":{"customer_id":{"type":"string","description":"Whose orders."}}}`), Handler: h},
		{Name: "refund_order", Title: "Refund an order", Description: "Refunds an order, in full or in part.", InputSchema: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"},"amount":{"type":"number","description":"How much to give back; all of it when left out."}}}`), Handler: h},
		{Name: "getWeather", Description: "Current weather for a city.", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`), Handler: h},
		{Name: "delete_customer", Description: "Deletes a customer and their data.", Scopes: []string{"admin"}, Handler: h},
	}
}

func toolNames(tools []Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

// SearchTools ranks the tools a query names, among those the caller may
// see, by their names, titles, descriptions and parameters.
func TestSearchTools(t *testing.T) {
	// With an auth hook, scopes are enforced: the caller below has none.
	s := NewServer(searchCatalog(), &Options{Logger: discard(), AuthHook: BearerTokens("t")})
	ctx := WithPrincipal(context.Background(), &Principal{Subject: "agent"})
	for q, want := range map[string][]string{
		"refund the last order of a customer": {"refund_order", "list_orders"},
		"what's the weather in Paris":         {"getWeather"},
		"get weather":                         {"getWeather"},
		"give money back":                     {"refund_order"}, // a parameter's description
		"delete a customer":                   {"list_orders"},  // delete_customer needs the scope admin
		"nothing like this":                   nil,
	} {
		got, err := s.SearchTools(ctx, q, 2)
		if err != nil || !slices.Equal(toolNames(got), want) {
			t.Errorf("%q: %v %v, want %v", q, toolNames(got), err, want)
		}
	}
	admin := WithPrincipal(ctx, &Principal{Subject: "root", Scopes: []string{"admin"}})
	if got, _ := s.SearchTools(admin, "delete a customer", 1); !slices.Equal(toolNames(got), []string{"delete_customer"}) {
		t.Errorf("with the scope: %v", toolNames(got))
	}
	if got, _ := s.SearchTools(ctx, "order", 0); got != nil {
		t.Errorf("limit 0: %v", toolNames(got))
	}
}

// A provider whose list changes is searched in its current list: the
// index is built again for a list it has not seen, and kept for one it
// has.
func TestSearchToolsFollowsTheProvider(t *testing.T) {
	var second atomic.Bool
	var lists atomic.Int32
	p := ToolsFunc(func(context.Context) ([]Tool, error) {
		lists.Add(1)
		all := searchCatalog()
		if second.Load() {
			all[2].Name, all[2].Description = "forecast", "Tomorrow's weather for a city."
		}
		return all, nil
	})
	s := NewServer(p, &Options{Logger: discard()})
	ctx := context.Background()
	if got, _ := s.SearchTools(ctx, "weather", 1); !slices.Equal(toolNames(got), []string{"getWeather"}) {
		t.Fatalf("first list: %v", toolNames(got))
	}
	second.Store(true)
	if got, _ := s.SearchTools(ctx, "tomorrow's weather", 1); !slices.Equal(toolNames(got), []string{"forecast"}) {
		t.Errorf("changed list: %v", toolNames(got))
	}
}

// The lists of tools that have one (the explorer's /tools, qmcp's
// /v1/tools) take ?search= and ?limit=, alike: the best matches, best
// first; a limit out of range is refused with a JSON error, with the
// status the list's surface refuses a bad query with (the explorer's 400,
// /v1's 422).
func TestListSearchOnEveryList(t *testing.T) {
	s := NewServer(searchCatalog(), &Options{Logger: discard()})
	for _, l := range []struct {
		path   string
		status int // of a bad limit
		names  func(response) []string
	}{
		{"/tools", 400, func(r response) []string {
			var out []struct{ Name string }
			r.decode(t, &out)
			var names []string
			for _, x := range out {
				names = append(names, x.Name)
			}
			return names
		}},
		{"/v1/tools", 422, func(r response) []string {
			var out struct{ Tools []struct{ Name string } }
			r.decode(t, &out)
			var names []string
			for _, x := range out.Tools {
				names = append(names, x.Name)
			}
			return names
		}},
	} {
		t.Run(l.path, func(t *testing.T) {
			if got := l.names(do(t, s, "GET", l.path+"?search=refund+an+order&limit=1", "")); !slices.Equal(got, []string{"refund_order"}) {
				t.Errorf("search: %v", got)
			}
			if got := l.names(do(t, s, "GET", l.path+"?search=weather", "")); !slices.Equal(got, []string{"getWeather"}) {
				t.Errorf("search without a limit: %v", got)
			}
			if got := l.names(do(t, s, "GET", l.path, "")); len(got) != 4 {
				t.Errorf("without a search, every tool: %v", got)
			}
			if got := l.names(do(t, s, "GET", l.path+"?search=", "")); len(got) != 0 {
				t.Errorf("an empty search: %v", got)
			}
			for _, bad := range []string{"0", "101", "x"} {
				r := do(t, s, "GET", l.path+"?search=order&limit="+bad, "")
				if r.status != l.status || !strings.Contains(r.body, "limit is a number from 1 to 100") {
					t.Errorf("limit %s: %d %s", bad, r.status, r.body)
				}
			}
			// A query that cannot be read whole is refused, not read as
			// one without the pair it could not parse.
			for _, bad := range []string{"?search=order&limit=%zz", "?search=order&limit=1;x=2"} {
				r := do(t, s, "GET", l.path+bad, "")
				if r.status != l.status || !strings.Contains(r.body, "The query string cannot be read: a bad %-escape or a ';' in it.") {
					t.Errorf("%s: %d %s", bad, r.status, r.body)
				}
			}
		})
	}
}

// The search's relevance on real catalogs: the GitHub MCP server's tools,
// and a mixed catalog of 221 tools of four servers, with requests written
// as an agent would make them (testdata/catalogs, committed before the
// search was measured on them). The share of requests with a right tool
// in the top 3 is printed (go test -v) and kept in BENCHMARKS.md; the
// test fails below relevanceFloor, the aim of issue #45, so that a change
// that makes it worse shows.
func TestSearchRelevance(t *testing.T) {
	const relevanceFloor = 0.90 // the aim of issue #45
	for _, dir := range []string{"github-mcp-server", "mixed"} {
		t.Run(dir, func(t *testing.T) {
			hits, total, tools := relevance(t, filepath.Join("testdata/catalogs", dir))
			share := float64(hits) / float64(total)
			t.Logf("relevance: a right tool in the top 3 for %d of %d requests (%.0f%%) over %d tools", hits, total, 100*share, tools)
			if share < relevanceFloor {
				t.Errorf("relevance %.0f%%, below the floor of %.0f%%", 100*share, 100*relevanceFloor)
			}
		})
	}
}

// relevance searches the catalog of dir with its requests, and counts
// those with a right tool in the top 3.
func relevance(t *testing.T, dir string) (hits, total, tools int) {
	var catalog []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations struct {
			Title string `json:"title"`
		} `json:"annotations"`
	}
	var queries []struct {
		Query string   `json:"query"`
		Want  []string `json:"want"`
	}
	for name, v := range map[string]any{"tools.json": &catalog, "queries.json": &queries} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	h := func(context.Context, json.RawMessage) (*Result, error) { return TextResult(""), nil }
	list := make(ToolList, len(catalog))
	for i, c := range catalog {
		list[i] = Tool{Name: c.Name, Title: c.Annotations.Title, Description: c.Description, InputSchema: c.InputSchema, Handler: h}
	}
	if len(list) < 100 || len(queries) < 50 {
		t.Fatalf("%d tools, %d queries", len(list), len(queries))
	}
	s := NewServer(list, &Options{Logger: discard()})
	for _, q := range queries {
		found, err := s.SearchTools(context.Background(), q.Query, 3)
		if err != nil {
			t.Fatal(err)
		}
		got := toolNames(found)
		if slices.ContainsFunc(got, func(n string) bool { return slices.Contains(q.Want, n) }) {
			hits++
		} else {
			t.Logf("miss: %q: %v, want one of %v", q.Query, got, q.Want)
		}
	}
	return hits, len(queries), len(list)
}
