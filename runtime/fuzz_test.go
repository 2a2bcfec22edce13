package runtime

import (
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/internal/servertest"
)

// Fuzz targets: `go test ./runtime -run '^$' -fuzz FuzzExplorerCall
// -fuzztime 1m` (one target at a time). CI runs each for a short while.

func fuzzServer() *Server {
	return NewServer(append(callTools()[:2:2], callTools()[7]), &Options{AllowExecute: true, Logger: discard()})
}

// POST /tools/{name}/call answers every body with JSON: a result, with 200
// when it succeeded and 400 when the arguments were refused.
func FuzzExplorerCall(f *testing.F) {
	for _, s := range servertest.ArgSeeds {
		f.Add(s)
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body string) {
		r := do(t, s, "POST", "/tools/count/call", body)
		var res struct {
			Content []json.RawMessage `json:"content"`
			IsError *bool             `json:"isError"`
		}
		if err := json.Unmarshal([]byte(r.body), &res); err != nil || res.IsError == nil || len(res.Content) == 0 {
			t.Fatalf("%d %q: not a result (%v)", r.status, r.body, err)
		}
		if (r.status == 200) == *res.IsError || (r.status != 200 && r.status != 400) {
			t.Fatalf("%d with isError=%v: %s", r.status, *res.IsError, r.body)
		}
	})
}

// POST /tools/{name}/validate answers every body with JSON, and says valid
// exactly when /call gets past validation.
func FuzzExplorerValidate(f *testing.F) {
	for _, s := range servertest.ArgSeeds {
		f.Add(s)
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body string) {
		v := do(t, s, "POST", "/tools/count/validate", body)
		var vr validateResponse
		if err := json.Unmarshal([]byte(v.body), &vr); err != nil || (v.status != 200 && v.status != 400) || (vr.Valid != (len(vr.Errors) == 0)) {
			t.Fatalf("%d %q (%v)", v.status, v.body, err)
		}
		if v.status == 400 {
			return // not JSON: /call counts it as {}
		}
		c := do(t, s, "POST", "/tools/count/call", body)
		if vr.Valid != (c.status == 200) {
			t.Fatalf("/validate %s but /call %d %s", v.body, c.status, c.body)
		}
	})
}
