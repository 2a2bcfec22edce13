package secrets

import (
	"slices"
	"testing"
)

func TestSecrets(t *testing.T) {
	want := map[string][]string{
		"forecast": {"WEATHER_API_KEY"},
		"sync":     {"SOURCE_TOKEN", "_target_token2"},
		"local":    nil,
	}
	for _, tool := range Tools(UnimplementedHandlers{}) {
		if !slices.Equal(tool.Secrets, want[tool.Name]) {
			t.Errorf("%s: Secrets = %q, want %q", tool.Name, tool.Secrets, want[tool.Name])
		}
	}
}
