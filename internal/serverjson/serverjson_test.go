package serverjson

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/internal/compile"
)

// Build's documents hold to the registry schema's rules for every member
// they have (testdata/registry-rules.schema.json restates them).
func TestBuildValid(t *testing.T) {
	src, err := os.ReadFile("testdata/registry-rules.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := compile.Schema(src)
	if err != nil {
		t.Fatal(err)
	}
	// The rules bite: what the registry refuses fails them.
	for _, bad := range []string{
		`{"name":"weather","description":"W.","version":"1"}`,
		`{"name":"a/b","description":"","version":"1"}`,
		`{"name":"a/b","description":"W.","version":"1","packages":[{"registryType":"oci","identifier":"x","version":"latest","transport":{"type":"stdio"}}]}`,
	} {
		var v any
		_ = json.Unmarshal([]byte(bad), &v)
		if schema.Validate(v) == nil {
			t.Errorf("the rules pass %s", bad)
		}
	}
	long := strings.Repeat("word ", 40)
	for _, info := range []Info{
		{Name: "io.github.toolgen-go/toolgen", Description: "Weather tools.", Version: "1.2.0", URL: "https://tools.example.com/mcp"},
		{Name: "com.example/weather", Description: Description(long), Version: "0.3.1", OCI: "ghcr.io/example/weather:0.3.1"},
		{Name: "com.example/weather", Description: "Both.", Version: "2.0.0", OCI: "docker.io/example/weather", URL: "http://localhost:8080/mcp"},
	} {
		b, err := Build(info)
		if err != nil {
			t.Fatalf("%+v: %v", info, err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%+v: %s\n%v", info, b, err)
		}
	}
	b, _ := Build(Info{Name: "com.example/w", Description: "W.", Version: "1.0.0", OCI: "docker.io/example/w"})
	if !strings.Contains(string(b), `"identifier": "docker.io/example/w"`) || !strings.Contains(string(b), `"version": "1.0.0"`) || !strings.Contains(string(b), `"name": "-stdio"`) {
		t.Errorf("an image without a tag: %s", b)
	}
}

// What the registry would refuse is refused, saying what to give.
func TestBuildRefuses(t *testing.T) {
	ok := Info{Name: "com.example/w", Description: "W.", Version: "1.0.0", URL: "https://x.example/mcp"}
	for _, tc := range []struct {
		name string
		edit func(*Info)
		want string
	}{
		{"no slash in the name", func(i *Info) { i.Name = "weather" }, "-server-name"},
		{"two slashes", func(i *Info) { i.Name = "com.example/a/b" }, "-server-name"},
		{"no description", func(i *Info) { i.Description = "" }, "-server-description"},
		{"a description too long", func(i *Info) { i.Description = strings.Repeat("x", 101) }, "-server-description"},
		{"a version range", func(i *Info) { i.Version = "^1.2.0" }, "not one version"},
		{"1.x", func(i *Info) { i.Version = "1.x" }, "not one version"},
		{"latest", func(i *Info) { i.Version = "latest" }, "not one version"},
		{"no way to reach it", func(i *Info) { i.URL = "" }, "-server-url"},
		{"a relative URL", func(i *Info) { i.URL = "/mcp" }, "absolute"},
		{"an image tagged latest", func(i *Info) { i.OCI = "docker.io/x/y:latest" }, "not one version"},
	} {
		info := ok
		tc.edit(&info)
		if _, err := Build(info); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

func TestNameFromModule(t *testing.T) {
	for module, want := range map[string]string{
		"github.com/toolgen-go/toolgen":     "io.github.toolgen-go/toolgen",
		"github.com/acme/tools/cmd/weather": "io.github.acme/tools-cmd-weather",
		"gitlab.com/acme/weather":           "com.gitlab.acme/weather",
		"example.com/myserver":              "com.example/myserver",
		"tools.example.co.uk/weather/v2":    "uk.co.example.tools/weather-v2",
		"example.com":                       "com.example/example",
		"github.com/acme/weird~name":        "io.github.acme/weird-name",
	} {
		got, err := NameFromModule(module)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", module, got, err, want)
		}
	}
	for _, module := range []string{"myserver", "github.com/acme", "local/thing"} {
		if got, err := NameFromModule(module); err == nil || !strings.Contains(err.Error(), "-server-name") {
			t.Errorf("%s: %q, %v; want an error asking for -server-name", module, got, err)
		}
	}
}

func TestDescription(t *testing.T) {
	if got := Description("Command weather serves\n\tforecasts."); got != "Command weather serves forecasts." {
		t.Errorf("%q", got)
	}
	long := "Package x " + strings.Repeat("does many things, ", 10)
	got := Description(long)
	if n := len([]rune(got)); n > MaxDescription || !strings.HasSuffix(got, "...") || strings.Contains(got, "thi...") {
		t.Errorf("%q (%d characters): want at most %d, cut at a word", got, n, MaxDescription)
	}
}
