package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

var inspectSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"server/discover"}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":null,"method":"m","params":null}`,
	`{"jsonrpc":"2.0","id":3,"result":{}}`,
	`{"jsonrpc":"2.0","id":{},"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":3}`,
	`{"jsonrpc":"1.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":7}`,
	`{"jsonrpc":"2.0","id":1}`,
	`{"JSONRPC":"2.0","id":1,"Method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_META":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"_meta":{}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026\u002d07-28"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":["a"]}`,
	`{"json\u0072pc":"2.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2\u002e0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","extra":[1,{"a":2}]}`,
	` {"jsonrpc" : "2.0" , "id" : -4 , "method" : "m" } `,
	`[{"jsonrpc":"2.0","id":1,"method":"m"}]`,
	`[]`, `"x"`, `{}`, `{"jsonrpc":"2.0","method":"m","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}`,
}

// TestInspectPlain: inspectPlain, the reading of the plain message almost
// every client sends, gives what inspectMessages, the full reading, gives,
// wherever it answers at all (and it answers for the plain seeds).
func TestInspectPlain(t *testing.T) {
	plain := 0
	for _, s := range inspectSeeds {
		if checkInspectPlain(t, []byte(s)) {
			plain++
		}
	}
	if plain < 8 {
		t.Errorf("inspectPlain answered for %d of the seeds, want the plain ones (at least 8)", plain)
	}
}

func FuzzInspectPlain(f *testing.F) {
	for _, s := range inspectSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkInspectPlain(t, []byte(s)) })
}

// checkInspectPlain compares the two readings of body, a valid JSON body
// as inspectRPC hands it over, and reports whether inspectPlain answered.
func checkInspectPlain(t *testing.T, body []byte) bool {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || !json.Valid(b) || jsoncheck.Problem(b) != "" {
		return false // refused before either reading (invalid UTF-8, ...)
	}
	got, ok := inspectPlain(b)
	if !ok {
		return false
	}
	want, err := inspectMessages(b)
	if err != nil {
		t.Errorf("%s: inspectPlain answered %+v, inspectMessages refused it: %v", b, got, err)
	} else if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: inspectPlain %+v, inspectMessages %+v", b, got, want)
	}
	return true
}

// BenchmarkInspectRPC is what inspectPlain buys on a session's tools/call:
// inspectRPC as it is (checks, then the plain reading) against the same
// checks followed by the full reading.
//
//	go test ./runtime -run '^$' -bench InspectRPC -count 6
func BenchmarkInspectRPC(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo","days":2},"_meta":{"progressToken":null}}}`)
	b.Run("read=plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := inspectRPC(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read=full", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			// inspectRPC's checks, then the reading it did before.
			if !utf8.Valid(body) || jsonscan.Deeper(body, jsoncheck.MaxNesting) || !json.Valid(body) {
				b.Fatal("invalid")
			}
			if _, err := inspectMessages(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// inspectRPC words a body that is not JSON as every reader does
// (jsoncheck.Problem), as a JSON-RPC parse error.
func TestInspectRPCWordsProblems(t *testing.T) {
	deep := strings.Repeat("[", 129) + strings.Repeat("]", 129)
	for _, body := range []string{"{\"a\":\"\xff\"}", deep, `{"a":}`, `{} {}`} {
		problem := jsoncheck.Problem([]byte(body))
		if problem == "" {
			t.Fatalf("%q: no problem", body)
		}
		_, err := inspectRPC([]byte(body))
		if err == nil || err.Error() != "Parse error: the body is "+problem+"." {
			t.Errorf("inspectRPC(%q) = %v, want the body is %s.", body, err, problem)
		}
	}
}

// exactID takes a numeric id only when the SDK (which reads it as a
// float64 and writes back an int64) answers the same number: a whole
// number of at most 2^53, read from its digits, not rounded.
func TestExactID(t *testing.T) {
	for id, want := range map[string]bool{
		"1": true, "-5": true, "0": true, "0.0": true, "0e5": true, "1.0": true, "1e2": true, "1E+2": true, "0.5e1": true, "100e-2": true, "0.00000001e8": true,
		"9007199254740992": true, "-9007199254740992": true, "1e15": true,
		"1.5": false, "9007199254740993": false, "9007199254740992.5": false, "1.0000000000000001": false, "1e16": false,
		"99999999999999999999999": false, "1e-1000000000": false, "1e1000000000": false,
	} {
		if got := exactID([]byte(id)); got != want {
			t.Errorf("exactID(%s) = %v, want %v", id, got, want)
		}
	}
}
