// Package policy holds the rules of the policy a tool declares (scopes, a
// rate limit, a timeout, an approval, task support), shared by the generator, which
// checks them at generation time, and the runtime, which enforces them.
// It imports
// nothing but the standard library, so that the generator links none of
// the server's dependencies.
package policy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ScopeRule says what a scope may be, for error messages.
const ScopeRule = "printable ASCII without spaces, quotes, backslashes or commas (RFC 6749's scope-token)"

// ValidScope reports whether s is a scope: 1 to 128 printable ASCII
// characters other than space, '"' and '\' (RFC 6749, section 3.3), and
// not ',', which separates scopes in a directive.
func ValidScope(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' || c == ',' {
			return false
		}
	}
	return true
}

// RateRule says how a rate limit is written, for error messages.
const RateRule = "N/s, N/m or N/h, N a whole number from 1 to 1000000000"

// ParseRate reads a rate limit, "10/m": n calls per period.
func ParseRate(s string) (n int, per time.Duration, err error) {
	count, unit, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("rate limit %q: write %s", s, RateRule)
	}
	switch unit {
	case "s":
		per = time.Second
	case "m":
		per = time.Minute
	case "h":
		per = time.Hour
	default:
		return 0, 0, fmt.Errorf("rate limit %q: the period is s, m or h, not %q", s, unit)
	}
	n, err = strconv.Atoi(count)
	if err != nil || n < 1 || n > 1_000_000_000 || strings.TrimLeft(count, "0123456789") != "" {
		return 0, 0, fmt.Errorf("rate limit %q: write %s", s, RateRule)
	}
	return n, per, nil
}

// FormatRate writes a rate limit as ParseRate reads it.
func FormatRate(n int, per time.Duration) string {
	unit := map[time.Duration]string{time.Second: "s", time.Minute: "m", time.Hour: "h"}[per]
	if unit == "" {
		return fmt.Sprintf("%d/%s", n, per)
	}
	return fmt.Sprintf("%d/%s", n, unit)
}

// MaxTimeout bounds a tool's timeout: a day is longer than any client
// waits.
const MaxTimeout = 24 * time.Hour

// ParseTimeout reads a tool's timeout, a Go duration ("30s", "2m")
// greater than zero and at most MaxTimeout.
func ParseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("timeout %q is not a duration such as 30s or 2m", s)
	case d <= 0:
		return 0, errors.New("timeout must be greater than zero")
	case d > MaxTimeout:
		return 0, fmt.Errorf("timeout %s is longer than %s", d, MaxTimeout)
	}
	return d, nil
}

// The approvals a tool may declare (runtime.Approval): who agrees to
// each call before it runs.
const (
	ApprovalOperator = "operator" // a person answering a human request
	ApprovalClient   = "client"   // the calling client's user
)

// ApprovalRule says what an approval may be, for error messages.
const ApprovalRule = "operator or client"

// ParseApproval reads a tool's approval: "operator" or "client".
func ParseApproval(s string) (string, error) {
	switch s {
	case ApprovalOperator, ApprovalClient:
		return s, nil
	}
	return "", fmt.Errorf("approval %q: use %s", s, ApprovalRule)
}

// The task supports a tool may declare (runtime.TaskSupport): whether its
// MCP calls run as MCP tasks.
const (
	TaskOptional = "optional" // when the client declares the tasks extension
	TaskRequired = "required" // always; a client without the extension is refused
)

// TaskRule says what a task support may be, for error messages.
const TaskRule = "optional or required"

// ParseTask reads a tool's task support: "optional" or "required".
func ParseTask(s string) (string, error) {
	switch s {
	case TaskOptional, TaskRequired:
		return s, nil
	}
	return "", fmt.Errorf("task %q: use %s", s, TaskRule)
}
