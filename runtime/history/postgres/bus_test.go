package postgres

import (
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// A payload published through one store reaches the listeners of
// another on the same database, each channel its own; a stopped listener
// hears nothing more.
func TestBus(t *testing.T) {
	schema := newSchema(t)
	a := openIn(t, schema, history.Retention{})
	defer a.Close()
	b := openIn(t, schema, history.Retention{})
	defer b.Close()
	got := make(chan string, 8)
	stop, err := b.Listen(t.Context(), "toolgen_test_one", func(p string) { got <- "one " + p })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Listen(t.Context(), "toolgen_test_two", func(p string) { got <- "two " + p }); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ channel, payload, want string }{
		{"toolgen_test_one", "hello", "one hello"},
		{"toolgen_test_two", "there", "two there"},
	} {
		if err := a.Publish(t.Context(), c.channel, c.payload); err != nil {
			t.Fatal(err)
		}
		select {
		case p := <-got:
			if p != c.want {
				t.Errorf("heard %q, want %q", p, c.want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%q never arrived", c.want)
		}
	}
	stop()
	if err := a.Publish(t.Context(), "toolgen_test_one", "gone"); err != nil {
		t.Fatal(err)
	}
	if err := a.Publish(t.Context(), "toolgen_test_two", "last"); err != nil {
		t.Fatal(err)
	}
	// Notifications arrive in the order they were sent: once "last" is
	// heard, "gone" would have been.
	select {
	case p := <-got:
		if p != "two last" {
			t.Errorf("heard %q after stop, want only %q", p, "two last")
		}
	case <-time.After(time.Minute):
		t.Fatal("the last payload never arrived")
	}
}

// BenchmarkBusRoundTrip is the latency from a Publish on one replica to
// the listener on another: what a tasks/cancel sent to the wrong replica
// adds before the handler's ctx ends.
func BenchmarkBusRoundTrip(b *testing.B) {
	schema := newSchema(b)
	pub := openIn(b, schema, history.Retention{})
	defer pub.Close()
	sub := openIn(b, schema, history.Retention{})
	defer sub.Close()
	got := make(chan struct{}, 1)
	if _, err := sub.Listen(b.Context(), "toolgen_bench", func(string) { got <- struct{}{} }); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := pub.Publish(b.Context(), "toolgen_bench", "x"); err != nil {
			b.Fatal(err)
		}
		<-got
	}
}

// A bus whose connection the database ends (a restart, an
// administrator's pg_terminate_backend) connects again and hears again.
func TestBusReconnects(t *testing.T) {
	schema := newSchema(t)
	a := openIn(t, schema, history.Retention{})
	defer a.Close()
	got := make(chan string, 64)
	if _, err := a.Listen(t.Context(), "toolgen_test_again", func(p string) { got <- p }); err != nil {
		t.Fatal(err)
	}
	a.bus.mu.Lock()
	pid := a.bus.pid
	a.bus.mu.Unlock()
	if _, err := a.pool.Exec(t.Context(), `SELECT pg_terminate_backend($1)`, int64(pid)); err != nil {
		t.Fatal(err)
	}
	// Publish until heard: the bus is back within a generous ceiling.
	deadline := time.Now().Add(time.Minute)
	for i := 0; ; i++ {
		if err := a.Publish(t.Context(), "toolgen_test_again", "after"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-got:
			return
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the bus did not hear again after its connection ended")
		}
	}
}

// A listener that panics stops neither the process nor the bus: the
// next payload is heard.
func TestBusListenerPanics(t *testing.T) {
	s := openIn(t, newSchema(t), history.Retention{})
	defer s.Close()
	got := make(chan string, 4)
	if _, err := s.Listen(t.Context(), "toolgen_test_panic", func(p string) {
		if p == "boom" {
			panic("a listener's bug")
		}
		got <- p
	}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"boom", "after"} {
		if err := s.Publish(t.Context(), "toolgen_test_panic", p); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case p := <-got:
		if p != "after" {
			t.Errorf("heard %q, want %q", p, "after")
		}
	case <-time.After(time.Minute):
		t.Fatal("the bus stopped after its listener panicked")
	}
}
