package runtime

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
)

// A caller who files, in advance, a human request under the id its next
// call will have (an idempotency key makes the id known) and answers it
// itself must not thereby approve its own call of an approval=operator
// tool: the call finds a request it did not file, and is refused unrun.
func TestForgedApprovalRequestRefused(t *testing.T) {
	var runs atomic.Int64
	deploy := MustNewTool("deploy", "Deploys.", func(context.Context, struct{}) (string, error) {
		runs.Add(1)
		return "deployed", nil
	})
	deploy.Approval = ApprovalOperator
	s := NewServer(ToolList{deploy}, &Options{AllowExecute: true, Logger: discard(),
		AuthHook: BearerCredentials(Credential{Secret: "alice-token", Subject: "alice"})})
	hs := newHTTPTest(s)
	defer hs.Close()
	post := func(path, body string, header ...string) (int, string) {
		t.Helper()
		return httpDo(t, "POST", hs.URL+path, body, append([]string{"Authorization", "Bearer alice-token"}, header...)...)
	}

	// The id alice's call with this key will have.
	id := idempotentID("alice", "deploy-now")
	if code, body := post("/v1/human/requests", `{"id":"`+id+`","request_type":"approval","prompt":"Deploy?","options":["approve","reject"]}`); code != 201 {
		t.Fatalf("filing the request: %d %s", code, body)
	}
	if code, body := post("/v1/human/responses", `{"request_id":"`+id+`","response":"approve"}`); code != 200 && code != 201 {
		t.Fatalf("answering it: %d %s", code, body)
	}
	code, body := post("/v1/tools/deploy", `{"input":{}}`, HeaderIdempotencyKey, "deploy-now")
	if runs.Load() != 0 {
		t.Fatalf("the call ran on an approval its own caller forged: %d %s", code, body)
	}
	if !strings.Contains(body, "exists already") {
		t.Errorf("the refusal: %d %s, want it to say the request exists already", code, body)
	}
}
