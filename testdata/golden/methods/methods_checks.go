package methods

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func invoke(t *testing.T, srv *runtime.Server, tool, args string) *runtime.Outcome {
	t.Helper()
	return srv.Invoke(context.Background(), &runtime.Call{Tool: tool, Arguments: json.RawMessage(args)})
}

func text(out *runtime.Outcome) string {
	if out.Result == nil || len(out.Result.Content) == 0 {
		return ""
	}
	return out.Result.Content[0].Text
}

// Each handler calls the method on the value whose Tools made it: a
// method tool reaches that value's data, without package globals.
func TestMethodTools(t *testing.T) {
	a := &Store{Notes: map[string]string{"x": "one"}, Prefix: "a:"}
	b := &Store{Notes: map[string]string{"x": "two"}, Prefix: "b:"}
	srvA := runtime.NewServer(a.Tools(), nil)
	srvB := runtime.NewServer(b.Tools(), nil)
	if got := text(invoke(t, srvA, "get_note", `{"key":"x"}`)); got != "a:one" {
		t.Errorf("a's get_note = %q", got)
	}
	if got := text(invoke(t, srvB, "get_note", `{"key":"x"}`)); got != "b:two" {
		t.Errorf("b's get_note = %q", got)
	}
	if out := invoke(t, srvA, "put_note", `{"key":"y","text":"new"}`); out.Status != runtime.StatusOK {
		t.Fatalf("put_note: %v %v", out.Status, out.Err)
	}
	if a.Notes["y"] != "new" || len(b.Notes) != 1 {
		t.Errorf("put_note wrote to the wrong store: a=%v b=%v", a.Notes, b.Notes)
	}
	if got := text(invoke(t, srvA, "count_notes", `{}`)); got != "2" {
		t.Errorf("count_notes (value receiver) = %q", got)
	}
	g := Greeter("Hello")
	if got := text(invoke(t, runtime.NewServer(g.Tools(), nil), "greet", `{"key":"Ada"}`)); got != "Hello, Ada" {
		t.Errorf("greet = %q", got)
	}
	var names []string
	for _, tl := range Tools() {
		names = append(names, tl.Name)
	}
	if len(names) != 1 || names[0] != "shout" {
		t.Errorf("the package's Tools lists %v, want only the function shout", names)
	}
}
