package history

import "context"

// Bus is implemented by a Store through which the processes sharing it
// can signal each other (runtime/history/postgres, with LISTEN/NOTIFY on
// its own connection): runtime/mcp hands a tasks/update or tasks/cancel
// for a task another replica runs to that replica.
type Bus interface {
	// Publish sends payload (at most 7,000 bytes) to every process
	// listening on channel, this one included.
	Publish(ctx context.Context, channel, payload string) error
	// Listen calls f, on a goroutine of the store's, with each payload
	// sent on channel from then on, until stop is called. It returns
	// once it listens. f must not block for long.
	Listen(ctx context.Context, channel string, f func(payload string)) (stop func(), err error)
}
