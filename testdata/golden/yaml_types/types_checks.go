package types

import (
	"context"
	_ "embed"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/serve"
	"go.yaml.in/yaml/v3"
)

// toolsYAML is the file the case was generated from, embedded so that the
// check reads it wherever the test binary runs (testdata/golden's).
//
//go:embed tools.yaml
var toolsYAML []byte

type handlers struct {
	UnimplementedHandlers
	got PlanTripInput
}

func (h *handlers) PlanTrip(ctx context.Context, in PlanTripInput) (PlanTripOutput, error) {
	h.got = in
	return PlanTripOutput{ID: "t-1", Legs: []PlanTripLeg{{From: "home", To: in.Destination}}}, nil
}

func (h *handlers) ListCities(ctx context.Context, in ListCitiesInput) (ListCitiesOutput, error) {
	return ListCitiesOutput{"Oslo", "Bergen"}, nil
}

// The Go types carry what the schemas say, and the runtime serves the
// schemas exactly as written.
func TestTypes(t *testing.T) {
	h := &handlers{}
	s := runtime.NewServer(Tools(h), &runtime.Options{AllowExecute: true})
	call := func(tool, body string) (int, string) {
		rec := httptest.NewRecorder()
		serve.NewHandler(s, nil).ServeHTTP(rec, httptest.NewRequest("POST", "/tools/"+tool+"/call", strings.NewReader(body)))
		b, _ := io.ReadAll(rec.Body)
		return rec.Code, string(b)
	}
	code, body := call("plan_trip", `{"destination":"Oslo","start":"2026-12-01T08:00:00Z","mode":"self-drive","priority":2,"stops":[{"city":"Bergen","nights":2}],"tags":{"k":"v"},"home":{"name":"Home","near":{"name":"Park"}},"choice":7,"note":null,"fixed":42,"anything":[1]}`)
	if code != 200 || !strings.Contains(body, `"structuredContent":{"id":"t-1","legs":[{"from":"home","to":"Oslo"}]}`) {
		t.Fatalf("plan_trip: %d %s", code, body)
	}
	in := h.got
	if in.Mode != PlanTripInputModeSelfDrive || in.Priority != PlanTripInputPriority2 || !in.Start.Equal(time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)) ||
		in.Stops[0].City != "Bergen" || in.Stops[0].Nights != 2 || in.Tags["k"] != "v" || in.Home.Near.Name != "Park" || string(in.Choice) != "7" || in.Note != nil {
		t.Errorf("decoded input: %+v", in)
	}
	// Invalid arguments: 400 naming the path, before the handler runs.
	if code, body := call("plan_trip", `{"destination":"Oslo","start":"soon","stops":[{"nights":0}]}`); code != 400 ||
		!strings.Contains(body, `/start`) || !strings.Contains(body, `/stops/0/city: missing required property`) || !strings.Contains(body, `/stops/0/nights`) {
		t.Errorf("invalid plan_trip: %d %s", code, body)
	}
	if code, body := call("list_cities", `{}`); code != 200 || !strings.Contains(body, `"structuredContent":{"result":["Oslo","Bergen"]}`) {
		t.Errorf("list_cities: %d %s", code, body)
	}
	if code, body := call("motto", `{}`); code != 500 || !strings.Contains(body, `tool motto is not implemented`) {
		t.Errorf("motto: %d %s", code, body)
	}

	// Every schema is the yaml's, converted to JSON with its key order.
	src := toolsYAML
	var file struct {
		Tools []struct {
			Name   string
			Input  yaml.Node
			Output yaml.Node
		}
	}
	if err := yaml.Unmarshal(src, &file); err != nil {
		t.Fatal(err)
	}
	for i, tool := range Tools(h) {
		rec := httptest.NewRecorder()
		serve.NewHandler(s, nil).ServeHTTP(rec, httptest.NewRequest("GET", "/tools/"+tool.Name, nil))
		var detail struct {
			InputSchema  json.RawMessage
			OutputSchema json.RawMessage
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &detail); err != nil {
			t.Fatal(err)
		}
		if want := orderedJSON(t, &file.Tools[i].Input); string(detail.InputSchema) != want {
			t.Errorf("%s input schema:\n got %s\nwant %s", tool.Name, detail.InputSchema, want)
		}
		if want := orderedJSON(t, &file.Tools[i].Output); string(detail.OutputSchema) != want {
			t.Errorf("%s output schema:\n got %s\nwant %s", tool.Name, detail.OutputSchema, want)
		}
	}
}

// orderedJSON converts a YAML node to compact JSON, keys in file order.
func orderedJSON(t *testing.T, n *yaml.Node) string {
	t.Helper()
	var b strings.Builder
	var write func(n *yaml.Node)
	write = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			b.WriteByte('{')
			for i := 0; i < len(n.Content); i += 2 {
				if i > 0 {
					b.WriteByte(',')
				}
				k, _ := json.Marshal(n.Content[i].Value)
				b.Write(k)
				b.WriteByte(':')
				write(n.Content[i+1])
			}
			b.WriteByte('}')
		case yaml.SequenceNode:
			b.WriteByte('[')
			for i, c := range n.Content {
				if i > 0 {
					b.WriteByte(',')
				}
				write(c)
			}
			b.WriteByte(']')
		case yaml.ScalarNode:
			switch n.ShortTag() {
			case "!!str":
				v, _ := json.Marshal(n.Value)
				b.Write(v)
			default:
				b.WriteString(n.Value)
			}
		}
	}
	if n.Kind == 0 {
		return ""
	}
	write(n)
	return b.String()
}
