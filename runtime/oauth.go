package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Remote-server authorization as MCP's authorization spec describes it:
// the server is an OAuth 2.1 resource server. It publishes protected
// resource metadata (RFC 9728) naming the authorization servers that issue
// its tokens and the scopes it wants, answers a request without a good
// token with 401 and a WWW-Authenticate challenge that points at that
// metadata, and accepts bearer tokens a verifier vouches for. A client that
// follows the spec (the SDK's auth.AuthorizationCodeHandler, say) finds the
// metadata from the challenge, gets a token from the authorization server
// and calls again with it.
//
// It is an auth hook like any other ([OAuthOptions.Hook]) plus the metadata,
// which runtime/mcp serves (mcp.NewOAuthMetadataHandler): set Options.OAuth
// and runtime/serve mounts both.

// ProtectedResourceMetadataPath is where the server serves its protected
// resource metadata: at this path for the server as a whole, and at this
// path followed by an endpoint's path (/.well-known/oauth-protected-resource/mcp)
// for each endpoint, as RFC 9728 places them.
const ProtectedResourceMetadataPath = "/.well-known/oauth-protected-resource"

// OAuthOptions configures the server as an OAuth 2.1 resource server.
type OAuthOptions struct {
	// AuthorizationServers are the issuer URLs of the authorization
	// servers whose tokens the server accepts (at least one).
	AuthorizationServers []string
	// Scopes are the scopes every request's token must carry. They are
	// sent in each 401's challenge (scope="..."), for the client to ask
	// for, and advertised as scopes_supported unless ScopesSupported says
	// otherwise. A token without them is refused.
	Scopes []string
	// ScopesSupported is the metadata's scopes_supported. Default: Scopes,
	// then the scopes the tools declare (Tool.Scopes).
	ScopesSupported []string
	// Verify checks an access token (its signature or introspection, its
	// audience, which should be this server) and says what it grants: its
	// scopes, its expiry (required, unless AllowMissingExpiration) and the
	// user (UserID, the principal's Subject). It returns an error wrapping
	// auth.ErrInvalidToken for a token that is not good. Required.
	Verify auth.TokenVerifier
	// AllowMissingExpiration accepts tokens whose TokenInfo has no
	// expiry.
	AllowMissingExpiration bool
	// URL is the server's public base URL ("https://tools.example.com", or
	// with the prefix the server is mounted under). A resource's identifier
	// is this URL followed by the endpoint's path (https://tools.example.com/mcp),
	// which is what clients ask tokens for. Default: the scheme and Host of
	// each request; set it when a proxy in front changes them.
	URL string
	// ResourceName and ResourceDocumentation describe the server in the
	// metadata, for people.
	ResourceName          string
	ResourceDocumentation string
}

// Hook returns the auth hook that accepts a request carrying a bearer
// token Verify vouches for, with the required scopes, through the SDK's
// auth.RequireBearerToken. The call's context then carries the principal
// (Subject: the token's UserID; Claims: "scope" and the TokenInfo's Extra)
// and the SDK's auth.TokenInfoFromContext. A request it refuses is answered
// 401 with the challenge RFC 9728 and MCP describe:
//
//	WWW-Authenticate: Bearer resource_metadata="https://host/.well-known/oauth-protected-resource/mcp", scope="tools:call"
func (o *OAuthOptions) Hook() AuthHook {
	if o.Verify == nil {
		panic("runtime.OAuthOptions.Hook: no Verify function")
	}
	return func(r *http.Request) (context.Context, error) {
		var accepted context.Context
		guard := auth.RequireBearerToken(o.Verify, &auth.RequireBearerTokenOptions{
			ResourceMetadataURL:    o.BaseURL(r) + ProtectedResourceMetadataPath + r.URL.Path,
			Scopes:                 o.Scopes,
			AllowMissingExpiration: o.AllowMissingExpiration,
		})
		rec := &refusal{header: http.Header{}}
		guard(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { accepted = r.Context() })).ServeHTTP(rec, r)
		if accepted == nil {
			return nil, &BearerChallengeError{Challenge: rec.header.Get("WWW-Authenticate"), Reason: fmt.Sprintf("%d %s", rec.status, strings.TrimSpace(rec.body.String()))}
		}
		ti := auth.TokenInfoFromContext(accepted)
		claims := map[string]any{"scope": strings.Join(ti.Scopes, " ")}
		for k, v := range ti.Extra {
			claims[k] = v
		}
		return WithPrincipal(accepted, &Principal{Subject: ti.UserID, Claims: claims, Scopes: slices.Clone(ti.Scopes)}), nil
	}
}

// BaseURL is the server's public base URL for r: URL, else the scheme and
// Host of r. A resource's identifier is it followed by the endpoint's path.
func (o *OAuthOptions) BaseURL(r *http.Request) string {
	if o.URL != "" {
		return strings.TrimSuffix(o.URL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// BearerChallengeError is an auth hook's refusal that carries the
// WWW-Authenticate challenge to answer it with, such as [OAuthOptions.Hook]
// returns. The server sends Challenge with its 401; Reason is logged.
type BearerChallengeError struct {
	Challenge string
	Reason    string
}

// Error says why the token was refused.
func (e *BearerChallengeError) Error() string { return "bearer token refused: " + e.Reason }

// authChallenge is the WWW-Authenticate header of a 401 for an auth hook's
// error: the challenge it carries, or a plain "Bearer".
func authChallenge(err error) string {
	var c *BearerChallengeError
	if errors.As(err, &c) && c.Challenge != "" {
		return c.Challenge
	}
	return "Bearer"
}

// refusal records what auth.RequireBearerToken answers a request it
// refuses.
type refusal struct {
	header http.Header
	status int
	body   strings.Builder
}

func (r *refusal) Header() http.Header { return r.header }

func (r *refusal) WriteHeader(code int) { r.status = code }

func (r *refusal) Write(b []byte) (int, error) { return r.body.Write(b) }
