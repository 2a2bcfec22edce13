// Package golden_test runs the checks of every golden case in one test
// binary: each case keeps its checks beside its code (in a file the
// generator reads like any other, whose functions no directive marks as
// tools), and linking one binary for all of them is what keeps
// TestGolden's compile step to one build (go test ./gen runs this). A
// check that a code-first case and its tools.yaml twin share is here,
// once, run on each.
package golden_test

import (
	"slices"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"

	basictypes "github.com/toolgen-go/toolgen/testdata/golden/basic_types"
	client "github.com/toolgen-go/toolgen/testdata/golden/client"
	collections "github.com/toolgen-go/toolgen/testdata/golden/collections"
	defaults "github.com/toolgen-go/toolgen/testdata/golden/defaults"
	forms "github.com/toolgen-go/toolgen/testdata/golden/forms"
	many "github.com/toolgen-go/toolgen/testdata/golden/many"
	methods "github.com/toolgen-go/toolgen/testdata/golden/methods"
	params "github.com/toolgen-go/toolgen/testdata/golden/params"
	policy "github.com/toolgen-go/toolgen/testdata/golden/policy"
	prompts "github.com/toolgen-go/toolgen/testdata/golden/prompts"
	results "github.com/toolgen-go/toolgen/testdata/golden/results"
	secrets "github.com/toolgen-go/toolgen/testdata/golden/secrets"
	signatures "github.com/toolgen-go/toolgen/testdata/golden/signatures"
	structs "github.com/toolgen-go/toolgen/testdata/golden/structs"
	yamlbasic "github.com/toolgen-go/toolgen/testdata/golden/yaml_basic"
	yamlclient "github.com/toolgen-go/toolgen/testdata/golden/yaml_client"
	yamlcollisions "github.com/toolgen-go/toolgen/testdata/golden/yaml_collisions"
	yamldefaults "github.com/toolgen-go/toolgen/testdata/golden/yaml_defaults"
	yamldefs "github.com/toolgen-go/toolgen/testdata/golden/yaml_defs"
	yamlmany "github.com/toolgen-go/toolgen/testdata/golden/yaml_many"
	yamlnames "github.com/toolgen-go/toolgen/testdata/golden/yaml_names"
	yamlpolicy "github.com/toolgen-go/toolgen/testdata/golden/yaml_policy"
	yamlprompts "github.com/toolgen-go/toolgen/testdata/golden/yaml_prompts"
	yamlsecrets "github.com/toolgen-go/toolgen/testdata/golden/yaml_secrets"
	yamlshared "github.com/toolgen-go/toolgen/testdata/golden/yaml_shared"
	yamltypes "github.com/toolgen-go/toolgen/testdata/golden/yaml_types"
)

func TestCases(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func(*testing.T)
	}{
		{"basic_types/TestEcho", basictypes.TestEcho},
		{"client/TestClient", client.TestClient},
		{"collections/TestHandlers", collections.TestHandlers},
		{"defaults/TestPrefilled", defaults.TestPrefilled},
		{"defaults/TestAfterDecoding", defaults.TestAfterDecoding},
		{"defaults/TestRecursive", defaults.TestRecursive},
		{"many/TestMany", many.TestMany},
		{"methods/TestMethodTools", methods.TestMethodTools},
		{"params/TestParams", params.TestParams},
		{"policy/TestPolicy", func(t *testing.T) { checkPolicy(t, policy.Tools()) }},
		{"prompts/TestPrompts", prompts.TestPrompts},
		{"forms/TestForms", forms.TestForms},
		{"results/TestResults", results.TestResults},
		{"secrets/TestSecrets", func(t *testing.T) { checkSecrets(t, secrets.Tools()) }},
		{"signatures/TestSignatures", signatures.TestSignatures},
		{"structs/TestInspect", structs.TestInspect},
		{"yaml_basic/TestBasic", yamlbasic.TestBasic},
		{"yaml_client/TestClient", yamlclient.TestClient},
		{"yaml_collisions/TestCollisions", yamlcollisions.TestCollisions},
		{"yaml_defaults/TestYAMLDefaults", yamldefaults.TestYAMLDefaults},
		{"yaml_defs/TestDefs", yamldefs.TestDefs},
		{"yaml_many/TestMany", yamlmany.TestMany},
		{"yaml_names/TestNames", yamlnames.TestNames},
		{"yaml_policy/TestPolicy", func(t *testing.T) { checkPolicy(t, yamlpolicy.Tools(yamlpolicy.UnimplementedHandlers{})) }},
		{"yaml_prompts/TestTemplatePrompt", yamlprompts.TestTemplatePrompt},
		{"yaml_secrets/TestSecrets", func(t *testing.T) { checkSecrets(t, yamlsecrets.Tools(yamlsecrets.UnimplementedHandlers{})) }},
		{"yaml_shared/TestShared", yamlshared.TestShared},
		{"yaml_types/TestTypes", yamltypes.TestTypes},
	} {
		t.Run(c.name, c.check)
	}
}

// checkPolicy checks the policy cases' tools (policy, and yaml_policy, its
// tools.yaml twin): each tool's scopes, rate limit, timeout, approval and
// task support as declared.
func checkPolicy(t *testing.T, tools runtime.ToolList) {
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

// checkSecrets checks the secrets cases' tools (secrets, yaml_secrets):
// each tool's declared secrets, in order.
func checkSecrets(t *testing.T, tools runtime.ToolList) {
	want := map[string][]string{
		"forecast": {"WEATHER_API_KEY"},
		"sync":     {"SOURCE_TOKEN", "_target_token2"},
		"local":    nil,
	}
	for _, tool := range tools {
		if !slices.Equal(tool.Secrets, want[tool.Name]) {
			t.Errorf("%s: Secrets = %q, want %q", tool.Name, tool.Secrets, want[tool.Name])
		}
	}
}
