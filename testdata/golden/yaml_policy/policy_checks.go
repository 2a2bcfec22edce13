package policy

import (
	"slices"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestPolicy(t *testing.T) {
	want := map[string]struct {
		scopes   []string
		rate     runtime.Rate
		timeout  time.Duration
		approval runtime.Approval
		task     runtime.TaskSupport
	}{
		"read_issue":  {scopes: []string{"issues:read"}},
		"close_issue": {[]string{"issues:write", "admin"}, runtime.Rate{N: 10, Per: time.Minute}, 30 * time.Second, runtime.ApprovalOperator, ""},
		"export":      {rate: runtime.Rate{N: 1, Per: time.Hour}, timeout: 90 * time.Minute, task: runtime.TaskOptional},
		"delete":      {approval: runtime.ApprovalClient, task: runtime.TaskRequired},
		"ping":        {},
	}
	tools := Tools(UnimplementedHandlers{})
	if len(tools) != len(want) {
		t.Errorf("%d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		w := want[tool.Name]
		if !slices.Equal(tool.Scopes, w.scopes) || tool.RateLimit != w.rate || tool.Timeout != w.timeout || tool.Approval != w.approval || tool.Task != w.task {
			t.Errorf("%s: %q %v %s %q %q, want %q %v %s %q %q", tool.Name, tool.Scopes, tool.RateLimit, tool.Timeout, tool.Approval, tool.Task, w.scopes, w.rate, w.timeout, w.approval, w.task)
		}
	}
}
