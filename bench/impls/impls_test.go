package impls

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/toolgen-go/toolgen/bench/wire"
)

// base is the address the in-process requests name: loopback, as a
// server's DNS-rebinding protection expects of a local client.
const base = "http://127.0.0.1:8080"

func caller(tb testing.TB, impl Impl) *wire.Caller {
	tb.Helper()
	c, err := wire.NewCaller(wire.Handler(impl.New()), base, impl.Protocol)
	if err != nil {
		tb.Fatalf("%s: %v", impl.ID(), err)
	}
	return c
}

// Every impl answers the benchmark's call with the right result, fully
// parsed, and again on the same session, with the cheap check the
// benchmarks use agreeing.
func TestImplsAnswer(t *testing.T) {
	for _, impl := range All() {
		t.Run(impl.ID(), func(t *testing.T) {
			c := caller(t, impl)
			for range 3 {
				if err := c.CallChecked(); err != nil {
					t.Fatal(err)
				}
				if err := c.Call(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// The impls that say they validate reject arguments the schema forbids,
// each of them; the others call the tool with them (and so answer with
// something else than the benchmark's result).
func TestImplsValidate(t *testing.T) {
	bad := []string{
		`{"city":"","days":3,"units":"celsius"}`,
		`{"city":"Paris","days":15,"units":"celsius"}`,
		`{"city":"Paris","days":3,"units":"kelvin"}`,
		`{"city":"Paris","days":3,"units":"celsius","extra":1}`,
	}
	for _, impl := range All() {
		t.Run(impl.ID(), func(t *testing.T) {
			c := caller(t, impl)
			for _, args := range bad {
				status, h, body, err := c.Send(args)
				if err != nil {
					t.Fatal(err)
				}
				if got := rejected(t, impl.Protocol, status, h, body); got != impl.Validates {
					t.Errorf("%s: rejected %v, want %v: %d %s", args, got, impl.Validates, status, body)
				}
			}
		})
	}
}

// rejected reports whether an answer refuses the call: an HTTP error for
// REST; for MCP a JSON-RPC error or an error result.
func rejected(t *testing.T, proto wire.Protocol, status int, h http.Header, body []byte) bool {
	t.Helper()
	if proto == wire.REST || status != http.StatusOK {
		return status != http.StatusOK
	}
	var msg struct {
		Error  json.RawMessage `json:"error"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if h.Get("Content-Type") != "application/json" {
		t.Fatalf("content type %q: every MCP server here is to answer application/json", h.Get("Content-Type"))
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return msg.Error != nil || msg.Result.IsError
}

func TestLookup(t *testing.T) {
	for _, impl := range All() {
		got, err := Lookup(impl.ID())
		if err != nil || got.Name != impl.Name || got.Protocol != impl.Protocol {
			t.Errorf("Lookup(%q) = %v, %v", impl.ID(), got.ID(), err)
		}
	}
	if _, err := Lookup("rest/nope"); err == nil {
		t.Error("Lookup of an unknown impl did not fail")
	}
}
