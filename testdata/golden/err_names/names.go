// Package names declares what the generated file would declare: each
// collision is an error at the declaration to rename.
package names

import "context"

// Tools is the package's own.
func Tools() []string { return nil }

var toolgenLookupHandler = 1

//toolgen:tool name=lookup
func Lookup(ctx context.Context, q string) (string, error) { return q, nil }

//toolgen:tool name=lookup_lower
func lookup(ctx context.Context, q string) (string, error) { return q, nil }

var _ = toolgenLookupHandler
