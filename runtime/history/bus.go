package history

import (
	"context"
	"errors"
)

// Bus is implemented by a Store through which the processes sharing it
// can signal each other (runtime/history/postgres, with LISTEN/NOTIFY on
// its own connection): runtime/mcp hands a tasks/update or tasks/cancel
// for a task another replica runs to that replica.
type Bus interface {
	// Publish sends payload (at most MaxBusPayload bytes, else
	// ErrPayloadTooLarge) to every process listening on channel, this
	// one included.
	Publish(ctx context.Context, channel, payload string) error
	// Listen calls f, on a goroutine of the store's, with each payload
	// sent on channel from then on, until stop is called. It returns
	// once it listens; when ctx ends first it returns an error, and f
	// stays registered, called once the store can listen. f must not
	// block for long; a panic in f is recovered and logged.
	Listen(ctx context.Context, channel string, f func(payload string)) (stop func(), err error)
}

// MaxBusPayload is the most a Bus payload may hold (PostgreSQL's NOTIFY
// takes less than 8,000 bytes).
const MaxBusPayload = 7000

// ErrPayloadTooLarge is a Bus's refusal of a payload of more than
// MaxBusPayload bytes.
var ErrPayloadTooLarge = errors.New("history: bus payload larger than 7,000 bytes")
