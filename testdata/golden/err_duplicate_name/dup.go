package dup

import "context"

//toolgen:tool name=lookup
func Find(ctx context.Context, q string) (string, error) { return q, nil }

//toolgen:tool
func Lookup(ctx context.Context, q string) (string, error) { return q, nil }
