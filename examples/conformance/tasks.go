package main

// The tools the scenarios of MCP's tasks extension
// (io.modelcontextprotocol/tasks) ask for: task=optional and
// task=required tools that run long, fail, panic, and ask the user for
// input while they run, with the runtime's ctx helpers as any tool would.

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp"
)

// Greet greets someone, at once: it never runs as a task.
//
//toolgen:tool readonly
//toolgen:param name description="Who to greet."
func Greet(ctx context.Context, name string) (string, error) {
	return fmt.Sprintf("Hello, %s!", name), nil
}

// SlowInput is how long to compute, and a label for the result.
type SlowInput struct {
	// Seconds to compute for (0 answers at once).
	Seconds int `json:"seconds" jsonschema:"minimum=0,maximum=3600"`
	// Label of the computation.
	Label string `json:"label,omitempty"`
}

// SlowCompute computes for a number of seconds, as a task when the client
// can poll one; cancelling the task stops it.
//
//toolgen:tool readonly task=optional
func SlowCompute(ctx context.Context, in SlowInput) (string, error) {
	select {
	case <-time.After(time.Duration(in.Seconds) * time.Second):
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
	return fmt.Sprintf("Computed %q in %d second(s).", in.Label, in.Seconds), nil
}

// FailingJob works for a second, then reports that it failed. It only
// runs as a task.
//
//toolgen:tool task=required
func FailingJob(ctx context.Context) (string, error) {
	select {
	case <-time.After(time.Second):
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
	return "", &runtime.ToolError{Message: "The job failed, as it always does."}
}

// ProtocolErrorJob panics: the task fails with a protocol error.
//
//toolgen:tool task=optional
func ProtocolErrorJob(ctx context.Context) (string, error) {
	panic("protocol_error_job always panics")
}

// taskConfirmSchema asks for a confirmation.
var taskConfirmSchema = json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean","description":"Delete it?"},"name":{"type":"string"}},"required":["confirm"]}`)

// ConfirmDelete asks the user to confirm before it deletes a file.
//
//toolgen:tool destructive task=optional
//toolgen:param filename description="The file to delete."
func ConfirmDelete(ctx context.Context, filename string) (string, error) {
	e, err := runtime.Elicit(ctx, fmt.Sprintf("Delete %s?", filename), taskConfirmSchema)
	if err != nil {
		return "", err
	}
	if ok, _ := e.Content["confirm"].(bool); e.Action != "accept" || !ok {
		return fmt.Sprintf("Kept %s.", filename), nil
	}
	return fmt.Sprintf("Deleted %s.", filename), nil
}

// MultiInput asks the user two questions at once.
//
//toolgen:tool task=optional
func MultiInput(ctx context.Context) (string, error) {
	res, err := mcp.Ask(ctx, map[string]mcp.Question{
		"first":  {Elicit: &mcp.ElicitQuestion{Message: "First answer?", Schema: taskConfirmSchema}},
		"second": {Elicit: &mcp.ElicitQuestion{Message: "Second answer?", Schema: taskConfirmSchema}},
	})
	if err != nil {
		return "", err
	}
	names := [2]string{}
	for i, k := range []string{"first", "second"} {
		if e := res[k].Elicitation; e != nil {
			names[i], _ = e.Content["name"].(string)
		}
	}
	return fmt.Sprintf("Answers: %s, %s.", names[0], names[1]), nil
}

// TestToolWithTask asks the user's name first, in input-required rounds,
// and then becomes a task that greets them (Tool.TaskDeferred, set in
// main.go: the call is a task once it calls mcp.StartTask).
//
//toolgen:tool task=required
func TestToolWithTask(ctx context.Context) (string, error) {
	name, err := askName(ctx, "user_name", "What is your name?")
	if err != nil {
		return "", err
	}
	mcp.StartTask(ctx)
	select {
	case <-time.After(100 * time.Millisecond):
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
	return fmt.Sprintf("Hello, %s, from a task!", name), nil
}
