package main

// The tools and the prompt that the scenarios of MCP 2026-07-28 (stateless
// MCP, input-required results, header validation) ask for. They use the
// runtime's ctx helpers as any tool would: served with -stateless, a
// request for input becomes an input-required result that the client
// answers and retries; in a session of an older revision the same helpers
// ask the client there and then.
//
//lint:file-ignore SA1019 sampling and roots are deprecated in MCP 2026-07-28 but tested

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

// nameSchema asks for a name.
var nameSchema = json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)

// askName asks the user for a name under key, with message.
func askName(ctx context.Context, key, message string) (string, error) {
	res, err := mcp.Ask(ctx, map[string]mcp.Question{key: {Elicit: &mcp.ElicitQuestion{Message: message, Schema: nameSchema}}})
	if err != nil {
		return "", err
	}
	e := res[key].Elicitation
	if e.Action != "accept" {
		return "", runtime.RetryableError(0, "No name was given (%s).", e.Action)
	}
	name, _ := e.Content["name"].(string)
	return name, nil
}

// TestInputRequiredResultElicitation asks the user for their name, and
// greets them.
//
//toolgen:tool
func TestInputRequiredResultElicitation(ctx context.Context) (string, error) {
	name, err := askName(ctx, "user_name", "What is your name?")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Hello, %s!", name), nil
}

// TestInputRequiredResultSampling asks the client's model for the capital
// of France.
//
//toolgen:tool
func TestInputRequiredResultSampling(ctx context.Context) (string, error) {
	answer, err := runtime.Sample(ctx, "What is the capital of France?", 100)
	if err != nil {
		return "", err
	}
	return "Sampling response: " + answer, nil
}

// TestInputRequiredResultListRoots lists the client's roots.
//
//toolgen:tool
func TestInputRequiredResultListRoots(ctx context.Context) (string, error) {
	roots, err := mcp.Roots(ctx)
	if err != nil {
		return "", err
	}
	var uris []string
	for _, r := range roots {
		uris = append(uris, r.URI)
	}
	return fmt.Sprintf("Client exposed %d root(s): %s", len(roots), strings.Join(uris, ", ")), nil
}

// confirmSchema asks for a yes or no.
var confirmSchema = json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)

// confirm asks the user to confirm.
func confirm(ctx context.Context) (bool, error) {
	res, err := mcp.Ask(ctx, map[string]mcp.Question{"confirm": {Elicit: &mcp.ElicitQuestion{Message: "Please confirm", Schema: confirmSchema}}})
	if err != nil {
		return false, err
	}
	e := res["confirm"].Elicitation
	ok, _ := e.Content["ok"].(bool)
	return e.Action == "accept" && ok, nil
}

// TestInputRequiredResultRequestState asks for a confirmation; the
// answer's round trip carries the runtime's sealed requestState, which it
// verifies before the tool runs again.
//
//toolgen:tool
func TestInputRequiredResultRequestState(ctx context.Context) (string, error) {
	ok, err := confirm(ctx)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("state-ok: requestState verified, confirmed=%v", ok), nil
}

// TestInputRequiredResultTamperedState asks for a confirmation; a retry
// whose requestState was altered is refused before the tool runs again.
//
//toolgen:tool
func TestInputRequiredResultTamperedState(ctx context.Context) (string, error) {
	ok, err := confirm(ctx)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("state-ok: requestState verified, confirmed=%v", ok), nil
}

// TestInputRequiredResultMultipleInputs asks for the user's name, a
// greeting from the model and the client's roots, all at once.
//
//toolgen:tool
func TestInputRequiredResultMultipleInputs(ctx context.Context) (string, error) {
	res, err := mcp.Ask(ctx, map[string]mcp.Question{
		"user_name":    {Elicit: &mcp.ElicitQuestion{Message: "What is your name?", Schema: nameSchema}},
		"greeting":     {Sample: &mcp.SampleQuestion{Prompt: "Generate a greeting", MaxTokens: 50}},
		"client_roots": {Roots: &mcp.RootsQuestion{}},
	})
	if err != nil {
		return "", err
	}
	name, _ := res["user_name"].Elicitation.Content["name"].(string)
	greeting := res["greeting"].Sample.Text
	roots := res["client_roots"].Roots
	return fmt.Sprintf("%s %s — %d root(s) visible", greeting, name, len(roots)), nil
}

// TestInputRequiredResultMultiRound asks for a name, then for a favourite
// colour: two rounds.
//
//toolgen:tool
func TestInputRequiredResultMultiRound(ctx context.Context) (string, error) {
	name, err := askName(ctx, "step1", "Step 1: What is your name?")
	if err != nil {
		return "", err
	}
	res, err := mcp.Ask(ctx, map[string]mcp.Question{"step2": {Elicit: &mcp.ElicitQuestion{
		Message: "Step 2: What is your favorite color?",
		Schema:  json.RawMessage(`{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`),
	}}})
	if err != nil {
		return "", err
	}
	color, _ := res["step2"].Elicitation.Content["color"].(string)
	return fmt.Sprintf("Multi-round complete: %s likes %s", name, color), nil
}

