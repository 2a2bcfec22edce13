// Package main is qmcp's tool server rebuilt with toolgen: the four
// built-in tools of its spec (echo, planner, executor, reviewer), served
// on /v1 (qmcp's own API, with invocation history), MCP, OXP and the Tool
// Explorer. The tools are deterministic, as qmcp's are, and answer exactly
// as qmcp's do: the same names, descriptions, defaults and results, so
// that a planner's plan goes to the executor as it is and the executor's
// summary to the reviewer.
//
//toolgen:toolkit QMCP version=1.0.0
package main

//go:generate go tool toolgen -lock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Object is any JSON object, kept as it was written (its keys in their
// order, its numbers as they were), as qmcp's tools take and give back
// plans and results of any shape.
//
//toolgen:schema {"type":"object"}
type Object json.RawMessage

// MarshalJSON writes the object as it was read.
func (o Object) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	return o, nil
}

// UnmarshalJSON keeps a JSON object as it is, and refuses anything else.
func (o *Object) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return errors.New("not a JSON object")
	}
	*o = append((*o)[:0], b...)
	return nil
}

// EchoInput is what echo sends back.
type EchoInput struct {
	// The message to echo back
	Message string `json:"message"`
}

// Echo the input message back.
//
//toolgen:tool name=echo description="Echo the input message back. Useful for testing." readonly idempotent closedworld
//toolgen:example {"message":"Hello, MCP!"}
func Echo(_ context.Context, in EchoInput) (string, error) {
	return in.Message, nil
}

// PlannerInput is a goal to plan for.
type PlannerInput struct {
	// The goal to create a plan for
	Goal string `json:"goal"`
	// Optional context to inform planning
	Context string `json:"context,omitempty"`
}

// Step is one step of a plan.
type Step struct {
	// Its number: 1, 2, 3, 4, and 1.5 for the review of the context.
	Step float64 `json:"step"`
	// What to do.
	Action string `json:"action"`
	// What the action means here.
	Description string `json:"description"`
}

// Plan is a goal broken into steps.
type Plan struct {
	// The goal planned for.
	Goal string `json:"goal"`
	// The steps, in order.
	Steps []Step `json:"steps"`
	// How many steps there are.
	EstimatedSteps int `json:"estimated_steps"`
}

// Planner makes qmcp's template plan: four steps, and a review of the
// context second when there is one.
//
//toolgen:tool name=planner description="Create a step-by-step execution plan from a goal." readonly idempotent closedworld
//toolgen:example {"goal":"Deploy a new service","context":"Production environment"}
func Planner(_ context.Context, in PlannerInput) (*Plan, error) {
	steps := []Step{
		{Step: 1, Action: "Analyze requirements", Description: "Understand: " + in.Goal},
		{Step: 2, Action: "Identify dependencies", Description: "List prerequisites"},
		{Step: 3, Action: "Create execution order", Description: "Sequence tasks"},
		{Step: 4, Action: "Validate plan", Description: "Check for gaps"},
	}
	if in.Context != "" {
		steps = append(steps[:1], append([]Step{{Step: 1.5, Action: "Review context", Description: in.Context}}, steps[1:]...)...)
	}
	return &Plan{Goal: in.Goal, Steps: steps, EstimatedSteps: len(steps)}, nil
}

// ExecutorInput is an approved plan to run.
type ExecutorInput struct {
	// The plan to execute
	Plan Object `json:"plan"`
	// If true, simulate execution without side effects
	DryRun bool `json:"dry_run,omitempty" jsonschema:"default=true"`
}

// StepResult is what running one step did.
type StepResult struct {
	// The step's "step", as the plan gave it (null when it had none).
	Step json.RawMessage `json:"step"`
	// The step's "action", as the plan gave it (null when it had none).
	Action json.RawMessage `json:"action"`
	// "simulated" in a dry run, else "completed".
	Status string `json:"status"`
}

// Execution summarises a run of a plan.
type Execution struct {
	// "dry_run" or "live".
	Mode string `json:"mode"`
	// How many steps ran.
	StepsExecuted int `json:"steps_executed"`
	// A result for each of the plan's steps, in order.
	Results []StepResult `json:"results"`
	// Always true.
	Success bool `json:"success"`
}

// Executor runs the steps of a plan (its "steps", none when it has
// none); by default it only simulates them.
//
//toolgen:tool name=executor description="Execute an approved plan. Returns execution summary." idempotent closedworld
//toolgen:example {"plan":{"steps":[{"step":1,"action":"Analyze requirements"}]},"dry_run":true}
func Executor(_ context.Context, in ExecutorInput) (*Execution, error) {
	var plan struct {
		Steps []map[string]json.RawMessage `json:"steps"`
	}
	if len(in.Plan) > 0 {
		if err := json.Unmarshal(in.Plan, &plan); err != nil {
			return nil, fmt.Errorf("plan.steps must be a list of objects: %w", err)
		}
	}
	e := &Execution{Mode: "live", Results: []StepResult{}, Success: true}
	status := "completed"
	if in.DryRun {
		e.Mode, status = "dry_run", "simulated"
	}
	for _, s := range plan.Steps {
		e.Results = append(e.Results, StepResult{Step: s["step"], Action: s["action"], Status: status})
	}
	e.StepsExecuted = len(e.Results)
	return e, nil
}

// ReviewerInput is a result to review against criteria.
type ReviewerInput struct {
	// The result to review
	Result Object `json:"result"`
	// Review criteria to check
	Criteria []string `json:"criteria,omitempty" jsonschema:"default=[\"completeness\"\\,\"correctness\"]"`
}

// Check is the verdict on one criterion.
type Check struct {
	// The criterion checked.
	Criterion string `json:"criterion"`
	// Always "passed".
	Status string `json:"status"`
	// "Checked <criterion>".
	Notes string `json:"notes"`
}

// Review is a summary assessment.
type Review struct {
	// The result reviewed, as it was given.
	ReviewedResult Object `json:"reviewed_result"`
	// A check for each criterion, in order.
	Checks []Check `json:"checks"`
	// Always "approved".
	OverallStatus string `json:"overall_status"`
	// Always "Proceed with next steps".
	Recommendation string `json:"recommendation"`
}

// Reviewer makes qmcp's template review: every criterion passes.
//
//toolgen:tool name=reviewer description="Review results and provide a summary assessment." readonly idempotent closedworld
//toolgen:example {"result":{"success":true},"criteria":["completeness","correctness"]}
func Reviewer(_ context.Context, in ReviewerInput) (*Review, error) {
	r := &Review{ReviewedResult: in.Result, Checks: []Check{}, OverallStatus: "approved", Recommendation: "Proceed with next steps"}
	for _, c := range in.Criteria {
		r.Checks = append(r.Checks, Check{Criterion: c, Status: "passed", Notes: "Checked " + c})
	}
	return r, nil
}
