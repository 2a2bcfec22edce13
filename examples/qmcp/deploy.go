package main

import "context"

// DeployInput names a service and where to deploy it.
type DeployInput struct {
	// The service to deploy
	Service string `json:"service" jsonschema:"minLength=1"`
	// Where to deploy it
	Environment string `json:"environment" jsonschema:"enum=staging,enum=production"`
}

// Deployment says what was deployed where.
type Deployment struct {
	Service     string `json:"service"`
	Environment string `json:"environment"`
	// Always "deployed".
	Status string `json:"status"`
}

// Deploy is toolgen's addition to qmcp's tools, to show approvals: each
// call files a human request and waits until an operator (a principal
// with the scope "approvals", not the caller) approves it, in the
// explorer's Approvals tab or with POST /v1/human/responses. It deploys
// nothing: it says what it would have deployed.
//
//toolgen:tool name=deploy description="Deploy a service. Each call waits for an operator's approval." destructive idempotent closedworld approval=operator
//toolgen:example {"service":"api","environment":"production"}
func Deploy(_ context.Context, in DeployInput) (*Deployment, error) {
	return &Deployment{Service: in.Service, Environment: in.Environment, Status: "deployed"}, nil
}
