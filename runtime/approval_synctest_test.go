package runtime_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
)

// A call nobody approves in time fails, unrun; history says it expired.
// The approval timeout (an hour here) passes in a synctest bubble.
func TestOperatorApprovalExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var runs int
		deploy := runtime.MustNewTool("deploy", "Deploys.", func(_ context.Context, in deployArgs) (string, error) {
			runs++
			return "deployed to " + in.Env, nil
		})
		deploy.Approval = runtime.ApprovalOperator
		store := history.NewMemory(history.Retention{})
		s := runtime.NewServer(runtime.ToolList{deploy}, &runtime.Options{
			AuthHook:        runtime.BearerTokens("unused"), // callers are told apart: approvals need one
			ApprovalTimeout: time.Hour,
			History:         store,
			Logger:          discardLogger(),
		})
		ctx := runtime.WithPrincipal(context.Background(), &runtime.Principal{Subject: "agent"})
		start := time.Now()
		out := s.Invoke(ctx, &runtime.Call{Tool: "deploy", Arguments: []byte(`{"env":"prod"}`), Surface: runtime.SurfaceV1})
		if waited := time.Since(start); waited != time.Hour {
			t.Errorf("the call waited %v for its approval, want the timeout's hour", waited)
		}
		if out.Status != runtime.StatusFailed || runs != 0 || !strings.Contains(out.Result.ErrorText(), "Nobody approved the call of deploy within 1h0m0s; it was not run.") {
			t.Fatalf("an unanswered call: %s %q, ran %d times", out.Status, out.Result.ErrorText(), runs)
		}
		rec, err := store.Get(ctx, out.InvocationID)
		if err != nil || rec.Status != "failed" || rec.Approval == nil || rec.Approval.Decision != "expired" {
			t.Errorf("the record: %+v %v", rec, err)
		}
		req, _, err := store.GetRequest(ctx, out.InvocationID)
		if err != nil || req.Status != history.RequestExpired {
			t.Errorf("the request: %+v %v", req, err)
		}
	})
}
