package params

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func call(t *testing.T, tools runtime.ToolList, tool, args string) (string, *runtime.Outcome) {
	t.Helper()
	out := runtime.NewServer(tools, nil).Invoke(context.Background(), &runtime.Call{Tool: tool, Arguments: json.RawMessage(args)})
	if out.Result == nil || len(out.Result.Content) == 0 {
		return "", out
	}
	return out.Result.Content[0].Text, out
}

func TestParams(t *testing.T) {
	cases := []struct{ tool, args, want string }{
		// from is optional (it has a default) and gets it.
		{"convert", `{"value":1,"to":"fahrenheit"}`, "1 celsius to fahrenheit"},
		{"convert", `{"value":1,"from":"fahrenheit","to":"celsius"}`, "1 fahrenheit to celsius"},
		{"repeat", `{"word":"ab","tags":[]}`, "ab-ab-"},
		{"repeat", `{"word":"ab","times":1,"sep":" ","upper":true,"tags":["t"]}`, "AB t"},
	}
	for _, c := range cases {
		if got, out := call(t, Tools(), c.tool, c.args); got != c.want {
			t.Errorf("%s(%s) = %q (%v %v), want %q", c.tool, c.args, got, out.Err, out.Issues(), c.want)
		}
	}
	// The keywords are in the schema: each is checked before the call.
	for _, args := range []string{
		`{"value":-500,"to":"celsius"}`,
	} {
		if _, out := call(t, Tools(), "convert", args); out.Status != runtime.StatusInvalid {
			t.Errorf("convert(%s): %v, want invalid", args, out.Status)
		}
	}
	for _, args := range []string{
		`{"word":"","tags":[]}`, `{"word":"A1","tags":[]}`, `{"word":"a","times":11,"tags":[]}`,
		`{"word":"a","sep":"*","tags":[]}`, `{"word":"a","tags":["1","2","3","4"]}`,
		`{"word":"a"}`, // tags has a default but is required
	} {
		if _, out := call(t, Tools(), "repeat", args); out.Status != runtime.StatusInvalid {
			t.Errorf("repeat(%s): %v, want invalid", args, out.Status)
		}
	}
	if got, _ := call(t, (&Box{Prefix: "box: "}).Tools(), "label", `{}`); got != "box: fragile" {
		t.Errorf("label = %q", got)
	}
}
