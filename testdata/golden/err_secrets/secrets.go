package secrets

import "context"

type In struct {
	// X.
	X string `json:"x"`
}

// Empty has an empty id between two commas.
//
//toolgen:tool secrets=A,,B
func Empty(ctx context.Context, in In) error { return nil }

// Invalid ids: a dash, a leading digit.
//
//toolgen:tool secrets=API-KEY,2FA
func Invalid(ctx context.Context, in In) error { return nil }

// Twice lists an id twice.
//
//toolgen:tool secrets=KEY,OTHER,KEY
func Twice(ctx context.Context, in In) error { return nil }

// Quoted errors point at the value.
//
//toolgen:tool secrets="KEY, SPACE"
func Quoted(ctx context.Context, in In) error { return nil }

// Bare secrets without a value.
//
//toolgen:tool secrets
func Bare(ctx context.Context, in In) error { return nil }
