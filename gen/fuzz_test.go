package gen

import (
	"strconv"
	"strings"
	"testing"
)

// Fuzz targets: `go test ./gen -run '^$' -fuzz FuzzDirectiveArgs -fuzztime 1m`.

// A directive's arguments parse without panicking, an error points inside
// the text, and what parses prints back (quoting every value) to text that
// parses to the same arguments.
func FuzzDirectiveArgs(f *testing.F) {
	for _, s := range []string{
		``, `name=get_weather`, `name=get_weather title="Get weather" readonly openworld`,
		`description="A \"quoted\" word\tand a tab"`, `secrets=A,B version=1.2.0`, `=x`, `name=`,
		`title="unterminated`, `title="x"y`, `title="\q"`, "a\tb=c", `k="" flag`, `k="ü"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := splitArgs(s)
		if err != nil {
			var ae *argError
			if !asArgError(err, &ae) || ae.off < 0 || ae.off > len(s) || ae.msg == "" {
				t.Fatalf("%q: %v does not point inside the text", s, err)
			}
			return
		}
		var b strings.Builder
		for i, a := range args {
			if a.key == "" || strings.ContainsAny(a.key, " \t=") {
				t.Fatalf("%q: bad key %q", s, a.key)
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(a.key)
			if a.hasValue {
				b.WriteString("=" + strconv.Quote(a.value))
			}
		}
		again, err := splitArgs(b.String())
		if err != nil {
			t.Fatalf("%q printed as %q does not parse: %v", s, b.String(), err)
		}
		if len(again) != len(args) {
			t.Fatalf("%q: %d arguments, %d after printing %q", s, len(args), len(again), b.String())
		}
		for i := range args {
			if args[i].key != again[i].key || args[i].value != again[i].value || args[i].hasValue != again[i].hasValue {
				t.Fatalf("%q: argument %d %+v became %+v through %q", s, i, args[i], again[i], b.String())
			}
		}
	})
}

func asArgError(err error, target **argError) bool {
	ae, ok := err.(*argError)
	*target = ae
	return ok
}
