package collisions

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type h struct{ UnimplementedHandlers }

func (h) ListIssues(_ context.Context, in ListIssuesInput) (ListIssuesOutput, error) {
	out := ListIssuesOutput{}
	if in.Reaction == ListIssuesInputReactionMinus1 && in.Sort == ListIssuesInputSortReactionsPlus1 && in.M == ListIssuesInputMAB2 && in.UserID2 == "camel" && in.Kind == ListIssuesInput2Output {
		out.Minus1 = 1
	}
	return out, nil
}

func (h) GetX2(context.Context, GetX2Input) (*runtime.Result, error) {
	return runtime.TextResult("the other x"), nil
}

// TestCollisions: the values named apart decode to their own constants and
// fields, and each tool reaches its own method.
func TestCollisions(t *testing.T) {
	tools := Tools(h{})
	res, err := tools[0].Handler(context.Background(), json.RawMessage(`{"reaction":"-1","sort":"reactions-+1","m":"a_b","userId":"camel","kind":"output"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.StructuredContent.(json.RawMessage)); got != `{"-1":1}` {
		t.Errorf("list_issues: %s", got)
	}
	if ListIssuesInputReactionPlus1 != "+1" || ListIssuesInputSortReactionsMinus1 != "reactions--1" || ListIssuesInputMAB != "a-b" || ListIssuesInput2Input != "input" {
		t.Error("constants")
	}
	res, err = tools[2].Handler(context.Background(), nil)
	if err != nil || tools[2].Name != "get-x" || res.Content[0].Text != "the other x" {
		t.Errorf("get-x: %v %v", res, err)
	}
}
