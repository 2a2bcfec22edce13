package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

// colourForm is a form's type, registered as toolgen's generated init
// registers one (the generator's own golden case, forms, covers that).
type colourForm struct {
	Colour string `json:"colour"`
	Shade  int    `json:"shade,omitempty"`
}

const colourSchema = `{"type":"object","properties":{"colour":{"type":"string","enum":["teal","red"]},"shade":{"type":"integer","default":3}},"required":["colour"]}`

func init() {
	runtime.RegisterForm(runtime.Form[colourForm]{Schema: json.RawMessage(colourSchema)})
}

// typedTool asks for a colourForm with runtime.ElicitAs.
func typedTool(task runtime.TaskSupport) runtime.Tool {
	t := runtime.MustNewTool("typed", "Asks for a colour, in a Go type.", func(ctx context.Context, _ struct{}) (string, error) {
		c, e, err := runtime.ElicitAs[colourForm](ctx, "Your colour?")
		if err != nil {
			return "", err
		}
		return e.Action + " " + c.Colour + " " + string(rune('0'+c.Shade)), nil
	})
	t.Task = task
	return t
}

// A question in a Go type takes each path a question takes: a session's
// elicitation (2025-11-25), an input-required round (2026-07-28), a
// task's input_required. Each asks with the form's schema, and the tool
// gets the answer as its type, with the schema's defaults filled in.
func TestElicitAsOnEveryPath(t *testing.T) {
	const want = "accept teal 3"
	t.Run("session", func(t *testing.T) {
		var asked any
		cs := client(t, houseWith(runtime.NewServer(runtime.ToolList{typedTool("")}, discardLog()), nil), "2025-11-25", &sdk.ClientOptions{
			ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
				asked = r.Params.RequestedSchema
				return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"colour": "teal"}}, nil
			},
		})
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "typed", Arguments: map[string]any{}})
		if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != want {
			t.Fatalf("%v %v", mustJSON(res), err)
		}
		if !sameJSON(asked, colourSchema) {
			t.Errorf("asked with %s", mustJSON(asked))
		}
	})
	t.Run("input-required round", func(t *testing.T) {
		cs := client(t, houseWith(runtime.NewServer(runtime.ToolList{typedTool("")}, discardLog()), &mcp.Options{Stateless: true}), "", &sdk.ClientOptions{
			Capabilities:   &sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{}},
			MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true}, // each round seen
		})
		ctx := context.Background()
		r1, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "typed", Arguments: map[string]any{}})
		if err != nil || !r1.NeedsInput() || len(r1.InputRequests) != 1 {
			t.Fatalf("round 1: %v %v", mustJSON(r1), err)
		}
		q, ok := r1.InputRequests["elicitation-1"].(*sdk.ElicitParams)
		if !ok || !sameJSON(q.RequestedSchema, colourSchema) {
			t.Fatalf("round 1 asks %s", mustJSON(r1.InputRequests))
		}
		r2, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "typed", Arguments: map[string]any{},
			InputResponses: sdk.InputResponseMap{"elicitation-1": &sdk.ElicitResult{Action: "accept", Content: map[string]any{"colour": "teal"}}}, RequestState: r1.RequestState})
		if err != nil || r2.NeedsInput() || r2.IsError || r2.Content[0].(*sdk.TextContent).Text != want {
			t.Fatalf("round 2: %v %v", mustJSON(r2), err)
		}
	})
	t.Run("task", func(t *testing.T) {
		hs := httptest.NewServer(house(runtime.NewServer(runtime.ToolList{typedTool(runtime.TaskOptional)}, discardLog())))
		defer hs.Close()
		c := &taskClient{t: t, url: hs.URL}
		id := c.create("typed", nil)
		waiting := c.await(id, "input_required", taskStatus("input_required"))
		reqs, _ := waiting["inputRequests"].(map[string]any)
		var key string
		for k, v := range reqs {
			key = k
			params, _ := v.(map[string]any)["params"].(map[string]any)
			if !sameJSON(params["requestedSchema"], colourSchema) {
				t.Fatalf("the task asks %v", v)
			}
		}
		if _, e := c.rpc("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
			key: map[string]any{"action": "accept", "content": map[string]any{"colour": "teal"}},
		}}); e != nil {
			t.Fatal(e)
		}
		done := c.await(id, "completed", taskStatus("completed"))
		if got := taskText(t, done); got != want {
			t.Errorf("result %q", got)
		}
	})
}

// client connects the SDK's client to h over Streamable HTTP, at version
// (the newest when "").
func client(t *testing.T, h http.Handler, version string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, opts).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp"}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// sameJSON reports whether v encodes to the JSON value want, whatever the
// order of members.
func sameJSON(v any, want string) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var got, w any
	return json.Unmarshal(b, &got) == nil && json.Unmarshal([]byte(want), &w) == nil && reflect.DeepEqual(got, w)
}
