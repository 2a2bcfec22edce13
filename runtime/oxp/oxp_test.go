package oxp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgen-go/toolgen/internal/compile"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
	"github.com/toolgen-go/toolgen/runtime/oxp"
	"github.com/toolgen-go/toolgen/runtime/serve"
)

// oxpSchemas compiles the protocol's response schemas
// (testdata/schemas.json), one per definition.
var oxpSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	doc, err := os.ReadFile("testdata/schemas.json")
	if err != nil {
		panic(err)
	}
	var defs struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(doc, &defs); err != nil {
		panic(err)
	}
	out := map[string]*jsonschema.Schema{}
	for name := range defs.Defs {
		src := fmt.Sprintf(`{"$ref":"#/$defs/%s","$defs":%s}`, name, mustMarshal(defs.Defs))
		s, err := compile.Schema([]byte(src))
		if err != nil {
			panic(fmt.Sprintf("%s: %v", name, err))
		}
		out[name] = s
	}
	return out
})

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// oxpDo sends a request to the OXP surface and checks the answer's body
// against the protocol's schema for its path and status.
func oxpDo(t *testing.T, h any, method, path, body string, header ...string) servertest.Response {
	t.Helper()
	if s, ok := h.(*runtime.Server); ok {
		h = mount(s, nil)
	}
	r := servertest.Do(t, h.(http.Handler), method, path, body, header...)
	def := "Error"
	switch {
	case strings.HasSuffix(path, "/health"):
		def = ""
	case r.Status == 200 && method == "GET":
		def = "ListToolsResponse"
	case r.Status == 200:
		def = "CallToolResponse"
	case r.Status == 422:
		def = "ValidationError"
	}
	if def != "" {
		var v any
		dec := json.NewDecoder(strings.NewReader(r.Body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s %s: %d %q is not JSON", method, path, r.Status, r.Body)
		}
		if err := oxpSchemas()[def].Validate(v); err != nil {
			t.Fatalf("%s %s: %d %s does not validate as %s: %v", method, path, r.Status, r.Body, def, err)
		}
	}
	return r
}

// The narrative page's two tools, as the calculator example declares them.
func calculatorTools() runtime.ToolList {
	return runtime.ToolList{{
		Name: "add", Description: "Adds two numbers together.", Toolkit: "Calculator", Version: "1.0.0",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"number","description":"The first number to add."},"b":{"type":"number","description":"The second number to add."}},"required":["a","b"]}`),
		OutputSchema: json.RawMessage(`{"type":"number","description":"The sum of the two numbers."}`),
		Handler: func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct{ A, B float64 }
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return runtime.StructuredResult(in.A + in.B)
		},
	}, {
		Name: "ring", Description: "Rings a doorbell given a doorbell ID.", Toolkit: "Doorbell", Version: "0.1.0",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"doorbell_id":{"type":"string","description":"The ID of the doorbell to ring."}},"required":["doorbell_id"]}`),
		Handler: func(_ context.Context, args json.RawMessage) (*runtime.Result, error) {
			var in struct {
				ID string `json:"doorbell_id"`
			}
			if err := runtime.DecodeArgs(args, &in); err != nil {
				return nil, err
			}
			return runtime.TextResult("Ding dong! " + in.ID), nil
		},
	}}
}

const narrativeTools = `[{"id":"Calculator.Add@1.0.0","name":"Calculator_Add","description":"Adds two numbers together.","version":"1.0.0","input_schema":{"parameters":{"type":"object","properties":{"a":{"type":"number","description":"The first number to add."},"b":{"type":"number","description":"The second number to add."}},"required":["a","b"]}},"output_schema":{"type":"number","description":"The sum of the two numbers."}},{"id":"Doorbell.Ring@0.1.0","name":"Doorbell_Ring","description":"Rings a doorbell given a doorbell ID.","version":"0.1.0","input_schema":{"parameters":{"type":"object","properties":{"doorbell_id":{"type":"string","description":"The ID of the doorbell to ring."}},"required":["doorbell_id"]}},"output_schema":null}]`

