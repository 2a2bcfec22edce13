package impls

import (
	"flag"
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

// rotate starts each benchmark's impls at another one: the report moves
// it on by one every round, so that no impl always runs first, on a cold
// heap, or always after the same neighbour.
var rotate = flag.Int("rotate", 0, "start the impls of each benchmark at this index (modulo their number)")

func BenchmarkREST(b *testing.B) { benchProtocol(b, wire.REST) }

func BenchmarkMCP(b *testing.B) { benchProtocol(b, wire.MCP) }

func benchProtocol(b *testing.B, p wire.Protocol) {
	all := Of(p)
	for i := range all {
		impl := all[(i+*rotate)%len(all)]
		b.Run("impl="+impl.Name, func(b *testing.B) { callLoop(b, caller(b, impl)) })
	}
}

// callLoop checks c's first answer in full, then times its calls.
func callLoop(b *testing.B, c *wire.Caller) {
	if err := c.CallChecked(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Call(); err != nil {
			b.Fatal(err)
		}
	}
}
