package runtime

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// One identity per caller (identity.go): the principal's subject, else a
// fingerprint of the credentials, else the anonymous caller.
func TestCallerID(t *testing.T) {
	hook := func(r *http.Request) (context.Context, error) { return r.Context(), nil }
	withHook := NewServer(nil, &Options{AuthHook: hook, Logger: discard()})
	open := NewServer(nil, &Options{Logger: discard()})
	req := func(h ...string) *http.Request {
		r := httptest.NewRequest("POST", "/mcp", nil)
		for i := 0; i+1 < len(h); i += 2 {
			r.Header.Set(h[i], h[i+1])
		}
		return httpkit.WithState(r)
	}
	id := func(s *Server, r *http.Request, p *Principal) string {
		ctx := r.Context()
		if p != nil {
			ctx = WithPrincipal(ctx, p)
		}
		return s.CallerID(ctx)
	}
	a := id(withHook, req("Authorization", "Bearer a", "User-Agent", "x"), &Principal{})
	if !strings.HasPrefix(a, "key:") || strings.Contains(a, "Bearer") {
		t.Errorf("a caller without a subject: %q, want a fingerprint that shows no credential", a)
	}
	for _, other := range []string{
		id(withHook, req("Authorization", "Bearer b"), &Principal{}),
		id(withHook, req("Authorization", "Bearer a", "X-Api-Key", "k"), nil),
		id(withHook, req("Authorization", "Bearer a"), &Principal{Subject: "a"}),
	} {
		if other == a {
			t.Errorf("different callers, one identity %s", a)
		}
	}
	if b := id(withHook, req("Authorization", "Bearer a", "User-Agent", "y", "Idempotency-Key", "k1"), nil); b != a {
		t.Errorf("the same credentials (another User-Agent, an Idempotency-Key), two identities: %s %s", a, b)
	}
	if got := id(withHook, req(), &Principal{Subject: "ada"}); got != "ada" {
		t.Errorf("a subject's identity %q, want it as history stores it", got)
	}
	if got := id(open, req("Authorization", "Bearer a"), nil); got != "" {
		t.Errorf("a server without a hook: %q, want the anonymous caller", got)
	}
	if got := open.CallerID(WithPrincipal(context.Background(), &Principal{Subject: "ada"})); got != "ada" {
		t.Errorf("a principal set in process: %q", got)
	}
}

// The documented hook shape, a context without a Principal, no longer
// hides a caller's own history from it; two JWTs without "sub" are two
// callers, for history and for idempotency keys.
func TestIdentityWithoutSubject(t *testing.T) {
	echo := MustNewTool("echo", "Echoes.", func(_ context.Context, in struct {
		Word string `json:"word"`
	}) (string, error) {
		return in.Word, nil
	})
	hooks := []struct {
		name   string
		hook   AuthHook
		tokenA string
		tokenB string
	}{
		{"custom hook without a principal", func(r *http.Request) (context.Context, error) {
			if tok := r.Header.Get("Authorization"); tok != "Bearer a" && tok != "Bearer b" {
				return nil, ErrBadCredentials
			}
			return r.Context(), nil
		}, "a", "b"},
		{"JWTs without sub", JWT(JWTOptions{Secret: jwtSecret, Now: func() time.Time { return jwtNow }}),
			signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"name": "A", "exp": jwtNow.Add(time.Hour).Unix()}),
			signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"name": "B", "exp": jwtNow.Add(time.Hour).Unix()})},
	}
	for _, h := range hooks {
		t.Run(h.name, func(t *testing.T) {
			s := NewServer(ToolList{echo}, &Options{AllowExecute: true, AuthHook: h.hook, Logger: discard()})
			hs := newHTTPTest(s)
			defer hs.Close()
			do := func(method, path, tok, body, key string) (int, string) {
				t.Helper()
				h := []string{"Authorization", "Bearer " + tok}
				if key != "" {
					h = append(h, HeaderIdempotencyKey, key)
				}
				return httpDo(t, method, hs.URL+path, body, h...)
			}

			code, body := do("POST", "/v1/tools/echo", h.tokenA, `{"input":{"word":"alpha"}}`, "shared-key")
			var first struct {
				InvocationID string `json:"invocation_id"`
			}
			if err := json.Unmarshal([]byte(body), &first); code != 200 || err != nil || first.InvocationID == "" {
				t.Fatalf("A's call: %d %s", code, body)
			}
			// A reads what it was just given, and sees it in its list.
			if code, body := do("GET", "/v1/invocations/"+first.InvocationID, h.tokenA, "", ""); code != 200 || !strings.Contains(body, "alpha") {
				t.Errorf("A reads its own invocation: %d %s", code, body)
			}
			if code, body := do("GET", "/v1/invocations", h.tokenA, "", ""); code != 200 || !strings.Contains(body, first.InvocationID) {
				t.Errorf("A lists its invocations: %d %s", code, body)
			}
			// B is another caller: not A's record, and A's key is not B's.
			if code, body := do("GET", "/v1/invocations/"+first.InvocationID, h.tokenB, "", ""); code != 404 {
				t.Errorf("B reads A's invocation: %d %s", code, body)
			}
			code, body = do("POST", "/v1/tools/echo", h.tokenB, `{"input":{"word":"alpha"}}`, "shared-key")
			if code != 200 || strings.Contains(body, first.InvocationID) {
				t.Errorf("B sent A's key and arguments and got A's call: %d %s", code, body)
			}
		})
	}
}
