// Package directives covers //toolgen:tool's arguments, examples and the
// package's toolkit.
//
//toolgen:toolkit Files version=2.1.0
package directives

import "context"

type PathInput struct {
	// Path of the file.
	Path string `json:"path"`
	// Bytes to read at most.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1"`
}

// ReadFile reads a file.
//
//toolgen:tool name=read title="Read a file" readonly idempotent closedworld
//toolgen:example {"path": "/etc/hosts"}
//toolgen:example {"path":"notes.txt","limit":100}
func ReadFile(ctx context.Context, in PathInput) (string, error) { return "", nil }

// RemoveFile removes a file.
//
//toolgen:tool destructive openworld version=3.0.0 description="Removes a file; it cannot be undone." title="Remove: \"rm\""
func RemoveFile(ctx context.Context, in PathInput) error { return nil }

// HTTPGet shows the snake_case of initialisms.
//
//toolgen:tool
func HTTPGet(ctx context.Context, in PathInput) (string, error) { return "", nil }

// ParseV2Data shows digits.
//
//toolgen:tool name=data.parse-v2
func ParseV2Data(ctx context.Context, in PathInput) (string, error) { return "", nil }

// NotATool has no directive and is ignored.
func NotATool(ctx context.Context, in PathInput) (string, error) { return "", nil }
