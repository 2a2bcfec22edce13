package toolsearch

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	for in, want := range map[string][]string{
		"getHTTPStatus":            {"get", "http", "status"},
		"list_open_pull_requests":  {"list", "open", "pull", "request"},
		"Refunds the last order":   {"refund", "last", "order"},
		"refunded, refunding":      {"refund", "refund"},
		"categories of a category": {"categori", "categori"},
		"created creating creates": {"create", "create", "create"},
		"stopped stops":            {"stop", "stop"},
		"sendEmail2User":           {"send", "email2", "user"},
		"Schlüssel ÜBER straße":    {"schlüssel", "über", "straße"},
		"the a of to":              nil,
		"":                         nil,
	} {
		if got := Terms(in); !slices.Equal(got, want) {
			t.Errorf("Terms(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSearch(t *testing.T) {
	docs := [][]Field{
		{{"refund_order", 3, true}, {"Refunds an order, in full or in part.", 1, false}, {"order_id amount", 1.5, false}},
		{{"list_orders", 3, true}, {"Lists a customer's orders, newest first.", 1, false}, {"customer_id", 1.5, false}},
		{{"get_weather", 3, true}, {"Current weather for a city.", 1, false}, {"city units", 1.5, false}},
		{{"create_refund_policy", 3, true}, {"Creates a policy that says which orders may be refunded.", 1, false}},
	}
	ix := New(docs)
	hits := ix.Search("refund the last order of a customer", 10, nil)
	if len(hits) < 3 || hits[0].Doc != 0 {
		t.Fatalf("hits %+v, want refund_order first", hits)
	}
	for _, h := range hits {
		if h.Doc == 2 {
			t.Errorf("get_weather matched: %+v", hits)
		}
	}
	if hits := ix.Search("weather in Paris", 1, nil); len(hits) != 1 || hits[0].Doc != 2 {
		t.Errorf("weather: %+v", hits)
	}
	if hits := ix.Search("refund", 5, func(d int) bool { return d != 0 }); len(hits) != 1 || hits[0].Doc != 3 {
		t.Errorf("kept: %+v", hits)
	}
	if hits := ix.Search("nothing matches this", 5, nil); len(hits) != 0 {
		t.Errorf("no match: %+v", hits)
	}
	if hits := New(nil).Search("refund", 5, nil); hits != nil {
		t.Errorf("empty index: %+v", hits)
	}
}

// A query's words bring their synonyms in, at half weight: "remove" finds
// what a catalog calls delete, "open" what it calls create.
func TestSynonyms(t *testing.T) {
	ix := New([][]Field{
		{{"delete_customer", 3, true}, {"Deletes a customer and their data.", 1, false}},
		{{"create_issue", 3, true}, {"Creates an issue.", 1, false}},
		{{"get_customer", 3, true}, {"Gets a customer.", 1, false}},
	})
	if hits := ix.Search("remove this customer", 1, nil); len(hits) != 1 || hits[0].Doc != 0 {
		t.Errorf("remove: %+v", hits)
	}
	if hits := ix.Search("open an issue", 1, nil); len(hits) != 1 || hits[0].Doc != 1 {
		t.Errorf("open: %+v", hits)
	}
	if hits := ix.Search("customer", 3, nil); len(hits) != 2 {
		t.Errorf("a synonym is not added to a query without one: %+v", hits)
	}
}
