package runtime

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// jsonSeeds reach each way plainJSON says "not known" and each way a body
// is not JSON, besides plain values.
var jsonSeeds = []string{
	``, ` `, `{}`, `[]`, `null`, `true`, `false`, `0`, `-0.5e-3`, `"a"`, `"a\"b\\c\u00e9\ud83c\udf27"`,
	`{"city":"Paris","days":3,"units":"celsius"}`, ` {"a" : [1, 2.5, {"b": null}] } `,
	`{"a":1,"a":2}`, `{"a":1}{}`, `{"a":1} x`, `{"a":}`, `{"a" 1}`, `{a:1}`, `[1,]`, `[1 2]`, `01`, `1.`, `.5`, `1e`, `-`,
	`"\x"`, "\"\x01\"", "\"\xff\"", "{\"\xff\":1}", `"\ud800"`, `1e400`, `1e1001`, strings.Repeat("9", 1001),
	strings.Repeat("[", 128) + strings.Repeat("]", 128), strings.Repeat("[", 129) + strings.Repeat("]", 129),
	`nul`, `tru`, `{"a":1`, `"abc`,
}

// plainJSON may only say yes to what encoding/json calls valid, and
// validJSON answers as json.Valid does.
func FuzzValidJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := json.Valid(b)
		if jsoncheck.Plain(b) && !want {
			t.Fatalf("jsoncheck.Plain(%q) = true, json.Valid = false", b)
		}
		if got := validJSON(b); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", b, got, want)
		}
	})
}

// plainJSON answers yes to what a call's arguments and results usually
// are, so that the fast answer is the one taken, and no past maxNesting.
func TestPlainJSON(t *testing.T) {
	for _, s := range []string{
		`{"city":"Paris","days":3,"units":"celsius"}`,
		` {"a" : [1, 2.5, {"b": null}], "c": "é \"q\"" } `,
		`[]`, `"text"`, `-12.5e-3`, `true`, `null`,
		strings.Repeat("[", 128) + strings.Repeat("]", 128),
	} {
		if !jsoncheck.Plain([]byte(s)) {
			t.Errorf("jsoncheck.Plain(%q) = false, want true", s)
		}
	}
	for _, s := range []string{``, `{"a":}`, `{} {}`, "\"\xff\"", strings.Repeat("[", 129) + strings.Repeat("]", 129)} {
		if jsoncheck.Plain([]byte(s)) {
			t.Errorf("jsoncheck.Plain(%q) = true, want false", s)
		}
	}
}

// Every reader of a body words what is wrong with it alike, from
// jsonProblem: in order, invalid UTF-8, too deep, not JSON.
func TestJSONProblem(t *testing.T) {
	deep := strings.Repeat("[", 129) + strings.Repeat("]", 129)
	for _, tc := range []struct{ body, problem string }{
		{`{"a":[1,{"b":"é"}]}`, ""},
		{`{"a":1,"a":2}`, ""},
		{" [1] ", ""},
		{"{\"a\":\"\xff\"}", "not valid UTF-8"},
		{"[\xff" + deep, "not valid UTF-8"},
		{deep, "nested deeper than 128 levels"},
		{deep + "x", "nested deeper than 128 levels"},
		{`{"a":}`, "not valid JSON"},
		{`{} {}`, "not valid JSON"},
	} {
		if got := jsoncheck.Problem([]byte(tc.body)); got != tc.problem {
			t.Errorf("jsoncheck.Problem(%q) = %q, want %q", tc.body, got, tc.problem)
		}
		if got := notJSON([]byte(tc.body)); got != (tc.problem == jsoncheck.ProblemNotJSON) {
			t.Errorf("notJSON(%q) = %v", tc.body, got)
		}
		var v struct{}
		err := httpkit.DecodeEnvelope([]byte(tc.body), &v, false)
		if tc.problem != "" && (err == nil || err.Error() != "the body is "+tc.problem) {
			t.Errorf("httpkit.DecodeEnvelope(%q) = %v, want the body is %s", tc.body, err, tc.problem)
		}
	}
}

// syntaxProblem says where bytes stop being JSON in a client's words, never
// the decoder's.
func TestSyntaxProblem(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"city":"Oslo"`, "not valid JSON: it ends before the value is complete"},
		{`[1,2`, "not valid JSON: it ends before the value is complete"},
		{`{"city":"0"}}`, "not valid JSON: unexpected '}' at byte 13"},
		{`x`, "not valid JSON: unexpected 'x' at byte 1"},
		{`{"a":"é" x}`, "not valid JSON: unexpected 'x' at byte 11"},
		{`{"a" 1}`, "not valid JSON: unexpected '1' at byte 6"},
	} {
		var v any
		err := json.Unmarshal([]byte(tc.body), &v)
		if err == nil {
			t.Fatalf("%s parses", tc.body)
		}
		if got := syntaxProblem([]byte(tc.body), err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.body, got, tc.want)
		}
	}
}
