package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// whoamiTools is one tool that reports the principal the hook accepted.
func whoamiTools() ToolList {
	return ToolList{{
		Name: "whoami",
		Handler: func(ctx context.Context, _ json.RawMessage) (*Result, error) {
			p, ok := PrincipalFromContext(ctx)
			if !ok {
				return nil, errors.New("no principal")
			}
			role, _ := p.Claims["role"].(string)
			return TextResult(p.Subject + "/" + role), nil
		},
	}}
}

func hookRequest(auth string) *http.Request {
	r := httptest.NewRequest("POST", "/tools/whoami/call", strings.NewReader("{}"))
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	return r
}

func TestBearerTokens(t *testing.T) {
	hook := BearerTokens("alpha", "", "bravo-longer-token")
	cases := []struct {
		auth    string
		subject string // "" means rejected
		err     error
	}{
		{"", "", ErrNoCredentials},
		{"Basic YWxwaGE6", "", ErrNoCredentials},
		{"Bearer", "", ErrNoCredentials},
		{"Bearer ", "", ErrNoCredentials},
		{"Bearer alph", "", ErrBadCredentials},
		{"Bearer alphaa", "", ErrBadCredentials},
		{"Bearer ALPHA", "", ErrBadCredentials},
		{"Bearer alpha", "token-1", nil},
		{"bearer alpha", "token-1", nil},
		{"Bearer bravo-longer-token", "token-3", nil},
	}
	for _, c := range cases {
		ctx, err := hook(hookRequest(c.auth))
		if c.subject == "" {
			if !errors.Is(err, c.err) || ctx != nil {
				t.Errorf("%q: got ctx=%v err=%v, want error %v", c.auth, ctx, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: rejected: %v", c.auth, err)
			continue
		}
		if p, ok := PrincipalFromContext(ctx); !ok || p.Subject != c.subject || p.Claims != nil {
			t.Errorf("%q: principal %+v, want subject %s", c.auth, p, c.subject)
		}
	}
	// No usable token: nothing gets in, not even an empty one.
	if _, err := BearerTokens()(hookRequest("Bearer ")); err == nil {
		t.Error("BearerTokens() accepted a request")
	}
	if _, err := BearerTokens("")(hookRequest("Bearer x")); err == nil {
		t.Error(`BearerTokens("") accepted a request`)
	}
}

// Through the server: a rejection is the generic 401 with the reason only in
// the WARN log; an accepted caller's principal reaches the handler.
func TestBearerTokensServer(t *testing.T) {
	var logs logBuffer
	s := NewServer(whoamiTools(), &Options{AllowExecute: true, AuthHook: BearerTokens("s3cret"), Logger: logs.Logger()})
	do(t, s, "POST", "/tools/whoami/call", `{}`).is(t, 401, `{"error":"Unauthorized"}`)
	do(t, s, "POST", "/tools/whoami/call", `{}`, "Authorization", "Bearer guess").is(t, 401, `{"error":"Unauthorized"}`)
	do(t, s, "POST", "/tools/whoami/call", `{}`, "Authorization", "Bearer s3cret").is(t, 200, `{"content":[{"type":"text","text":"token-1/"}],"isError":false}`)
	l := logs.String()
	if !strings.Contains(l, "level=WARN") || !strings.Contains(l, ErrBadCredentials.Error()) || !strings.Contains(l, ErrNoCredentials.Error()) {
		t.Errorf("rejections not logged at WARN with their reasons:\n%s", l)
	}
	if strings.Contains(l, "guess") {
		t.Errorf("the rejected token leaked into the log:\n%s", l)
	}
}

var (
	jwtSecret = []byte("0123456789abcdef0123456789abcdef")
	jwtNow    = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
)

func signJWT(t *testing.T, method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestJWT(t *testing.T) {
	exp := jwtNow.Add(10 * time.Minute).Unix()
	hs := func(c jwt.MapClaims) string { return signJWT(t, jwt.SigningMethodHS256, jwtSecret, c) }
	base := func(extra jwt.MapClaims) jwt.MapClaims {
		c := jwt.MapClaims{"sub": "alice", "role": "admin", "exp": exp, "aud": "tools"}
		for k, v := range extra {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return c
	}
	unsigned, err := jwt.NewWithClaims(jwt.SigningMethodNone, base(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	hook := JWT(JWTOptions{Secret: jwtSecret, Audiences: []string{"tools", "admin-tools"}, Issuer: "", MaxLifetime: 15 * time.Minute, Now: func() time.Time { return jwtNow }})
	// withHeader signs the valid claims with header parameters added.
	withHeader := func(h map[string]any) string {
		tok := jwt.NewWithClaims(jwt.SigningMethodHS256, base(nil))
		for k, v := range h {
			tok.Header[k] = v
		}
		s, err := tok.SignedString(jwtSecret)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	cases := []struct {
		name  string
		token string
		ok    bool
	}{
		{"valid", hs(base(nil)), true},
		{"second audience of the allow-list", hs(base(jwt.MapClaims{"aud": []string{"other", "admin-tools"}})), true},
		{"no exp", hs(base(jwt.MapClaims{"exp": nil})), false},
		{"expired", hs(base(jwt.MapClaims{"exp": jwtNow.Add(-time.Minute).Unix()})), false},
		{"not yet valid", hs(base(jwt.MapClaims{"nbf": jwtNow.Add(time.Minute).Unix()})), false},
		{"issued in the future", hs(base(jwt.MapClaims{"iat": jwtNow.Add(time.Hour).Unix()})), false},
		{"exp too far ahead", hs(base(jwt.MapClaims{"exp": jwtNow.Add(time.Hour).Unix()})), false},
		{"audience not allowed", hs(base(jwt.MapClaims{"aud": "elsewhere"})), false},
		{"no audience", hs(base(jwt.MapClaims{"aud": nil})), false},
		{"wrong secret", signJWT(t, jwt.SigningMethodHS256, []byte("another secret of the same size!"), base(nil)), false},
		{"HS384", signJWT(t, jwt.SigningMethodHS384, jwtSecret, base(nil)), false},
		{"alg none", unsigned, false},
		{"garbage", "not.a.jwt", false},
		{"tampered payload", tamper(hs(base(nil))), false},
		{"an unknown header parameter, not critical", withHeader(map[string]any{"x-ext": 1}), true},
		{"crit naming an unknown parameter", withHeader(map[string]any{"crit": []string{"x-ext"}, "x-ext": 1}), false},
		{"crit, malformed", withHeader(map[string]any{"crit": "x-ext"}), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, err := hook(hookRequest("Bearer " + c.token))
			if !c.ok {
				if err == nil {
					t.Fatal("accepted")
				}
				if !errors.Is(err, ErrBadCredentials) {
					t.Errorf("error %v does not wrap ErrBadCredentials", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			p, _ := PrincipalFromContext(ctx)
			if p == nil || p.Subject != "alice" || p.Claims["role"] != "admin" {
				t.Errorf("principal %+v", p)
			}
		})
	}
	if _, err := hook(hookRequest("")); !errors.Is(err, ErrNoCredentials) {
		t.Errorf("no header: %v", err)
	}
}

// tamper changes the payload of a signed token without re-signing it.
func tamper(tok string) string {
	parts := strings.Split(tok, ".")
	claims, _ := jwt.NewParser().DecodeSegment(parts[1])
	claims = []byte(strings.Replace(string(claims), "admin", "owner", 1))
	parts[1] = base64.RawURLEncoding.EncodeToString(claims)
	return strings.Join(parts, ".")
}

func TestJWTOptionalChecks(t *testing.T) {
	now := func() time.Time { return jwtNow }
	exp := jwtNow.Add(48 * time.Hour).Unix()
	// Without an audience list or a lifetime bound, any aud and a long exp pass.
	open := JWT(JWTOptions{Secret: jwtSecret, Now: now})
	if _, err := open(hookRequest("Bearer " + signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"exp": exp}))); err != nil {
		t.Errorf("open hook rejected a plain token: %v", err)
	}
	// An issuer, when set, must match.
	iss := JWT(JWTOptions{Secret: jwtSecret, Issuer: "https://issuer.example", Now: now})
	if _, err := iss(hookRequest("Bearer " + signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"exp": exp, "iss": "https://evil.example"}))); err == nil {
		t.Error("wrong issuer accepted")
	}
	if _, err := iss(hookRequest("Bearer " + signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"exp": exp, "iss": "https://issuer.example"}))); err != nil {
		t.Errorf("right issuer rejected: %v", err)
	}
	// Leeway forgives a little clock skew.
	skew := JWT(JWTOptions{Secret: jwtSecret, Leeway: time.Minute, Now: now})
	if _, err := skew(hookRequest("Bearer " + signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"exp": jwtNow.Add(-30 * time.Second).Unix()}))); err != nil {
		t.Errorf("token within leeway rejected: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("JWT with an empty secret did not panic")
		}
	}()
	JWT(JWTOptions{})
}

func TestJWTServer(t *testing.T) {
	var logs logBuffer
	hook := JWT(JWTOptions{Secret: jwtSecret, Now: func() time.Time { return jwtNow }})
	s := NewServer(whoamiTools(), &Options{AllowExecute: true, AuthHook: hook, Logger: logs.Logger()})
	good := signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"sub": "bob", "role": "viewer", "exp": jwtNow.Add(time.Minute).Unix()})
	expired := signJWT(t, jwt.SigningMethodHS256, jwtSecret, jwt.MapClaims{"sub": "bob", "exp": jwtNow.Add(-time.Minute).Unix()})
	do(t, s, "POST", "/tools/whoami/call", `{}`, "Authorization", "Bearer "+expired).is(t, 401, `{"error":"Unauthorized"}`)
	do(t, s, "POST", "/tools/whoami/call", `{}`, "Authorization", "Bearer "+good).is(t, 200, `{"content":[{"type":"text","text":"bob/viewer"}],"isError":false}`)
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "expired") {
		t.Errorf("expired token not logged at WARN with the reason:\n%s", l)
	}
}
