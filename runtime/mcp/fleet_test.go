package mcp

import (
	"context"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/history"
	"github.com/toolgen-go/toolgen/runtime/history/postgres"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// Two replicas on one PostgreSQL with one state key (serve's
// -state-key-file): an input-required round started on one is retried on
// the other, and both rounds are in the history either reads.
func TestInputRoundAcrossReplicas(t *testing.T) {
	dsn := servertest.PostgresDSN(t, "fleet")
	var runs atomic.Int32
	key := []byte("the fleet's one key, long enough")
	replica := func() (*runtime.Server, history.Store) {
		st, err := postgres.Open(context.Background(), dsn, history.Retention{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return newTestServer(askTools(&runs), &runtime.Options{Logger: discard(), History: st}, &Options{Stateless: true, StateKey: key}), st
	}
	a, _ := replica()
	b, bStore := replica()
	ctx := context.Background()
	p := &sdk.CallToolParams{Name: "survey", Arguments: map[string]any{"topic": "t"}}
	r1, err := statelessClient(t, a, elicitCaps()).CallTool(ctx, p)
	if err != nil || !r1.NeedsInput() {
		t.Fatal(mustJSON(t, r1), err)
	}
	p.InputResponses = sdk.InputResponseMap{"elicitation-1": accepted(map[string]any{"name": "Ada"})}
	p.RequestState = r1.RequestState
	r2, err := statelessClient(t, b, elicitCaps()).CallTool(ctx, p)
	if err != nil || r2.InputRequests["elicitation-2"] == nil {
		t.Fatalf("the round retried on the other replica: %v %v", mustJSON(t, r2), err)
	}
	recs, total, err := bStore.List(ctx, history.Filter{Tool: "survey"})
	if err != nil || total != 2 || len(recs) != 2 {
		t.Errorf("the rounds in the shared history: %d records, %v", total, err)
	}
}
