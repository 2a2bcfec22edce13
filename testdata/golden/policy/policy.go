// Package policy covers the policy //toolgen:tool declares: scopes=,
// ratelimit=, timeout=, approval= and task= reach runtime.Tool.Scopes,
// RateLimit, Timeout, Approval and Task.
package policy

import "context"

// IssueInput names an issue.
type IssueInput struct {
	// Number of the issue.
	Number int `json:"number"`
}

// ReadIssue reads an issue.
//
//toolgen:tool scopes=issues:read readonly
func ReadIssue(ctx context.Context, in IssueInput) (string, error) { return "open", nil }

// CloseIssue closes an issue, at most ten times a minute per caller.
//
//toolgen:tool scopes="issues:write,admin" ratelimit=10/m timeout=30s approval=operator destructive
func CloseIssue(ctx context.Context, in IssueInput) error { return nil }

// Export runs long, and at most once an hour.
//
//toolgen:tool ratelimit=1/h timeout=1h30m task=optional
func Export(ctx context.Context) (string, error) { return "done", nil }

// Delete deletes an issue once the caller's user agrees.
//
//toolgen:tool approval="client" task="required" destructive
func Delete(ctx context.Context, in IssueInput) error { return nil }

// Ping has no policy.
//
//toolgen:tool
func Ping(ctx context.Context) (string, error) { return "pong", nil }
