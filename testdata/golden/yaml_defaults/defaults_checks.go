package defaults

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

type recorder struct {
	UnimplementedHandlers
	last any
}

func (r *recorder) Search(ctx context.Context, in SearchInput) (*runtime.Result, error) {
	r.last = in
	return runtime.TextResult("ok"), nil
}

func (r *recorder) Order(ctx context.Context, in OrderInput) (*runtime.Result, error) {
	r.last = in
	return runtime.TextResult("ok"), nil
}

func call(t *testing.T, tool, args string) any {
	t.Helper()
	r := &recorder{}
	out := runtime.NewServer(Tools(r), nil).Invoke(context.Background(), &runtime.Call{Tool: tool, Arguments: json.RawMessage(args)})
	if out.Status != runtime.StatusOK {
		t.Fatalf("%s(%s): %v %v %v", tool, args, out.Status, out.Err, out.Issues())
	}
	return r.last
}

func TestYAMLDefaults(t *testing.T) {
	got := call(t, "search", `{"query":"q","format":{"indent":4}}`)
	want := SearchInput{Query: "q", Limit: 10, Level: SearchInputLevelInfo, Ratio: 0.5, Exact: true, Format: SearchInputFormat{Indent: 4}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("search, left out:\n got %+v\nwant %+v", got, want)
	}
	got = call(t, "search", `{"query":"q","limit":0,"level":"debug","ratio":0,"exact":false,"format":{"indent":0}}`)
	want = SearchInput{Query: "q", Level: SearchInputLevelDebug}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("search, given:\n got %+v\nwant %+v", got, want)
	}

	got = call(t, "order", `{"items":[{"name":"a"},{"name":"b","qty":0}],"boxes":{"x":{},"y":{"size":"l"}},"shipping":{}}`)
	wantOrder := OrderInput{
		Items:    []OrderInputItemsItem{{Name: "a", Qty: 1}, {Name: "b", Qty: 0}},
		Boxes:    map[string]OrderBox{"x": {Size: OrderBoxSizeM}, "y": {Size: OrderBoxSizeL}},
		Shipping: &OrderInputShipping{Gift: true},
		Tags:     []string{"new"},
		Due:      time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Meta:     json.RawMessage(`{"a":1}`),
	}
	if !reflect.DeepEqual(got, wantOrder) {
		t.Errorf("order, left out:\n got %+v\nwant %+v", got, wantOrder)
	}
	got = call(t, "order", `{"tags":[],"meta":null}`)
	wantOrder = OrderInput{Tags: []string{}, Meta: json.RawMessage(`null`), Due: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if !reflect.DeepEqual(got, wantOrder) {
		t.Errorf("order, given:\n got %+v\nwant %+v", got, wantOrder)
	}
}
