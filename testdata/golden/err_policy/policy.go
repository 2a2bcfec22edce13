package policy

import "context"

// Empty has an empty scope between two commas.
//
//toolgen:tool scopes=a,,b
func Empty(ctx context.Context) error { return nil }

// Invalid scopes: a quote, a backslash.
//
//toolgen:tool scopes=ok,bad"q,bad\b
func Invalid(ctx context.Context) error { return nil }

// Twice lists a scope twice.
//
//toolgen:tool scopes=read,write,read
func Twice(ctx context.Context) error { return nil }

// Rate has no period.
//
//toolgen:tool ratelimit=10
func Rate(ctx context.Context) error { return nil }

// Period is not s, m or h.
//
//toolgen:tool ratelimit=10/d
func Period(ctx context.Context) error { return nil }

// Zero calls a minute.
//
//toolgen:tool ratelimit=0/m
func Zero(ctx context.Context) error { return nil }

// Soon is not a duration.
//
//toolgen:tool timeout=soon
func Soon(ctx context.Context) error { return nil }

// Negative waits less than nothing.
//
//toolgen:tool timeout=-5s
func Negative(ctx context.Context) error { return nil }

// Who is not an approval.
//
//toolgen:tool approval=always
func Who(ctx context.Context) error { return nil }

// Cased approval: the values are lower case.
//
//toolgen:tool destructive approval="Operator"
func Cased(ctx context.Context) error { return nil }

// Bare policy arguments without values.
//
//toolgen:tool scopes ratelimit timeout approval task
func Bare(ctx context.Context) error { return nil }

// Sometimes is not a task support.
//
//toolgen:tool task=sometimes
func Sometimes(ctx context.Context) error { return nil }
