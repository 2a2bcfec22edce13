// Package main is qmcp's tool server rebuilt with toolgen: the four
// built-in tools of its spec (echo, planner, executor, reviewer), served
// on /v1 (qmcp's own API, with invocation history), MCP, OXP and the Tool
// Explorer. The tools are deterministic, as qmcp's are.
//
//toolgen:toolkit QMCP version=1.0.0
package main

//go:generate go tool toolgen

import (
	"context"
	"encoding/json"
	"fmt"
)

// EchoInput is what echo sends back.
type EchoInput struct {
	// The message to echo back.
	Message string `json:"message"`
}

// Echo the input message back. Useful for testing.
//
//toolgen:tool name=echo readonly idempotent closedworld
//toolgen:example {"message":"Hello, MCP!"}
func Echo(_ context.Context, in EchoInput) (string, error) {
	return in.Message, nil
}

// PlannerInput is a goal to plan for.
type PlannerInput struct {
	// The goal to create a plan for.
	Goal string `json:"goal" jsonschema:"minLength=1"`
	// Optional context to inform planning.
	Context string `json:"context,omitempty"`
}

// Step is one step of a plan.
type Step struct {
	// Its number, from 1.
	Step int `json:"step"`
	// What to do.
	Action string `json:"action"`
}

// Plan is a goal broken into steps.
type Plan struct {
	Goal           string `json:"goal"`
	Steps          []Step `json:"steps"`
	EstimatedSteps int    `json:"estimated_steps"`
}

// Planner creates a step-by-step execution plan from a goal.
//
//toolgen:tool name=planner readonly idempotent closedworld
//toolgen:example {"goal":"Deploy a new service","context":"Production environment"}
func Planner(_ context.Context, in PlannerInput) (*Plan, error) {
	actions := []string{"Analyze requirements", "Identify dependencies", "Create execution order", "Validate plan"}
	p := &Plan{Goal: in.Goal, EstimatedSteps: len(actions)}
	for i, a := range actions {
		p.Steps = append(p.Steps, Step{Step: i + 1, Action: a})
	}
	return p, nil
}

// ExecutorInput is an approved plan to run.
type ExecutorInput struct {
	// The plan to execute, as the planner made it.
	Plan struct {
		// The plan's steps, in order.
		Steps []Step `json:"steps"`
	} `json:"plan"`
	// Only report what would be done.
	DryRun bool `json:"dry_run,omitempty"`
}

// StepResult is what running one step did.
type StepResult struct {
	Step   int    `json:"step"`
	Action string `json:"action"`
	Status string `json:"status"`
}

// Execution summarises a run of a plan.
type Execution struct {
	// "dry_run" or "executed".
	Mode          string       `json:"mode"`
	StepsExecuted int          `json:"steps_executed"`
	Results       []StepResult `json:"results"`
	Success       bool         `json:"success"`
}

// Executor executes an approved plan and returns an execution summary.
//
//toolgen:tool name=executor idempotent closedworld
//toolgen:example {"plan":{"steps":[{"step":1,"action":"Analyze requirements"}]},"dry_run":true}
func Executor(_ context.Context, in ExecutorInput) (*Execution, error) {
	e := &Execution{Mode: "executed", Results: []StepResult{}, Success: true}
	status := "completed"
	if in.DryRun {
		e.Mode, status = "dry_run", "simulated"
	}
	for _, s := range in.Plan.Steps {
		e.Results = append(e.Results, StepResult{Step: s.Step, Action: s.Action, Status: status})
	}
	e.StepsExecuted = len(e.Results)
	return e, nil
}

// ReviewerInput is a result to review against criteria.
type ReviewerInput struct {
	// The result to review, such as an executor's summary.
	Result json.RawMessage `json:"result"`
	// What to check: completeness, correctness, ...
	Criteria []string `json:"criteria,omitempty"`
}

// Check is the verdict on one criterion.
type Check struct {
	Criterion string `json:"criterion"`
	Passed    bool   `json:"passed"`
	Note      string `json:"note"`
}

// Review is a summary assessment.
type Review struct {
	ReviewedResult json.RawMessage `json:"reviewed_result"`
	Checks         []Check         `json:"checks"`
	// "approved" or "needs_revision".
	OverallStatus  string `json:"overall_status"`
	Recommendation string `json:"recommendation"`
}

// Reviewer reviews results and provides a summary assessment.
//
//toolgen:tool name=reviewer readonly idempotent closedworld
//toolgen:example {"result":{"success":true},"criteria":["completeness","correctness"]}
func Reviewer(_ context.Context, in ReviewerInput) (*Review, error) {
	var fields map[string]any
	_ = json.Unmarshal(in.Result, &fields)
	criteria := in.Criteria
	if len(criteria) == 0 {
		criteria = []string{"completeness"}
	}
	r := &Review{ReviewedResult: in.Result, Checks: []Check{}, OverallStatus: "approved", Recommendation: "Proceed with next steps"}
	for _, c := range criteria {
		passed := len(fields) > 0
		if ok, isBool := fields["success"].(bool); isBool {
			passed = ok
		}
		note := fmt.Sprintf("%s: the result has %d fields", c, len(fields))
		r.Checks = append(r.Checks, Check{Criterion: c, Passed: passed, Note: note})
		if !passed {
			r.OverallStatus, r.Recommendation = "needs_revision", "Revise the result and review again"
		}
	}
	return r, nil
}