// TestInputRequiredResultCapabilities asks only for what the client
// declared it can give: a name, a greeting, its roots.
//
//toolgen:tool
func TestInputRequiredResultCapabilities(ctx context.Context) (string, error) {
	reqs := map[string]mcp.Question{}
	for key, q := range map[string]mcp.Question{
		"user_name":    {Elicit: &mcp.ElicitQuestion{Message: "What is your name?", Schema: nameSchema}},
		"greeting":     {Sample: &mcp.SampleQuestion{Prompt: "Generate a short greeting", MaxTokens: 50}},
		"client_roots": {Roots: &mcp.RootsQuestion{}},
	} {
		if mcp.CanAsk(ctx, q) {
			reqs[key] = q
		}
	}
	if len(reqs) == 0 {
		return "No declared client capability supports an in-band input request", nil
	}
	if _, err := mcp.Ask(ctx, reqs); err != nil {
		return "", err
	}
	return "Capability-aware input requests fulfilled", nil
}

// TestMissingCapability asks the client's model, which a client that did
// not declare sampling cannot answer: over MCP 2026-07-28 the call is then
// refused with MissingRequiredClientCapabilityError.
//
//toolgen:tool
func TestMissingCapability(ctx context.Context) (string, error) {
	answer, err := runtime.Sample(ctx, "Say hello.", 20)
	if err != nil {
		return "", err
	}
	return "The model said: " + answer, nil
}

// TestStreamingElicitation reports its progress while it runs: its
// response stream carries notifications and the result, never a request.
//
//toolgen:tool
func TestStreamingElicitation(ctx context.Context) (string, error) {
	for _, p := range []float64{0, 100} {
		if err := runtime.Progress(ctx, p, 100, ""); err != nil {
			return "", err
		}
	}
	return "stream observed: result frames only, no top-level requests", nil
}

// TestLoggingTool logs a message, which reaches only a client that asked
// for log messages.
//
//toolgen:tool
func TestLoggingTool(ctx context.Context) (string, error) {
	if err := runtime.Log(ctx, "info", "test_logging_tool executed"); err != nil {
		return "", err
	}
	return "Log attempted; sent only at the level the client asked for.", nil
}

// TestTriggerToolChange tells the clients that the tool list changed.
//
//toolgen:tool
func TestTriggerToolChange(ctx context.Context) (string, error) {
	srv, ok := mcp.ServerFromContext(ctx)
	if !ok {
		return "", runtime.ErrNoSession
	}
	srv.NotifyToolsChanged()
	return "tools_list_changed published", nil
}

// TestTriggerPromptChange tells the clients that the prompt list changed.
//
//toolgen:tool
func TestTriggerPromptChange(ctx context.Context) (string, error) {
	srv, ok := mcp.ServerFromContext(ctx)
	if !ok {
		return "", runtime.ErrNoSession
	}
	srv.NotifyPromptsChanged()
	return "prompts_list_changed published", nil
}

// HeaderInput has an argument that the client mirrors into the
// Mcp-Param-Region header (SEP-2243).
//
//toolgen:schema {"type":"object","properties":{"region":{"type":"string","description":"mirrored into Mcp-Param-Region","x-mcp-header":"Region"},"level":{"type":"integer","description":"not mirrored"}}}
type HeaderInput struct {
	Region string `json:"region,omitempty"`
	Level  int    `json:"level,omitempty"`
}

// TestXMcpHeader echoes the region its Mcp-Param-Region header carries;
// the SDK refuses a call whose header does not match the argument.
//
//toolgen:tool name=test_x_mcp_header readonly
func TestXMcpHeader(in HeaderInput) string { return "region=" + in.Region }

// TestReconnection closes its response stream mid-call, asking the client
// to reconnect (SEP-1699, revision 2025-11-25).
//
//toolgen:tool
func TestReconnection(ctx context.Context) (string, error) {
	mcp.CloseStream(ctx, 10*time.Millisecond)
	if err := sleep(ctx, 100*time.Millisecond); err != nil {
		return "", err
	}
	return "Reconnection test completed successfully.", nil
}

// TestInputRequiredResultPrompt asks the user for the context it is
// rendered with.
//
//toolgen:prompt
func TestInputRequiredResultPrompt(ctx context.Context, in struct{}) (string, error) {
	res, err := mcp.Ask(ctx, map[string]mcp.Question{"user_context": {Elicit: &mcp.ElicitQuestion{
		Message: "What context should the prompt use?",
		Schema:  json.RawMessage(`{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`),
	}}})
	if err != nil {
		return "", err
	}
	text, _ := res["user_context"].Elicitation.Content["context"].(string)
	return "Context: " + text, nil
}
