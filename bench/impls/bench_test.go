package impls

import (
	"testing"

	"github.com/toolgen-go/toolgen/bench/wire"
)

// The in-process benchmarks: the same raw HTTP request replayed into each
// server's ServeHTTP with an httptest.ResponseRecorder, so only the
// server's work is measured (and the request's construction, a shallow
// copy the same for every server). MCP servers get a session first
// (initialize, notifications/initialized); the loop replays tools/call
// with the session's headers. Every answer is checked (status, the
// expected structured result, not an error result).
//
//	go test -run '^$' -bench . -benchmem -count 6 ./impls > in.txt
//	go tool benchstat -col /impl -filter .name:MCP in.txt

func BenchmarkREST(b *testing.B) { benchProtocol(b, wire.REST) }

func BenchmarkMCP(b *testing.B) { benchProtocol(b, wire.MCP) }

func benchProtocol(b *testing.B, p wire.Protocol) {
	for _, impl := range Of(p) {
		b.Run("impl="+impl.Name, func(b *testing.B) {
			c := caller(b, impl)
			if err := c.CallChecked(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
