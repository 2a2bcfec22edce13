package runtime

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// AuthHook authenticates a call. It returns the context the call runs in,
// usually r.Context() carrying the caller's identity, or an error. The
// server logs the error at WARN and answers a generic 401
// {"error":"Unauthorized"}: the reason never reaches the client.
//
// A hook names its caller by returning r.Context() with a [Principal]
// ([WithPrincipal]): its Subject is who the caller is for history (whose
// invocations it reads), idempotency keys, MCP sessions and tasks, human
// requests and rate limits; its Scopes are what it may call. A hook that
// returns a context without a principal, or one without a Subject, still
// keeps its callers apart, by a fingerprint of the credentials each
// request carried (Authorization, cookies, and headers whose name speaks
// of a key, token or auth); docs/security.md has the whole rule.
//
// On the explorer protocol the hook guards only POST /tools/{name}/call;
// discovery, validation and the page stay public. The protocol surfaces
// (MCP) run it on every request.
type AuthHook func(r *http.Request) (context.Context, error)

// Principal is the caller an auth hook accepted. The ready-made hooks put
// one in the call's context; a handler reads it with [PrincipalFromContext].
type Principal struct {
	// Subject names the caller: the JWT's "sub" claim, or "token-N" for the
	// N-th (1-based) of [BearerTokens]' tokens, so that logs can tell callers
	// apart without showing a secret.
	Subject string
	// Claims are the verified claims of a JWT; nil for static tokens.
	Claims map[string]any
	// Scopes are what the caller may do: a JWT's "scope" claim (scopes
	// separated by spaces) or "scp" claim (an array), an OAuth token's
	// scopes, or what a [Credential] grants. A tool that declares scopes
	// (Tool.Scopes) is listed for, and callable by, a caller that has
	// every one of them.
	Scopes []string
}

