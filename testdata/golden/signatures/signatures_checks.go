package signatures

import (
	"context"
	"encoding/json"
	"testing"
)

func TestSignatures(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "ctx:")
	cases := []struct {
		tool, args, want string
		isErr            bool
	}{
		{"full", `{"n":7}`, "ctx:7", false},
		{"pointer", `{"n":8}`, "8", false},
		{"flat", `{"a":1,"b":"-","c":[1,2],"d":{"x":true}}`, "ctx:1-3", false},
		{"clash", `{"x":4,"X":2}`, `42`, false},
		{"nothing", ``, "nothing", false},
		{"only_error", `{"n":1}`, "", false},
		{"only_error", `{"n":-1}`, "negative", true},
		{"no_result", `{"n":1}`, "", false},
		{"anonymous", `{"name":"anon"}`, "anon", false},
		{"single", `{"msg":"hi"}`, "hi", false},
		{"fallback", `{"p3":1,"y":2,"Y":3}`, "6", false},
	}
	byName := map[string]func(context.Context, json.RawMessage) (string, error){}
	for _, tool := range Tools() {
		h := tool.Handler
		byName[tool.Name] = func(ctx context.Context, args json.RawMessage) (string, error) {
			res, err := h(ctx, args)
			if err != nil {
				return err.Error(), err
			}
			if len(res.Content) == 0 {
				return "", nil
			}
			return res.Content[0].Text, nil
		}
	}
	for _, c := range cases {
		got, err := byName[c.tool](ctx, json.RawMessage(c.args))
		if got != c.want || (err != nil) != c.isErr {
			t.Errorf("%s(%s) = %q, %v; want %q", c.tool, c.args, got, err, c.want)
		}
	}
}
