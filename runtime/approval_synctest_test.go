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

// A repeat that waited for the call it repeats, refused at its approval,
// runs as a call of its own from then on: its record's time is when it
// went on (its deadline counts from there), not when it arrived. The
// approvals' hours pass in a synctest bubble.
func TestRetryAfterRefusedApprovalStartsAnew(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		deploy := runtime.MustNewTool("deploy", "Deploys.", func(_ context.Context, in deployArgs) (string, error) {
			return "deployed to " + in.Env, nil
		})
		deploy.Approval = runtime.ApprovalOperator
		store := history.NewMemory(history.Retention{})
		s := runtime.NewServer(runtime.ToolList{deploy}, &runtime.Options{
			AuthHook:        runtime.BearerTokens("unused"),
			ApprovalTimeout: time.Hour,
			History:         store,
			Logger:          discardLogger(),
		})
		ctx := runtime.WithPrincipal(context.Background(), &runtime.Principal{Subject: "agent"})
		call := func() *runtime.Outcome {
			return s.Invoke(ctx, &runtime.Call{Tool: "deploy", Arguments: []byte(`{"env":"prod"}`), Surface: runtime.SurfaceV1, IdempotencyKey: "k"})
		}
		start := time.Now()
		first := make(chan *runtime.Outcome)
		go func() { first <- call() }()
		time.Sleep(10 * time.Minute) // the first waits for its approval
		second := call()             // waits for the first, refused (expired), then for its own
		a := <-first
		if a.InvocationID == second.InvocationID || !strings.Contains(second.Result.ErrorText(), "Nobody approved") {
			t.Fatalf("first %s %q, second %s %q", a.InvocationID, a.Result.ErrorText(), second.InvocationID, second.Result.ErrorText())
		}
		rec, err := store.Get(ctx, second.InvocationID)
		if err != nil {
			t.Fatal(err)
		}
		if went := rec.CreatedAt.Sub(start); went < time.Hour {
			t.Errorf("the retry's record is of %v after the first call, want the hour it went on at", went)
		}
	})
}
