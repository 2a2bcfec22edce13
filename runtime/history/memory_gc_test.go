package history

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkMemoryGC is what a full memory store costs the garbage
// collector: one collection with DefaultMemoryRows records of a
// recorded call each (ids, a caller, a correlation id, input and result
// JSON, times) held, the store's records being most of the live heap of
// a server, beside one with an empty store, for scale. The collector
// would trace every pointer a record held, on every cycle a busy server
// runs, which is why the store's records hold none (memRecord).
// live-MiB is the heap the store holds.
//
//	go test ./runtime/history -run '^$' -bench MemoryGC -count 6
func BenchmarkMemoryGC(b *testing.B) {
	for _, rows := range []int{0, DefaultMemoryRows} {
		b.Run(fmt.Sprint("rows=", rows), func(b *testing.B) { benchmarkMemoryGC(b, rows) })
	}
}

func benchmarkMemoryGC(b *testing.B, rows int) {
	m := NewMemory(Retention{})
	defer m.Close()
	ctx := context.Background()
	at := time.Now()
	caller, corr := "alice", "wf-9"
	for i := range rows {
		r := &Record{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Tool: "forecast", Surface: "explorer",
			Input: []byte(`{"city":"Oslo","days":2}`), CreatedAt: at, Caller: &caller, CorrelationID: &corr, Deadline: &at}
		if err := m.Start(ctx, r); err != nil {
			b.Fatal(err)
		}
		d, done := 1.5, at.Add(time.Millisecond)
		r.Status, r.Result, r.DurationMS, r.CompletedAt = Success, []byte(`{"city":"Oslo","days":[{"high":12,"low":3}]}`), &d, &done
		if err := m.Finish(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ResetTimer()
	for b.Loop() {
		runtime.GC()
	}
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-MiB")
	runtime.KeepAlive(m)
}