// GET /oxp/tools is the narrative page's example, under both keys.
func TestOXPList(t *testing.T) {
	s := runtime.NewServer(calculatorTools(), &runtime.Options{Logger: servertest.Discard()})
	oxpDo(t, s, "GET", "/oxp/tools", "").Is(t, 200, `{"$schema":"urn:oxp:1.0","items":`+narrativeTools+`,"tools":`+narrativeTools+`}`)
	oxpDo(t, runtime.NewServer(runtime.ToolList{}, nil), "GET", "/oxp/tools", "").Is(t, 200, `{"$schema":"urn:oxp:1.0","items":[],"tools":[]}`)
}

// Defaults for a tool without toolkit or version; a tool OXP cannot name
// is left off, logged once; $ref and $defs are inlined; secrets are
// requirements.
func TestOXPDefinitions(t *testing.T) {
	var logs servertest.LogBuffer
	h := plain
	tools := runtime.ToolList{
		{Name: "get_weather", Description: "Weather.", Handler: h},
		{Name: "odd", Toolkit: "Bad Kit", Handler: h},
		{Name: "old", Version: "1.2", Handler: h},
		{Name: "tree", Toolkit: "T", Version: "2.0.1", Secrets: []string{"API_KEY"}, Handler: h,
			InputSchema:  json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`),
			OutputSchema: json.RawMessage(`{"$ref":"#/$defs/n","$defs":{"n":{"type":"integer"}}}`)},
	}
	s := mount(runtime.NewServer(tools, &runtime.Options{Logger: logs.Logger(), ToolVersion: "0.3.0"}), &oxp.Options{Toolkit: "Mine"})
	var list struct{ Items []json.RawMessage }
	for range 2 {
		oxpDo(t, s, "GET", "/oxp/tools", "").Decode(t, &list)
	}
	if len(list.Items) != 2 {
		t.Fatalf("%d tools listed, want 2: %s", len(list.Items), list.Items)
	}
	if got := string(list.Items[0]); got != `{"id":"Mine.GetWeather@0.3.0","name":"Mine_GetWeather","description":"Weather.","version":"0.3.0","input_schema":{"parameters":{"type":"object"}},"output_schema":null}` {
		t.Errorf("defaults: %s", got)
	}
	want := `{"id":"T.Tree@2.0.1","name":"T_Tree","description":"","version":"2.0.1","input_schema":{"parameters":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"root":{"type":"object","properties":{"kids":{"type":"array","items":{"type":"object","properties":{"kids":{"type":"array","items":{"type":"object","properties":{"kids":{"type":"array","items":{"description":"The structure repeats from here (a recursive type, unrolled 3 times)."}}}}}}}}}}}}},"output_schema":{"type":"integer"},"requirements":{"secrets":[{"id":"API_KEY"}]}}`
	if got := string(list.Items[1]); got != want {
		t.Errorf("inlined:\n got %s\nwant %s", got, want)
	}
	for _, name := range []string{"odd", "old"} {
		if n := strings.Count(logs.String(), "tool left off OXP\" tool="+name); n != 1 {
			t.Errorf("%s logged %d times: %s", name, n, logs.String())
		}
	}
}

func oxpCall(toolID, input string, extra ...string) string {
	req := `"tool_id":` + mustJSONString(toolID)
	if input != "" {
		req += `,"input":` + input
	}
	for _, e := range extra {
		req += "," + e
	}
	return `{"request":{` + req + `}}`
}

func mustJSONString(s string) string { return string(mustMarshal(s)) }

// result decodes a 200 call response.
type oxpResponse struct {
	Result struct {
		CallID   string          `json:"call_id"`
		Duration float64         `json:"duration"`
		Success  bool            `json:"success"`
		Value    json.RawMessage `json:"value"`
		Error    *struct {
			Message                 string `json:"message"`
			DeveloperMessage        string `json:"developer_message,omitempty"`
			CanRetry                *bool  `json:"can_retry,omitempty"`
			AdditionalPromptContent string `json:"additional_prompt_content,omitempty"`
			RetryAfterMS            *int64 `json:"retry_after_ms,omitempty"`
		} `json:"error"`
	} `json:"result"`
}

func callOXP(t *testing.T, s any, body string, header ...string) oxpResponse {
	t.Helper()
	r := oxpDo(t, s, "POST", "/oxp/tools/call", body, header...)
	if r.Status != 200 {
		t.Fatalf("%s: %d %s", body, r.Status, r.Body)
	}
	var res oxpResponse
	r.Decode(t, &res)
	return res
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// Calls: tool_id resolution, call ids, values, and every way a request
// is refused.
func TestOXPCall(t *testing.T) {
	tools := calculatorTools()
	s := runtime.NewServer(runtime.ToolList{tools[0], tools[1]}, &runtime.Options{Logger: servertest.Discard(), MaxBodyBytes: 4096})

	for _, id := range []string{"Calculator.Add", "Calculator.Add@1", "Calculator.Add@1.0.0"} {
		res := callOXP(t, s, oxpCall(id, `{"a":1,"b":2}`))
		if !res.Result.Success || string(res.Result.Value) != "3" || res.Result.Error != nil || !uuidPattern.MatchString(res.Result.CallID) {
			t.Errorf("%s: %+v", id, res.Result)
		}
	}
	if res := callOXP(t, s, oxpCall("Calculator.Add", `{"a":1,"b":2}`, `"call_id":"mine-1"`)); res.Result.CallID != "mine-1" {
		t.Errorf("call_id not echoed: %q", res.Result.CallID)
	}
	if res := callOXP(t, s, oxpCall("Doorbell.Ring", `{"doorbell_id":"front"}`)); string(res.Result.Value) != `"Ding dong! front"` {
		t.Errorf("text value: %s", res.Result.Value)
	}

	bad := func(body string, status int, want string) {
		t.Helper()
		oxpDo(t, s, "POST", "/oxp/tools/call", body).Is(t, status, want)
	}
	bad(oxpCall("Calculator.Add@2", `{}`), 400, `{"message":"Tool Calculator.Add has no version 2."}`)
	bad(oxpCall("Calculator.Add@1.0.1", `{}`), 400, `{"message":"Tool Calculator.Add has no version 1.0.1."}`)
	bad(oxpCall("Calculator.Sub", `{}`), 400, `{"message":"Tool not found: Calculator.Sub."}`)
	bad(oxpCall("add", `{}`), 400, `{"message":"The tool_id \"add\" is not Toolkit.Tool[@version]."}`)
	bad(`{"request":{"input":{}}}`, 400, `{"message":"The request has no \"tool_id\"."}`)
	bad(`{}`, 400, `{"message":"The body has no \"request\"."}`)
	bad(`not json`, 400, `{"message":"The body is not an OXP call request: the body is not valid JSON."}`)
	bad(`{"request":{"tool_id":"Calculator.Add"}} {}`, 400, `{"message":"The body is not an OXP call request: the body is not valid JSON."}`)
	bad(oxpCall("Calculator.Add", `{}`, `"extra":1`), 400, `{"message":"The body is not an OXP call request: unknown name \"extra\"."}`)
	bad(`{"request":{"Tool_Id":"Calculator.Add","input":{}}}`, 400, `{"message":"The body is not an OXP call request: unknown name \"Tool_Id\"."}`)
	bad(oxpCall("Calculator.Add", `{}`, `"call_id":"a\nb"`), 400, `{"message":"The request's \"call_id\" is longer than 128 characters or holds a control character."}`)
	bad(oxpCall("Calculator.Add", `{}`, `"call_id":"`+strings.Repeat("c", 129)+`"`), 400, `{"message":"The request's \"call_id\" is longer than 128 characters or holds a control character."}`)
	bad(oxpCall("Calculator.Add", `[1]`), 400, `{"message":"The request's \"input\" is not an object."}`)
	bad(`{"$schema":"urn:oxp:2.0",`+oxpCall("Calculator.Add", `{}`)[1:], 400, `{"message":"Unsupported $schema \"urn:oxp:2.0\".","developer_message":"This server speaks urn:oxp:1.0."}`)
	bad(oxpCall("Calculator.Add", `{"a":"x","b":{"deep":1}}`), 422, `{"message":"The input does not match the tool's parameters.","parameter_errors":{"a":"expected number, but got string","b":"expected number, but got object"}}`)
	bad(`{"request":{"tool_id":"Calculator.Add","input":{"x":"`+strings.Repeat("a", 5000)+`"}}}`, 413, `{"message":"Request body too large (limit 4096 bytes)."}`)
	oxpDo(t, s, "GET", "/oxp/tools/call", "").Is(t, 405, `{"message":"Method not allowed: GET"}`)
	oxpDo(t, s, "GET", "/oxp/health", "").Is(t, 200, `{"status":"healthy"}`)

	// A nested failure is reported under its top-level parameter, with
	// its path.
	nested := runtime.NewServer(runtime.ToolList{{Name: "n", Toolkit: "K", Handler: plain,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"p":{"type":"object","properties":{"q":{"type":"array","items":{"type":"integer"}}}}},"required":["p"]}`)}}, nil)
	oxpDo(t, nested, "POST", "/oxp/tools/call", oxpCall("K.N", `{"p":{"q":[1,"x",2.5]}}`)).Is(t, 422,
		`{"message":"The input does not match the tool's parameters.","parameter_errors":{"p":"/p/q/1: expected integer, but got string; /p/q/2: expected integer, but got number"}}`)
	oxpDo(t, nested, "POST", "/oxp/tools/call", oxpCall("K.N", `{}`)).Is(t, 422,
		`{"message":"The input does not match the tool's parameters.","parameter_errors":{"p":"missing required property"}}`)

	// Versions: none is the highest, @x the highest x.*.*. Tool names
	// are unique, but names that differ only in case or punctuation share
	// a Go name, and so an OXP tool.
	version := func(name, v string) runtime.Tool {
		t := tools[0]
		t.Name, t.Version = name, v
		t.OutputSchema = json.RawMessage(`{"type":"string"}`)
		t.Handler = func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return runtime.StructuredResult("v" + v)
		}
		return t
	}
	versions := runtime.NewServer(runtime.ToolList{version("add", "1.0.0"), version("Add", "1.4.0"), version("add_", "2.0.0")}, &runtime.Options{Logger: servertest.Discard()})
	for id, want := range map[string]string{"Calculator.Add": `"v2.0.0"`, "Calculator.Add@1": `"v1.4.0"`, "Calculator.Add@1.0.0": `"v1.0.0"`, "Calculator.Add@2.0.0": `"v2.0.0"`, "Calculator.Add@2": `"v2.0.0"`} {
		if res := callOXP(t, versions, oxpCall(id, `{"a":1,"b":2}`)); string(res.Result.Value) != want {
			t.Errorf("%s: %s, want %s", id, res.Result.Value, want)
		}
	}
}

