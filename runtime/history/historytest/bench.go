package historytest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/history"
)

// Bench measures what recording one call costs: a Start and its Finish,
// with an input and a result of typical size, on a store open makes (and
// Bench closes). "serial" is one caller at a time, the latency a call
// pays; "parallel" is GOMAXPROCS callers at once, the throughput.
func Bench(b *testing.B, open func(b *testing.B) history.Store) {
	input := []byte(`{"city":"Paris","units":"celsius","days":3}`)
	result := []byte(`{"content":[{"type":"text","text":"Sunny, 21 °C, light wind from the west."}],"isError":false}`)
	var n atomic.Int64
	call := func(b *testing.B, s history.Store) {
		i := n.Add(1)
		r := &history.Record{
			ID:            fmt.Sprintf("00000000-0000-4000-8000-%012d", i),
			Tool:          "get_weather",
			Surface:       "mcp",
			Input:         input,
			Status:        history.Pending,
			CreatedAt:     time.Now(),
			CorrelationID: &r0,
			Caller:        &caller,
		}
		if err := s.Start(b.Context(), r); err != nil {
			b.Fatal(err)
		}
		done := time.Now()
		f := *r
		f.Status, f.Result, f.CompletedAt = history.Success, result, &done
		d := float64(done.Sub(r.CreatedAt)) / float64(time.Millisecond)
		f.DurationMS = &d
		if err := s.Finish(b.Context(), &f); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("serial", func(b *testing.B) {
		s := open(b)
		defer s.Close()
		b.ReportAllocs()
		for b.Loop() {
			call(b, s)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		s := open(b)
		defer s.Close()
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				call(b, s)
			}
		})
	})
}

var r0, caller = "trace-0af7651916cd43dd8448eb211c80319c", "alice"
