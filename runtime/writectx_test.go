package runtime

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/uuid"
)

type ctxKey struct{}

func newWriteContext(parent context.Context, d time.Duration) *writeContext {
	c := new(writeContext)
	c.init(parent, time.Now().Add(d))
	return c
}

// A history write's context behaves as
// context.WithTimeout(context.WithoutCancel(ctx), d) whether or not the
// store ever asks for Done.
func TestWriteContext(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
	cancelParent() // the call's cancellation never reaches the write
	// Each case runs in a synctest bubble: the deadlines pass in fake
	// time, exactly, however loaded the machine.
	run := func(name string, f func(t *testing.T)) {
		t.Run(name, func(t *testing.T) { synctest.Test(t, f) })
	}

	run("never asked for Done", func(t *testing.T) {
		c := newWriteContext(parent, 20*time.Millisecond)
		defer c.cancel()
		if c.Value(ctxKey{}) != "v" {
			t.Error("the call's values are lost")
		}
		if dl, ok := c.Deadline(); !ok || time.Until(dl) > 20*time.Millisecond {
			t.Errorf("deadline %v %v", dl, ok)
		}
		if err := c.Err(); err != nil {
			t.Fatalf("Err before the deadline: %v", err)
		}
		time.Sleep(30 * time.Millisecond)
		if err := c.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Err after the deadline: %v", err)
		}
		select {
		case <-c.Done(): // made after the deadline: closed at once
		default:
			t.Fatal("Done is open after the deadline")
		}
		if c.timer != nil {
			t.Error("a timer was started for a context that no one waited on before its deadline")
		}
	})

	run("Done closes at the deadline", func(t *testing.T) {
		c := newWriteContext(parent, 20*time.Millisecond)
		defer c.cancel()
		start := time.Now()
		select {
		case <-c.Done():
		case <-time.After(30 * time.Second):
			t.Fatal("Done never closed")
		}
		if d := time.Since(start); d != 20*time.Millisecond {
			t.Errorf("closed after %v, want the deadline's 20ms", d)
		}
		if err := c.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Err = %v", err)
		}
		c.cancel()
		if err := c.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("cancel after the deadline changed Err to %v", err)
		}
	})

	run("cancel releases waiters", func(t *testing.T) {
		c := newWriteContext(parent, time.Hour)
		done := c.Done()
		if c.Err() != nil {
			t.Fatal("ended early")
		}
		c.cancel()
		select {
		case <-done:
		default:
			t.Fatal("cancel left Done open")
		}
		if err := c.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("Err = %v", err)
		}
		c.cancel() // twice is harmless
		select {
		case <-c.Done():
		default:
			t.Fatal("Done reopened")
		}
	})

	run("children see it end", func(t *testing.T) {
		c := newWriteContext(parent, 10*time.Millisecond)
		defer c.cancel()
		child, cancel := context.WithCancel(c)
		defer cancel()
		select {
		case <-child.Done():
		case <-time.After(30 * time.Second):
			t.Fatal("a child context outlived the deadline")
		}
		if !errors.Is(child.Err(), context.DeadlineExceeded) {
			t.Errorf("child Err = %v", child.Err())
		}
	})
}

func TestNewUUID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		a, b := uuid.NewPair() // a request's two ids
		for _, id := range []string{uuid.New(), a, b} {
			if !re.MatchString(id) {
				t.Fatalf("%q is not a version 4 UUID", id)
			}
			if seen[id] {
				t.Fatalf("%q twice", id)
			}
			seen[id] = true
		}
	}
}
