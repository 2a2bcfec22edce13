package policy

import (
	"slices"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestPolicy(t *testing.T) {
	want := map[string]struct {
		scopes  []string
		rate    runtime.Rate
		timeout time.Duration
	}{
		"read_issue":  {scopes: []string{"issues:read"}},
		"close_issue": {[]string{"issues:write", "admin"}, runtime.Rate{N: 10, Per: time.Minute}, 30 * time.Second},
		"export":      {rate: runtime.Rate{N: 1, Per: time.Hour}, timeout: 90 * time.Minute},
		"ping":        {},
	}
	for _, tool := range Tools() {
		w := want[tool.Name]
		if !slices.Equal(tool.Scopes, w.scopes) || tool.RateLimit != w.rate || tool.Timeout != w.timeout {
			t.Errorf("%s: %q %v %s, want %q %v %s", tool.Name, tool.Scopes, tool.RateLimit, tool.Timeout, w.scopes, w.rate, w.timeout)
		}
	}
}
