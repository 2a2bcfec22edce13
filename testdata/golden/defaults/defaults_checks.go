package defaults

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// call runs a tool through the server's one pipeline, as every surface
// does, and returns the input the function saw.
func call(t *testing.T, tools runtime.ToolList, tool, args string) any {
	t.Helper()
	last = nil
	out := runtime.NewServer(tools, nil).Invoke(context.Background(), &runtime.Call{Tool: tool, Arguments: json.RawMessage(args)})
	if out.Status != runtime.StatusOK {
		t.Fatalf("%s(%s): %v %v %v", tool, args, out.Status, out.Err, out.Issues())
	}
	return last
}

func ptr[T any](v T) *T { return &v }

func TestPrefilled(t *testing.T) {
	for _, tools := range []runtime.ToolList{Tools(), (&Store{}).Tools()} {
		name := tools[0].Name
		got := call(t, tools, name, `{"query":"q"}`)
		want := SearchInput{Paging: Paging{Page: 1}, Query: "q", Level: Info, Limit: 10, Ratio: 0.5, Scale: 2500, Count: 7, Tally: ptr(int64(9)), Format: Format{Indent: 2, Pretty: true}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: left out:\n got %+v\nwant %+v", name, got, want)
		}
		// Given, even as zero values, they stay as given.
		got = call(t, tools, name, `{"query":"q","page":0,"level":"debug","limit":0,"ratio":0,"scale":0,"count":"0","tally":"0","format":{"indent":0,"pretty":false}}`)
		want = SearchInput{Query: "q", Level: Debug, Tally: ptr(int64(0))}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: given as zero:\n got %+v\nwant %+v", name, got, want)
		}
		// A nested object given in part gets the defaults of the rest.
		got = call(t, tools, name, `{"query":"q","format":{"indent":4}}`)
		if f := got.(SearchInput).Format; f != (Format{Indent: 4, Pretty: true}) {
			t.Errorf("%s: format given in part: %+v", name, f)
		}
	}
}

func TestAfterDecoding(t *testing.T) {
	due := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	got := call(t, Tools(), "order", `{
		"items": [{"name":"a"}, {"name":"b","qty":0,"options":{}}],
		"boxes": {"x": {"name":"c","options":{"note":""}}},
		"grid": [[{"name":"d"}, {"name":"e","qty":3}]],
		"shipping": {"gift":false}
	}`).(*OrderInput)
	want := &OrderInput{
		Extra: &Extra{Channel: "web"},
		Items: []Item{{Name: "a", Qty: 1}, {Name: "b", Qty: 0, Options: &Options{Gift: true, Note: "none"}}},
		Boxes: map[string]Item{"x": {Name: "c", Qty: 1, Options: &Options{Gift: true, Note: ""}}},
		Grid:  [][2]*Item{{{Name: "d", Qty: 1}, {Name: "e", Qty: 3}}},
		// A pointer the call gave gets defaults inside it.
		Shipping: &Options{Gift: false, Note: "none"},
		Tags:     []string{"new"},
		Due:      due,
		Meta:     map[string]any{"a": float64(1)},
		Raw:      json.RawMessage(`[1]`),
		Retries:  ptr(3),
		First:    Item{Name: "sample", Qty: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("left out:\n got %+v\nwant %+v", got, want)
	}

	// Given, they stay as given; a pointer left out stays nil.
	got = call(t, Tools(), "order", `{"channel":"","items":[],"tags":[],"due":"2020-01-01T00:00:00Z","meta":null,"raw":{},"retries":0,"first":{"name":"x","qty":5}}`).(*OrderInput)
	want = &OrderInput{
		Extra: &Extra{Channel: ""},
		Items: []Item{},
		Tags:  []string{},
		Due:   time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC),
		Raw:   json.RawMessage(`{}`),
		// Retries, given as 0.
		Retries: ptr(0),
		First:   Item{Name: "x", Qty: 5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("given:\n got %+v\nwant %+v", got, want)
	}
	// A whole number written as 2.0 still decodes, and defaults still apply.
	got = call(t, Tools(), "order", `{"items":[{"name":"a","qty":2.0},{"name":"b"}]}`).(*OrderInput)
	if got.Items[0].Qty != 2 || got.Items[1].Qty != 1 {
		t.Errorf("items with 2.0: %+v", got.Items)
	}
}

// A recursive type gets defaults at every depth.
func TestRecursive(t *testing.T) {
	thread := call(t, Tools(), "thread", `{"comments":[{"replies":[{"votes":5,"replies":[{}]}]}]}`)
	wantThread := ThreadInput{Comments: Comments{{Votes: 1, Replies: Comments{{Votes: 5, Replies: Comments{{Votes: 1}}}}}}}
	if !reflect.DeepEqual(thread, wantThread) {
		t.Errorf("thread:\n got %+v\nwant %+v", thread, wantThread)
	}
	got := call(t, Tools(), "tree", `{"children":[{"label":"x","children":[{}]},{}]}`)
	want := Node{Label: "leaf", Children: []Node{{Label: "x", Children: []Node{{Label: "leaf"}}}, {Label: "leaf"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
