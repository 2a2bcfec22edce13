// Command calculator serves the two tools of the OXP "List Tools" example,
// built schema-first: tools.yaml is the contract, toolgen generates
// tools_gen.go from it (Go types, the Handlers interface, Tools), and this
// file implements Handlers.
package main

//go:generate go tool toolgen -lock tools.yaml

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
)

// calculator implements Handlers. Embedding UnimplementedHandlers keeps it
// compiling when a tool is added to tools.yaml before it is implemented.
type calculator struct {
	UnimplementedHandlers

	mu    sync.Mutex
	rings map[string]int
}

func (c *calculator) Add(ctx context.Context, in AddInput) (AddOutput, error) {
	return in.A + in.B, nil
}

func (c *calculator) Ring(ctx context.Context, in RingInput) (*runtime.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rings == nil {
		c.rings = map[string]int{}
	}
	c.rings[in.DoorbellID]++
	return runtime.TextResult(fmt.Sprintf("Ding dong! Doorbell %s has rung %d time(s).", in.DoorbellID, c.rings[in.DoorbellID])), nil
}
