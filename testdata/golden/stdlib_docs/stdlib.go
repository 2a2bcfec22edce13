// Package stdlib_docs covers a type of the standard library: its fields'
// docs are read from its source, which export data places under
// "$GOROOT".
package stdlib_docs

import (
	"context"
	"net/mail"
)

// Mail echoes an address.
//
//toolgen:tool
func Mail(ctx context.Context, in mail.Address) (*mail.Address, error) { return &in, nil }
