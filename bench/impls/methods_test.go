package impls

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/toolgen-go/toolgen/bench/wire"
)

// BenchmarkMCPMethods measures MCP's methods other than the plain
// tools/call, in process as BenchmarkMCP does, for toolgen at 2026-07-28
// (answered natively) and mcp-go (in a session, its only way): a
// tools/call (the baseline of each server), a tools/call with a progress
// token whose tool reports progress twice before its result, and a
// resources/read. Every answer is checked.
//
//	go test -run '^$' -bench BenchmarkMCPMethods -benchmem -count 6 ./impls > methods.txt
//	go tool benchstat -col /impl methods.txt
func BenchmarkMCPMethods(b *testing.B) {
	for _, m := range methodCases() {
		b.Run("method="+m.name, func(b *testing.B) {
			for _, impl := range MethodImpls() {
				b.Run("impl="+impl.Name, func(b *testing.B) {
					c := methodCaller(b, impl)
					if err := m.send(c, impl); err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if err := m.send(c, impl); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// methodCase is one request of the methods benchmark and its check.
type methodCase struct {
	name string
	send func(*wire.Caller, MethodImpl) error
}

// methodCases are the requests of the benchmark, one of each of Methods.
func methodCases() []methodCase {
	// check checks an answer: status 200, want in the body, no error,
	// and events progress notifications (at most that many from a server
	// that loses some, see MethodImpl.LosesEvents).
	check := func(impl MethodImpl, want string, events int) func(int, []byte, error) error {
		return func(status int, body []byte, err error) error {
			n := bytes.Count(body, []byte(`"notifications/progress"`))
			switch {
			case err != nil:
				return err
			case status != 200 || !bytes.Contains(body, []byte(want)) || bytes.Contains(body, []byte(`"error":`)):
				return fmt.Errorf("status %d: %.600s", status, body)
			case n != events && !(impl.LosesEvents && n < events):
				return fmt.Errorf("want %d progress notifications: %.600s", events, body)
			}
			return nil
		}
	}
	result := `"structuredContent":` + wire.Want
	text := `"text":` + quote(wire.Want)
	return []methodCase{
		{"call", func(c *wire.Caller, impl MethodImpl) error {
			s, _, b, err := c.SendRPC("tools/call", "forecast", "", `"name":"forecast","arguments":`+wire.Args)
			return check(impl, result, 0)(s, b, err)
		}},
		{"call-progress", func(c *wire.Caller, impl MethodImpl) error {
			s, _, b, err := c.SendRPC("tools/call", ProgressTool, `"progressToken":1`, `"name":"`+ProgressTool+`","arguments":`+wire.Args)
			return check(impl, result, 2)(s, b, err)
		}},
		{"resources-read", func(c *wire.Caller, impl MethodImpl) error {
			s, _, b, err := c.SendRPC("resources/read", ResourceURI, "", `"uri":"`+ResourceURI+`"`)
			return check(impl, text, 0)(s, b, err)
		}},
	}
}

func quote(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func methodCaller(tb testing.TB, impl MethodImpl) *wire.Caller {
	tb.Helper()
	c, err := wire.NewCaller(wire.Handler(impl.New()), base, impl.Protocol)
	if err != nil {
		tb.Fatalf("%s: %v", impl.Name, err)
	}
	return c
}

// Every server of the methods benchmark answers each of its requests.
func TestMethodImplsAnswer(t *testing.T) {
	for _, impl := range MethodImpls() {
		for _, m := range methodCases() {
			t.Run(impl.Name+"/"+m.name, func(t *testing.T) {
				c := methodCaller(t, impl)
				for range 2 {
					if err := m.send(c, impl); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}

// The cases are the Methods the report runs, in order.
func TestMethodCasesAreMethods(t *testing.T) {
	cases := methodCases()
	if len(cases) != len(Methods) {
		t.Fatalf("%d cases, %d Methods", len(cases), len(Methods))
	}
	for i, m := range Methods {
		if cases[i].name != m {
			t.Errorf("case %d is %s, Methods says %s", i, cases[i].name, m)
		}
	}
}
