package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// The store's bus (history.Bus): LISTEN and NOTIFY, on one connection of
// its own that listens to every channel a caller asked for, so that the
// processes sharing the database signal each other through it and
// nothing else. The connection is made on the first Listen, and made
// again (listening again) when it breaks; what was sent while it was down
// is lost, as NOTIFY to nobody is.

var _ history.Bus = (*Store)(nil)

type bus struct {
	mu       sync.Mutex
	handlers map[string]map[int]func(string)
	// subscribed is closed for each channel once the loop LISTENs to it.
	subscribed map[string]chan struct{}
	next       int
	started    bool
	pid        uint32 // the listening connection's backend, for tests
}

// Publish sends payload on channel with pg_notify; one of more than
// history.MaxBusPayload bytes is refused with history.ErrPayloadTooLarge.
func (s *Store) Publish(ctx context.Context, channel, payload string) error {
	if len(payload) > history.MaxBusPayload {
		return history.ErrPayloadTooLarge
	}
	if _, err := s.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, payload); err != nil {
		return fmt.Errorf("history/postgres: notify: %w", err)
	}
	return nil
}

// Listen calls f with each payload sent on channel until stop.
func (s *Store) Listen(ctx context.Context, channel string, f func(string)) (func(), error) {
	b := &s.bus
	b.mu.Lock()
	if b.handlers == nil {
		b.handlers = map[string]map[int]func(string){}
		b.subscribed = map[string]chan struct{}{}
	}
	if b.handlers[channel] == nil {
		b.handlers[channel] = map[int]func(string){}
		b.subscribed[channel] = make(chan struct{})
	}
	b.next++
	id := b.next
	b.handlers[channel][id] = f
	subscribed := b.subscribed[channel]
	start := !b.started
	b.started = true
	b.mu.Unlock()
	stop := func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.handlers[channel], id)
	}
	if start {
		s.wg.Go(s.listen)
	} else {
		// The loop LISTENs to a channel it does not know yet when woken.
		_, _ = s.pool.Exec(ctx, `SELECT pg_notify($1, '')`, wakeChannel)
	}
	select {
	case <-subscribed:
		return stop, nil
	case <-ctx.Done():
		// Still registered: the loop listens once it can connect.
		return stop, fmt.Errorf("history/postgres: not listening yet: %w", ctx.Err())
	}
}

// wakeChannel is the channel the loop always listens to, to be woken
// (and to hear that its connection still works: see busCheck).
const wakeChannel = "toolgen_bus_wake"

// busCheck is how often the bus checks that its connection still hears.
var busCheck = 20 * time.Second

// listen is the loop: connect, LISTEN to every channel, dispatch
// notifications; again after a failure, until the store closes.
func (s *Store) listen() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-s.stop
		cancel()
	}()
	for ctx.Err() == nil {
		err := s.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		slog.Default().Warn("history/postgres: the bus connection failed; listening again", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

func (s *Store) listenOnce(ctx context.Context) error {
	pc, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection leaves the pool: it is the bus's from now on.
	conn := pc.Hijack()
	defer conn.Close(context.Background())
	b := &s.bus
	listened := map[string]bool{}
	listenTo := func(ch string) error {
		if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{ch}.Sanitize()); err != nil {
			return err
		}
		listened[ch] = true
		b.mu.Lock()
		defer b.mu.Unlock()
		if c := b.subscribed[ch]; c != nil {
			select {
			case <-c:
			default:
				close(c)
			}
		}
		return nil
	}
	// subscribe LISTENs to the wake channel first, then to every channel
	// with a handler, and looks again until none is new: a Listen that
	// registers before the wake channel is listened to is found so.
	subscribe := func() error {
		for {
			b.mu.Lock()
			channels := []string{wakeChannel}
			for ch := range b.handlers {
				channels = append(channels, ch)
			}
			b.mu.Unlock()
			fresh := false
			for _, ch := range channels {
				if !listened[ch] {
					fresh = true
					if err := listenTo(ch); err != nil {
						return err
					}
				}
			}
			if !fresh {
				return nil
			}
		}
	}
	if err := subscribe(); err != nil {
		return err
	}
	b.mu.Lock()
	b.pid = conn.PgConn().PID()
	b.mu.Unlock()
	// The watchdog: a connection the network lost without a word (a
	// half-open TCP connection) would wait for notifications forever. Every
	// busCheck the store wakes its own loop; three wakes unheard and the
	// connection is closed under the loop, which connects again.
	heard := make(chan struct{}, 1)
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go func() {
		t := time.NewTicker(busCheck)
		defer t.Stop()
		unheard := 0
		for {
			select {
			case <-wctx.Done():
				return
			case <-heard:
				unheard = 0
			case <-t.C:
				if unheard++; unheard > 3 {
					slog.Default().Warn("history/postgres: the bus connection stopped hearing; connecting again")
					_ = conn.PgConn().Conn().Close() // ends WaitForNotification
					return
				}
				_, _ = s.pool.Exec(wctx, `SELECT pg_notify($1, '')`, wakeChannel)
			}
		}
	}()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		select {
		case heard <- struct{}{}:
		default:
		}
		if n.Channel == wakeChannel {
			if err := subscribe(); err != nil {
				return err
			}
			continue
		}
		b.mu.Lock()
		fs := make([]func(string), 0, len(b.handlers[n.Channel]))
		for _, f := range b.handlers[n.Channel] {
			fs = append(fs, f)
		}
		b.mu.Unlock()
		for _, f := range fs {
			dispatch(f, n.Channel, n.Payload)
		}
	}
}

// dispatch calls f with payload; a panic in f is logged, and the loop
// goes on (it is the store's goroutine: a panic would end the process).
func dispatch(f func(string), channel, payload string) {
	defer func() {
		if v := recover(); v != nil {
			slog.Default().Error("history/postgres: a bus listener panicked", "channel", channel, "panic", v, "stack", string(debug.Stack()))
		}
	}()
	f(payload)
}
