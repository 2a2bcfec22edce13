package runtime

import (
	"context"
	"encoding/json"
	"time"
)

// Handler runs one tool call. args holds the call's arguments as a JSON
// object that has already been validated against the tool's input schema.
//
// A returned error becomes an isError result whose text is the error's
// message; it is also logged. Return a [*Result] with IsError set to report a
// failure the caller should see without logging it as a server error.
type Handler func(ctx context.Context, args json.RawMessage) (*Result, error)

// Tool describes one tool and carries the handler that runs it.
type Tool struct {
	// Name identifies the tool on every surface. Required.
	Name string
	// Title is a short human-readable name.
	Title string
	// Description tells a model or a person what the tool does.
	Description string
	// Version is the tool's version (semantic, "1.2.0"): what a caller
	// may rely on of its name and schemas (docs/versioning.md). Every
	// surface serves it (MCP's tools/list in the tool's _meta, OXP's ids,
	// /v1 and the explorer's lists, OpenAPI's x-tool-version); empty means
	// Options.ToolVersion, else "1.0.0".
	Version string
	// Toolkit groups tools for OXP ids ("Toolkit.Tool@1.2.0").
	Toolkit string
	// Annotations carries MCP's behaviour hints. Nil means none.
	Annotations *Annotations
	// InputSchema is the JSON Schema (draft 2020-12) of the arguments, an
	// object schema. Empty means any object.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the structured result, if any.
	OutputSchema json.RawMessage
	// Examples are example argument objects.
	Examples []json.RawMessage
	// Secrets are the ids of the secrets the tool reads with [Secret]
	// (OXP lists them as requirements.secrets). A call made without one of
	// them fails before the handler runs.
	Secrets []string

	// Policy, declared on the tool (//toolgen:tool scopes= ratelimit=
	// timeout=, or tools.yaml's keys) and enforced by the pipeline on
	// every surface.
	//
	// Scopes are the scopes a caller needs, all of them, to call the tool
	// and to see it in any listing (see [Principal].Scopes). They apply
	// behind an auth hook only: without one there is no caller to ask.
	Scopes []string
	// RateLimit bounds the calls of one caller per period; the zero Rate
	// is no limit.
	RateLimit Rate
	// Timeout bounds a call of this tool, overriding Options.CallTimeout;
	// zero means the server's.
	Timeout time.Duration
	// Approval says who must agree before a call runs: nobody (""),
	// a person answering a human request ([ApprovalOperator]), or the
	// calling client's user ([ApprovalClient]).
	Approval Approval
	// Task says whether an MCP call of the tool runs as an MCP task
	// (extension io.modelcontextprotocol/tasks, protocol 2026-07-28): ""
	// never, [TaskOptional] when the client declares the extension,
	// [TaskRequired] always (a client without it is refused).
	// TaskDeferred makes the call a task only once its handler calls
	// runtime/mcp's StartTask, so that it can ask the client first in input-required
	// rounds.
	Task         TaskSupport
	TaskDeferred bool

	// Signature is the call rendered compactly, for example
	// `greet(name: string, times?: integer = 1) -> string`.
	Signature string
	// Handler runs the tool. Required.
	Handler Handler
}

// Approval is who approves a tool's calls (Tool.Approval).
type Approval string

const (
	// ApprovalOperator: each call files a human request (the /v1/human
	// API, the explorer's Approvals tab) and waits, up to
	// Options.ApprovalTimeout, until a principal with the scope
	// [ScopeApprovals] other than the caller approves it (the tool runs)
	// or rejects it (the call fails).
	ApprovalOperator Approval = "operator"
	// ApprovalClient: each call asks the calling client's user first, by
	// MCP elicitation (or input-required results at protocol 2026-07-28);
	// a call from a client that cannot ask is refused, never run unasked.
	ApprovalClient Approval = "client"
)

// Annotations are MCP's tool annotations. A nil hint is omitted, never sent
// as null, so that clients apply the protocol's defaults.
type Annotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}

// IsZero reports whether no hint is set.
func (a *Annotations) IsZero() bool {
	return a == nil || (a.ReadOnlyHint == nil && a.DestructiveHint == nil && a.IdempotentHint == nil && a.OpenWorldHint == nil)
}

// Bool returns a pointer to b, for the hints of [Annotations].
func Bool(b bool) *bool { return &b }

// ToolsProvider supplies the tools a server offers. The server asks on every
// request and caches nothing but compiled schemas, so a provider may change
// its tools at any time.
type ToolsProvider interface {
	Tools(ctx context.Context) ([]Tool, error)
}

// ToolList is a fixed set of tools. It is what generated code returns.
type ToolList []Tool

// Tools returns the list itself.
func (l ToolList) Tools(context.Context) ([]Tool, error) { return l, nil }

// ToolsFunc adapts a function to [ToolsProvider]. It is called on every
// request; callers who want caching do it inside the function. An error is
// answered with a 500 JSON error and logged.
type ToolsFunc func(ctx context.Context) ([]Tool, error)

// Tools calls f.
func (f ToolsFunc) Tools(ctx context.Context) ([]Tool, error) { return f(ctx) }

// TaskSupport is whether a tool's MCP calls run as tasks (Tool.Task).
type TaskSupport string

const (
	// TaskOptional: a call runs as a task when the client declares the
	// tasks extension, else as an ordinary call.
	TaskOptional TaskSupport = "optional"
	// TaskRequired: a call runs as a task, and a client that does not
	// declare the extension is refused (MCP's missing client capability
	// error) at protocol 2026-07-28. On other surfaces, and at earlier
	// protocol revisions, where MCP defines no tasks, it runs as an
	// ordinary call.
	TaskRequired TaskSupport = "required"
)