// Failures are success:false with the hints a ToolError gives; its
// developer message is logged, never sent.
func TestOXPFailures(t *testing.T) {
	var logs servertest.LogBuffer
	tools := runtime.ToolList{
		{Name: "limited", Toolkit: "K", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return nil, &runtime.ToolError{Message: "Too many requests.", DeveloperMessage: "bucket k7 empty", CanRetry: true, RetryAfter: 1500 * time.Millisecond, AdditionalPromptContent: "Ask less often."}
		}},
		{Name: "unknown_city", Toolkit: "K", Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) {
			return nil, &runtime.ToolError{Message: "No such city."}
		}},
		{Name: "panics", Toolkit: "K", Handler: panics},
		{Name: "slow", Toolkit: "K", Timeout: slowTimeout, Handler: slow},
		{Name: "soft", Toolkit: "K", Handler: softFail},
	}
	s := runtime.NewServer(tools, &runtime.Options{Logger: logs.Logger()})
	for id, want := range map[string]string{
		"K.Limited":     `{"message":"Too many requests.","can_retry":true,"additional_prompt_content":"Ask less often.","retry_after_ms":1500}`,
		"K.UnknownCity": `{"message":"No such city.","can_retry":false}`,
		"K.Panics":      `{"message":"tool panicked: boom"}`,
		"K.Slow":        `{"message":"Tool slow timed out after 50ms.","can_retry":true}`,
		"K.Soft":        `{"message":"no such city"}`,
	} {
		res := callOXP(t, s, oxpCall(id, `{}`))
		if res.Result.Success || res.Result.Value != nil {
			t.Errorf("%s: %+v", id, res.Result)
			continue
		}
		if got := string(mustMarshal(res.Result.Error)); got != want {
			t.Errorf("%s:\n got %s\nwant %s", id, got, want)
		}
	}
	l := logs.String()
	if !strings.Contains(l, "bucket k7") || !strings.Contains(l, `level=INFO msg="tool reported an error" tool=limited`) {
		t.Errorf("the developer message is not logged at INFO: %s", l)
	}
}