// HasScopes reports whether p has every one of scopes.
func (p *Principal) HasScopes(scopes ...string) bool {
	for _, sc := range scopes {
		if p == nil || !slices.Contains(p.Scopes, sc) {
			return false
		}
	}
	return true
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p. Custom auth hooks may use it so that
// handlers find the caller the same way whatever hook accepted it.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFromContext returns the caller that the auth hook accepted, if any.
func PrincipalFromContext(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok
}

// Errors the ready-made hooks return; the server logs them, never sends them.
var (
	ErrNoCredentials  = errors.New("no credentials")
	ErrBadCredentials = errors.New("bearer token not accepted")
)

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header (the scheme is case-insensitive, RFC 7235).
func bearerToken(r *http.Request) (string, error) {
	token, ok := httpkit.BearerToken(r)
	if !ok {
		return "", fmt.Errorf("%w: no bearer token in the Authorization header", ErrNoCredentials)
	}
	return token, nil
}

// Credential is a static secret a hook accepts (a bearer token, an API
// key), with the caller it names and the scopes it grants.
type Credential struct {
	// Secret is the token or key. An empty one is ignored.
	Secret string
	// Subject names the caller (Principal.Subject); default "token-N" or
	// "key-N" for the N-th credential.
	Subject string
	// Scopes are the scopes it grants (Principal.Scopes).
	Scopes []string
}

// BearerCredentials is [BearerTokens] with a subject and scopes for each
// token:
//
//	runtime.BearerCredentials(
//		runtime.Credential{Secret: os.Getenv("READER_TOKEN"), Subject: "reader", Scopes: []string{"issues:read"}},
//		runtime.Credential{Secret: os.Getenv("ADMIN_TOKEN"), Subject: "admin", Scopes: []string{"issues:read", "issues:write"}},
//	)
func BearerCredentials(creds ...Credential) AuthHook {
	set := newSecretSet("token", creds)
	return func(r *http.Request) (context.Context, error) {
		token, err := bearerToken(r)
		if err != nil {
			return nil, err
		}
		return set.accept(r, token)
	}
}

// APIKeyCredentials is [APIKeys] with a subject and scopes for each key.
func APIKeyCredentials(header string, creds ...Credential) AuthHook {
	set := newSecretSet("key", creds)
	return func(r *http.Request) (context.Context, error) {
		key := strings.TrimSpace(r.Header.Get(header))
		if key == "" {
			return nil, fmt.Errorf("%w: no %s header", ErrNoCredentials, header)
		}
		return set.accept(r, key)
	}
}

// credentials makes Credentials of bare secrets.
func credentials(secrets []string) []Credential {
	creds := make([]Credential, len(secrets))
	for i, v := range secrets {
		creds[i] = Credential{Secret: v}
	}
	return creds
}

// BearerTokens returns a hook that accepts "Authorization: Bearer <token>"
// for any of tokens. Tokens are compared in constant time: each candidate is
// hashed with SHA-256 and every configured token is compared, so neither the
// position of a match nor a token's length shows in the response time.
// Empty tokens are ignored; with no usable token every request is rejected.
// The principal's Subject is "token-N" for the N-th token.
func BearerTokens(tokens ...string) AuthHook { return BearerCredentials(credentials(tokens)...) }

// OXPAPIKeyHeader is the header in which OXP clients send an API key.
const OXPAPIKeyHeader = "OXP-API-Key"

// APIKeys returns a hook that accepts a request whose header (for OXP,
// [OXPAPIKeyHeader]) carries one of keys, compared in constant time as
// [BearerTokens] compares tokens. The principal's Subject is "key-N" for
// the N-th key.
func APIKeys(header string, keys ...string) AuthHook {
	return APIKeyCredentials(header, credentials(keys)...)
}

// secretSet holds the SHA-256 sums of the tokens or keys a hook accepts,
// and the principal each names.
type secretSet struct {
	sums       [][sha256.Size]byte
	principals []Principal
}

func newSecretSet(kind string, creds []Credential) *secretSet {
	s := &secretSet{}
	for i, c := range creds {
		if c.Secret == "" {
			continue
		}
		sub := c.Subject
		if sub == "" {
			sub = kind + "-" + strconv.Itoa(i+1)
		}
		s.sums = append(s.sums, sha256.Sum256([]byte(c.Secret)))
		s.principals = append(s.principals, Principal{Subject: sub, Scopes: slices.Clone(c.Scopes)})
	}
	return s
}

// accept compares got with every secret of the set, and on a match
// returns r's context with the matching principal.
func (s *secretSet) accept(r *http.Request, got string) (context.Context, error) {
	sum := sha256.Sum256([]byte(got))
	match := -1
	for i := range s.sums {
		if subtle.ConstantTimeCompare(sum[:], s.sums[i][:]) == 1 {
			match = i
		}
	}
	if match < 0 {
		return nil, ErrBadCredentials
	}
	p := s.principals[match] // a copy: a handler may change its own
	return WithPrincipal(r.Context(), &p), nil
}

// JWTOptions configures [JWT].
type JWTOptions struct {
	// Secret is the HS256 key. Required.
	Secret []byte
	// Audiences, when not empty, is the allow-list for the "aud" claim: the
	// token must name at least one of them.
	Audiences []string
	// Issuer, when set, must equal the "iss" claim.
	Issuer string
	// MaxLifetime, when set, rejects tokens whose "exp" is further than this
	// ahead of now (OXP asks for at most 15 minutes), so that a leaked
	// long-lived token is not accepted.
	MaxLifetime time.Duration
	// Leeway allows for clock skew when checking exp, nbf and iat.
	Leeway time.Duration
	// Now is the clock; nil means time.Now. For tests.
	Now func() time.Time
}

// JWT returns a hook that accepts "Authorization: Bearer <jwt>" signed with
// HS256 and opts.Secret. The "exp" claim is required; "nbf" and "iat" are
// checked when present; other algorithms (including "none") are refused,
// and so is a token whose header lists critical extensions ("crit",
// RFC 7515 section 4.1.11), none of which this hook understands.
// The accepted claims reach the handler as a [Principal].
//
// JWT panics when opts.Secret is empty: an empty HMAC key would accept
// tokens anyone can sign.
func JWT(opts JWTOptions) AuthHook {
	if len(opts.Secret) == 0 {
		panic("runtime.JWT: empty secret")
	}
	secret := append([]byte(nil), opts.Secret...)
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	popts := []jwt.ParserOption{
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(opts.Leeway),
		jwt.WithTimeFunc(now),
	}
	if len(opts.Audiences) > 0 {
		popts = append(popts, jwt.WithAudience(opts.Audiences...))
	}
	if opts.Issuer != "" {
		popts = append(popts, jwt.WithIssuer(opts.Issuer))
	}
	parser := jwt.NewParser(popts...)
	keyFunc := func(t *jwt.Token) (any, error) {
		// RFC 7515 4.1.11: a token whose "crit" names an extension the
		// recipient does not understand must be refused, and this hook
		// understands none (a malformed "crit" is refused too).
		if _, ok := t.Header["crit"]; ok {
			return nil, errCriticalHeader
		}
		return secret, nil
	}
	return func(r *http.Request) (context.Context, error) {
		raw, err := bearerToken(r)
		if err != nil {
			return nil, err
		}
		claims := jwt.MapClaims{}
		if _, err := parser.ParseWithClaims(raw, claims, keyFunc); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadCredentials, err)
		}
		if opts.MaxLifetime > 0 {
			exp, _ := claims.GetExpirationTime() // present: the parser requires it
			if exp.Sub(now()) > opts.MaxLifetime+opts.Leeway {
				return nil, fmt.Errorf("%w: expires %s from now, more than the allowed %s", ErrBadCredentials, exp.Sub(now()).Round(time.Second), opts.MaxLifetime)
			}
		}
		sub, _ := claims.GetSubject()
		return WithPrincipal(r.Context(), &Principal{Subject: sub, Claims: claims, Scopes: claimScopes(claims)}), nil
	}
}

// errCriticalHeader refuses a JWT with critical header parameters.
var errCriticalHeader = errors.New(`the token's header lists critical extensions ("crit") this server does not understand`)

// claimScopes reads a JWT's scopes: the "scope" claim, scopes separated by
// spaces (RFC 8693, as OAuth writes them), else the "scp" claim, an array
// of scopes or one string of them.
func claimScopes(claims map[string]any) []string {
	if s, ok := claims["scope"].(string); ok {
		return strings.Fields(s)
	}
	switch scp := claims["scp"].(type) {
	case string:
		return strings.Fields(scp)
	case []any:
		var out []string
		for _, v := range scp {
			if s, ok := v.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
