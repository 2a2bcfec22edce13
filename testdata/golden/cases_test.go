// Package golden_test runs the checks of every golden case in one test
// binary: each case keeps its checks beside its code (in a file the
// generator reads like any other, whose functions no directive marks as
// tools), and linking one binary for all of them is what keeps
// TestGolden's compile step to one build (go test ./gen runs this).
package golden_test

import (
	"testing"

	basictypes "github.com/toolgen-go/toolgen/testdata/golden/basic_types"
	client "github.com/toolgen-go/toolgen/testdata/golden/client"
	collections "github.com/toolgen-go/toolgen/testdata/golden/collections"
	defaults "github.com/toolgen-go/toolgen/testdata/golden/defaults"
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
	yamldefaults "github.com/toolgen-go/toolgen/testdata/golden/yaml_defaults"
	yamldefs "github.com/toolgen-go/toolgen/testdata/golden/yaml_defs"
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
		{"methods/TestMethodTools", methods.TestMethodTools},
		{"params/TestParams", params.TestParams},
		{"policy/TestPolicy", policy.TestPolicy},
		{"prompts/TestPrompts", prompts.TestPrompts},
		{"results/TestResults", results.TestResults},
		{"secrets/TestSecrets", secrets.TestSecrets},
		{"signatures/TestSignatures", signatures.TestSignatures},
		{"structs/TestInspect", structs.TestInspect},
		{"yaml_basic/TestBasic", yamlbasic.TestBasic},
		{"yaml_client/TestClient", yamlclient.TestClient},
		{"yaml_defaults/TestYAMLDefaults", yamldefaults.TestYAMLDefaults},
		{"yaml_defs/TestDefs", yamldefs.TestDefs},
		{"yaml_names/TestNames", yamlnames.TestNames},
		{"yaml_policy/TestPolicy", yamlpolicy.TestPolicy},
		{"yaml_prompts/TestTemplatePrompt", yamlprompts.TestTemplatePrompt},
		{"yaml_secrets/TestSecrets", yamlsecrets.TestSecrets},
		{"yaml_shared/TestShared", yamlshared.TestShared},
		{"yaml_types/TestTypes", yamltypes.TestTypes},
	} {
		t.Run(c.name, c.check)
	}
}