// Secrets: listed as requirements, read from the call's context first,
// then from Options.Secrets; a missing one fails the call before the
// handler, naming it; no value reaches the logs.
func TestOXPSecretsAndContext(t *testing.T) {
	var logs servertest.LogBuffer
	var ran int
	tool := runtime.Tool{Name: "fetch", Toolkit: "W", Secrets: []string{"API_KEY"}, Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		ran++
		key, _ := runtime.Secret(ctx, "API_KEY")
		_, other := runtime.Secret(ctx, "HOME")
		call, _ := runtime.CallFromContext(ctx)
		var user, token string
		if oc, ok := oxp.ContextFromContext(ctx); ok {
			user, token = oc.UserID, oc.Authorization["github"]
		}
		return nil, fmt.Errorf("failing on purpose with key=%s other=%v user=%s token=%s trace=%s", key[:2]+"…", other, user, token, call.TraceID)
	}}
	fromServer := map[string]string{}
	s := runtime.NewServer(runtime.ToolList{tool}, &runtime.Options{Logger: logs.Logger(), Secrets: func(_ context.Context, id string) (string, bool) {
		v, ok := fromServer[id]
		return v, ok
	}})
	res := callOXP(t, s, oxpCall("W.Fetch", `{}`))
	if res.Result.Success || res.Result.Error.Message != "Tool fetch needs the secret API_KEY, which this call does not have." || ran != 0 {
		t.Errorf("missing secret: %+v, ran %d", res.Result.Error, ran)
	}
	res = callOXP(t, s, oxpCall("W.Fetch", `{}`, `"trace_id":"tr-9"`, `"context":{"secrets":[{"id":"API_KEY","value":"sk-live-SECRET1"}],"user_id":"ada","authorization":[{"id":"github","token":"gho_TOKEN"}]}`))
	if want := "failing on purpose with key=sk… other=false user=ada token=gho_TOKEN trace=tr-9"; res.Result.Error == nil || res.Result.Error.Message != want {
		t.Errorf("context: %+v", res.Result.Error)
	}
	fromServer["API_KEY"] = "sk-live-SECRET2"
	if res := callOXP(t, s, oxpCall("W.Fetch", `{}`)); !strings.Contains(res.Result.Error.Message, "key=sk…") {
		t.Errorf("server secret: %+v", res.Result.Error)
	}
	for _, secret := range []string{"sk-live-SECRET1", "sk-live-SECRET2"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("a secret reached the logs: %s", logs.String())
		}
	}
	// Secret outside a tool, or for an undeclared id, has nothing.
	if _, ok := runtime.Secret(context.Background(), "API_KEY"); ok {
		t.Error("a secret outside a call")
	}
	// The default source is the environment.
	t.Setenv("TOOLGEN_TEST_SECRET", "from-env")
	envTool := runtime.Tool{Name: "env", Toolkit: "W", Secrets: []string{"TOOLGEN_TEST_SECRET"}, Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		v, _ := runtime.Secret(ctx, "TOOLGEN_TEST_SECRET")
		return runtime.TextResult(v), nil
	}}
	if res := callOXP(t, runtime.NewServer(runtime.ToolList{envTool}, nil), oxpCall("W.Env", `{}`)); string(res.Result.Value) != `"from-env"` {
		t.Errorf("environment: %+v", res.Result)
	}
}

