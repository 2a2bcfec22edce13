package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// Approval by the client (Tool.Approval = ApprovalClient): the calling
// client's user is asked first, by elicitation in a session, by an
// input-required result at 2026-07-28; a client that cannot ask is
// refused, and the tool never runs unasked.

func clientApprovalTool(runs *atomic.Int32) runtime.ToolList {
	return runtime.ToolList{{
		Name:     "send_mail",
		Approval: runtime.ApprovalClient,
		Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
			runs.Add(1)
			return runtime.TextResult("sent"), nil
		},
	}}
}

func TestClientApprovalInSession(t *testing.T) {
	var runs atomic.Int32
	s := runtime.NewServer(clientApprovalTool(&runs), &runtime.Options{AllowExecute: true, Logger: discard()})
	withAnswer := func(res *sdk.ElicitResult) *sdk.ClientSession {
		var asked atomic.Pointer[sdk.ElicitParams]
		cs := connect(t, s, &sdk.ClientOptions{ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked.Store(r.Params)
			return res, nil
		}})
		t.Cleanup(func() {
			if p := asked.Load(); p != nil && !strings.HasPrefix(p.Message, "Allow the tool send_mail to run with these arguments?") {
				t.Errorf("asked %q", p.Message)
			}
		})
		return cs
	}
	call := func(cs *sdk.ClientSession) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "send_mail", Arguments: map[string]any{"to": "ada"}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*sdk.TextContent).Text, res.IsError
	}

	if text, isErr := call(withAnswer(&sdk.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}})); isErr || text != "sent" || runs.Load() != 1 {
		t.Errorf("approved: %q %v, runs %d", text, isErr, runs.Load())
	}
	for _, no := range []*sdk.ElicitResult{
		{Action: "accept", Content: map[string]any{"approve": false}},
		{Action: "decline"},
		{Action: "cancel"},
	} {
		if text, isErr := call(withAnswer(no)); !isErr || text != "The user declined the call of send_mail; it was not run." || runs.Load() != 1 {
			t.Errorf("%+v: %q %v, runs %d", no, text, isErr, runs.Load())
		}
	}
	// A client that cannot elicit, and a surface with no client to ask.
	if text, isErr := call(connect(t, s, nil)); !isErr || text != "Tool send_mail runs only once its caller's user approves the call, and this client does not support elicitation; it was not run." {
		t.Errorf("no elicitation: %q %v", text, isErr)
	}
	do(t, s, "POST", "/tools/send_mail/call", `{}`).is(t, 500, `{"content":[{"type":"text","text":"Tool send_mail runs only once its caller's user approves the call, which only an MCP client that supports elicitation can ask; it was not run."}],"isError":true}`)
	if runs.Load() != 1 {
		t.Errorf("the tool ran unasked: %d runs", runs.Load())
	}
}

func TestClientApprovalInputRequired(t *testing.T) {
	var runs atomic.Int32
	s := newTestServer(clientApprovalTool(&runs), &runtime.Options{Logger: discard()}, &Options{Stateless: true})
	cs := statelessClient(t, s, elicitCaps())
	ctx := context.Background()
	r1, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "send_mail"})
	if err != nil || !r1.NeedsInput() || runs.Load() != 0 {
		t.Fatalf("round 1: %v %v", mustJSON(t, r1), err)
	}
	if q, ok := r1.InputRequests["elicitation-1"].(*sdk.ElicitParams); !ok || !strings.HasPrefix(q.Message, "Allow the tool send_mail") {
		t.Fatalf("round 1 asks %s", mustJSON(t, r1.InputRequests))
	}
	r2, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "send_mail", InputResponses: sdk.InputResponseMap{"elicitation-1": accepted(map[string]any{"approve": true})}, RequestState: r1.RequestState})
	if err != nil || r2.IsError || r2.Content[0].(*sdk.TextContent).Text != "sent" || runs.Load() != 1 {
		t.Fatalf("round 2: %v %v", mustJSON(t, r2), err)
	}

	_, err = statelessClient(t, s, &sdk.ClientCapabilities{}).CallTool(ctx, &sdk.CallToolParams{Name: "send_mail"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != sdk.CodeMissingRequiredClientCapabilities || string(je.Data) != `{"requiredCapabilities":{"elicitation":{}}}` {
		t.Errorf("without elicitation: %v", err)
	}
	if runs.Load() != 1 {
		t.Errorf("the tool ran unasked: %d runs", runs.Load())
	}
}
