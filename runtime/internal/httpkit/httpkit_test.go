package httpkit

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// Off loopback the Host is not checked: a public server is reached under
// names it cannot know.
func TestHostAllowedOffLoopback(t *testing.T) {
	for local, want := range map[string]bool{"127.0.0.1:8080": false, "127.8.9.10:8080": false, "[::1]:8080": false, "[::ffff:127.0.0.1]:8080": false,
		"192.0.2.10:8080": true, "[2001:db8::1]:443": true, "[::ffff:192.0.2.10]:443": true} {
		addr, err := net.ResolveTCPAddr("tcp", local)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("POST", "/tools/x/call", nil)
		r.Host = "evil.example"
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, addr))
		if got := hostAllowed(r, nil); got != want {
			t.Errorf("local %s: allowed %v, want %v", local, got, want)
		}
	}
	// Any other kind of address is written out and read as a host.
	for _, tc := range []struct {
		local net.Addr
		want  bool
	}{
		{&net.UnixAddr{Name: "/run/tools.sock", Net: "unix"}, true},
		{&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, false},
		{&net.UDPAddr{IP: net.IPv4(192, 0, 2, 10), Port: 8080}, true},
	} {
		r := httptest.NewRequest("POST", "/tools/x/call", nil)
		r.Host = "evil.example"
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, tc.local))
		if got := hostAllowed(r, nil); got != tc.want {
			t.Errorf("local %s: allowed %v, want %v", tc.local, got, tc.want)
		}
	}
}

// setHeaders sets both headers as Header.Set would, and an Add to one
// leaves the other as it was.
func TestSetHeaders(t *testing.T) {
	h := http.Header{"Content-Type": {"text/plain"}}
	SetHeaders(h, "Content-Type", "application/json", "X-Content-Type-Options", "nosniff")
	h.Add("Content-Type", "charset=utf-8")
	want := http.Header{"Content-Type": {"application/json", "charset=utf-8"}, "X-Content-Type-Options": {"nosniff"}}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("headers %v, want %v", h, want)
	}
}

// readBodyOf reads a body whole whatever length it declares: exact, short,
// long, unknown, or past the first buffer's cap.
func TestReadBodyOf(t *testing.T) {
	body := strings.Repeat("x", 100)
	big := strings.Repeat("y", 70<<10)
	for _, tc := range []struct {
		body string
		n    int64
	}{{body, 100}, {body, 10}, {body, 500}, {body, -1}, {"", 0}, {"", -1}, {big, int64(len(big))}, {big, 5}} {
		got, err := readBodyOf(iotest.OneByteReader(strings.NewReader(tc.body)), tc.n)
		if err != nil || string(got) != tc.body {
			t.Errorf("declared %d: read %d bytes, %v; want %d", tc.n, len(got), err, len(tc.body))
		}
	}
	if _, err := readBodyOf(iotest.ErrReader(io.ErrUnexpectedEOF), 10); err != io.ErrUnexpectedEOF {
		t.Errorf("a failing reader: %v", err)
	}
}

// Under http.StripPrefix an endpoint's route, as the request metrics
// count it, and the request the auth hook sees keep the prefix the
// client sent.
func TestRouteAndRequestAsSent(t *testing.T) {
	var gotRoute, gotPath string
	kit := &Kit{
		Authenticate: func(r *http.Request) (context.Context, error) { gotPath = r.URL.Path; return r.Context(), nil },
		HasHook:      true,
		Log:          slog.New(slog.DiscardHandler),
		LogPanic:     func(string, any, ...any) {},
	}
	mux := http.NewServeMux()
	mux.Handle("/tools/{name}/call", kit.Handle(Endpoint{Surface: &Surface{Name: "t", WriteError: func(w http.ResponseWriter, e *Error) { WriteError(w, e.Status, e.Msg) }},
		Methods: MethodsPost, Auth: true, Serve: func(rq *Request) error {
			gotRoute = rq.St.Route
			return nil
		}}))
	h := WithIDs(http.StripPrefix("/ui", mux))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/ui/tools/x/call", nil))
	if gotRoute != "/ui/tools/{name}/call" || gotPath != "/ui/tools/x/call" {
		t.Errorf("route %q, the hook saw %q; want /ui/tools/{name}/call and /ui/tools/x/call", gotRoute, gotPath)
	}
	// Unprefixed, the pattern itself.
	h = WithIDs(mux)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/tools/x/call", nil))
	if gotRoute != "/tools/{name}/call" || gotPath != "/tools/x/call" {
		t.Errorf("route %q, the hook saw %q", gotRoute, gotPath)
	}
}

// An envelope's names match only as written, at every depth: encoding/json
// would take "Input" for "input", and let it replace "input" beside it.
// A name in another case is unknown: ignored, or with strict refused.
func TestDecodeEnvelopeExactNames(t *testing.T) {
	type envelope struct {
		Input   json.RawMessage `json:"input"`
		Corr    *string         `json:"correlation_id"`
		Request *struct {
			ToolID  *string `json:"tool_id"`
			Secrets []struct {
				ID string `json:"id"`
			} `json:"secrets"`
		} `json:"request"`
	}
	for _, tc := range []struct {
		body   string
		strict bool
		want   string // the envelope as JSON, or the error
	}{
		{`{"input":{"a":1},"correlation_id":"c"}`, true, `{"input":{"a":1},"correlation_id":"c","request":null}`},
		{`{"Input":{"a":1},"Correlation_ID":"c"}`, false, `{"input":null,"correlation_id":null,"request":null}`},
		{`{"input":{"a":1},"Input":{"a":5}}`, false, `{"input":{"a":1},"correlation_id":null,"request":null}`},
		{`{"Input":{"a":5},"input":{"a":1}}`, false, `{"input":{"a":1},"correlation_id":null,"request":null}`},
		{`{"request":{"Tool_Id":"K.T","secrets":[{"ID":"x"}]}}`, false, `{"input":null,"correlation_id":null,"request":{"tool_id":null,"secrets":[{"id":""}]}}`},
		{`{"INPUT":{}}`, true, `unknown name "INPUT"`},
		{`{"zeta":1,"input":{},"alpha":2}`, true, `unknown name "zeta"`},
		{`{"request":{"Tool_Id":"K.T"}}`, true, `unknown name "Tool_Id"`},
		{`{"request":{"secrets":[{"id":"x","Value":"v"}]}}`, true, `unknown name "Value"`},
		{`{"request":{"tool_id":5}}`, true, `"request.tool_id" must be a string`},
		{`{"request":{"secrets":[{"id":[]}]}}`, true, `"request.secrets.id" must be a string`},
		{`{"request":{"secrets":{}}}`, true, `"request.secrets" must be an array`},
		{`{"request":[]}`, true, `"request" must be an object`},
		{`[1]`, true, `the body must be a JSON object`},
		{`{"correlation_id":null,"request":null}`, true, `{"input":null,"correlation_id":null,"request":null}`},
	} {
		var e envelope
		got := ""
		if err := DecodeEnvelope([]byte(tc.body), &e, tc.strict); err != nil {
			got = err.Error()
		} else {
			b, _ := json.Marshal(e)
			got = string(b)
		}
		if got != tc.want {
			t.Errorf("%s (strict %v):\n got %s\nwant %s", tc.body, tc.strict, got, tc.want)
		}
	}
}
