package runtime

import (
	"fmt"
	"time"
)

// ToolError is an error a tool returns to report a failure the caller
// should see and may act on: an unknown city, a rate limit. Every surface
// shows Message (an isError result on MCP and the explorer, success:false
// with the hints on OXP, error on /v1); DeveloperMessage is logged, never
// shown. A ToolError is logged at INFO: it is the tool working as meant.
// Any other error from a handler is logged at ERROR.
type ToolError struct {
	// Message says what went wrong, for the caller (often a model).
	Message string
	// DeveloperMessage is detail for the server's operators: logged only.
	DeveloperMessage string
	// CanRetry says whether the same call may succeed if made again.
	CanRetry bool
	// RetryAfter, when set, is how long to wait before retrying.
	RetryAfter time.Duration
	// AdditionalPromptContent is text a model may add to its prompt to do
	// better next time (OXP's additional_prompt_content).
	AdditionalPromptContent string
}

// Error returns the message shown to the caller.
func (e *ToolError) Error() string { return e.Message }

// RetryableError returns a ToolError that may succeed if retried after d
// (zero: no advice on when).
func RetryableError(d time.Duration, format string, args ...any) *ToolError {
	return &ToolError{Message: fmt.Sprintf(format, args...), CanRetry: true, RetryAfter: d}
}
