package history

import "context"

// Discard is a [Store] that keeps nothing: a server given it records no
// history (its /v1/invocations is always empty).
var Discard Store = discard{}

type discard struct{}

func (discard) Start(context.Context, *Record) error  { return nil }
func (discard) Finish(context.Context, *Record) error { return nil }
func (discard) Get(context.Context, string) (*Record, error) {
	return nil, ErrNotFound
}

func (discard) List(_ context.Context, f Filter) ([]Record, int, error) {
	if _, err := f.Normalize(); err != nil {
		return nil, 0, err
	}
	return []Record{}, 0, nil
}
func (discard) Ping(context.Context) error { return nil }

func (discard) String() string { return "discard" }
func (discard) Close() error   { return nil }
