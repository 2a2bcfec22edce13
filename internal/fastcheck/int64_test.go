package fastcheck

import "testing"

// An integer schema takes int64's range (compile.Int64Range), as the full
// path does, unless a bound of its own widens it.
func TestInt64Range(t *testing.T) {
	for _, c := range []struct {
		schema, body string
		valid        bool
	}{
		{`{"type":"integer"}`, `9223372036854775807`, true},
		{`{"type":"integer"}`, `-9223372036854775808`, true},
		{`{"type":"integer"}`, `9223372036854775808`, false},
		{`{"type":"integer"}`, `-9223372036854775809`, false},
		{`{"type":"integer"}`, `1e19`, false},
		{`{"type":"integer","minimum":0}`, `9223372036854775808`, false},
		{`{"type":["integer","null"]}`, `1e19`, false},
		{`{"type":["integer","number"]}`, `1e19`, true},
		{`{"type":"number"}`, `1e19`, true},
		{`{"type":"integer","maximum":18446744073709551615}`, `18446744073709551615`, true},
		{`{"type":"integer","maximum":18446744073709551615}`, `18446744073709551616`, false},
		{`{"type":"integer","minimum":-1e19}`, `-1e19`, true},
	} {
		ch := Compile([]byte(c.schema), Limits{MaxNesting: 128, MaxMantissa: 1000, MaxExponent: 1000})
		if ch == nil {
			t.Fatalf("%s: not compiled", c.schema)
		}
		if got := ch.Valid([]byte(c.body)); got != c.valid {
			t.Errorf("%s on %s: Valid = %v, want %v", c.schema, c.body, got, c.valid)
		}
	}
}