// The auth hook guards listing and calling; health stays public; the
// listing can be made public.
func TestOXPAuth(t *testing.T) {
	s := runtime.NewServer(calculatorTools(), &runtime.Options{AuthHook: runtime.APIKeys(runtime.OXPAPIKeyHeader, "k1", "k2"), Logger: servertest.Discard()})
	oxpDo(t, s, "GET", "/oxp/tools", "").Is(t, 401, `{"message":"Unauthorized"}`)
	oxpDo(t, s, "POST", "/oxp/tools/call", oxpCall("Calculator.Add", `{"a":1,"b":2}`), "OXP-API-Key", "nope").Is(t, 401, `{"message":"Unauthorized"}`)
	oxpDo(t, s, "GET", "/oxp/health", "").Is(t, 200, `{"status":"healthy"}`)
	if r := oxpDo(t, s, "GET", "/oxp/tools", "", "OXP-API-Key", "k2"); r.Status != 200 {
		t.Errorf("listing with a key: %d", r.Status)
	}
	if res := callOXP(t, s, oxpCall("Calculator.Add", `{"a":1,"b":2}`), "OXP-API-Key", "k1"); string(res.Result.Value) != "3" {
		t.Errorf("call with a key: %+v", res.Result)
	}
	public := mount(runtime.NewServer(calculatorTools(), &runtime.Options{AuthHook: runtime.APIKeys(runtime.OXPAPIKeyHeader, "k1"), Logger: servertest.Discard()}), &oxp.Options{PublicListing: true})
	if r := oxpDo(t, public, "GET", "/oxp/tools", ""); r.Status != 200 {
		t.Errorf("public listing: %d", r.Status)
	}
	oxpDo(t, public, "POST", "/oxp/tools/call", oxpCall("Calculator.Add", `{}`)).Is(t, 401, `{"message":"Unauthorized"}`)

	// An HS256 JWT with a bounded lifetime and an audience.
	secret := []byte("0123456789abcdef0123456789abcdef")
	jwtServer := runtime.NewServer(calculatorTools(), &runtime.Options{AuthHook: runtime.JWT(runtime.JWTOptions{Secret: secret, Audiences: []string{"tools"}, MaxLifetime: 15 * time.Minute}), Logger: servertest.Discard()})
	good := signJWT(t, jwt.SigningMethodHS256, secret, jwt.MapClaims{"sub": "ada", "aud": "tools", "exp": time.Now().Add(10 * time.Minute).Unix()})
	long := signJWT(t, jwt.SigningMethodHS256, secret, jwt.MapClaims{"sub": "ada", "aud": "tools", "exp": time.Now().Add(time.Hour).Unix()})
	if r := oxpDo(t, jwtServer, "GET", "/oxp/tools", "", "Authorization", "Bearer "+good); r.Status != 200 {
		t.Errorf("JWT: %d %s", r.Status, r.Body)
	}
	oxpDo(t, jwtServer, "GET", "/oxp/tools", "", "Authorization", "Bearer "+long).Is(t, 401, `{"message":"Unauthorized"}`)
}

// Moved and switched off.
func TestOXPPrefixAndDisable(t *testing.T) {
	moved := serve.NewHandler(runtime.NewServer(calculatorTools(), nil), &serve.Options{OXP: oxp.Options{Prefix: "/api/oxp/"}})
	if r := oxpDo(t, moved, "GET", "/api/oxp/tools", ""); r.Status != 200 {
		t.Errorf("moved: %d", r.Status)
	}
	off := serve.NewHandler(runtime.NewServer(calculatorTools(), nil), &serve.Options{OXP: oxp.Options{Disable: true}})
	servertest.Do(t, off, "GET", "/oxp/tools", "").Is(t, 404, `{"error":"Not found: /oxp/tools"}`)
}
