package mcp

import (
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
)

// NewOAuthMetadataHandler serves srv's OAuth protected resource metadata
// (RFC 9728), as MCP's authorization spec asks of a server with
// runtime.Options.OAuth: of the server as a whole at
// runtime.ProtectedResourceMetadataPath, and of each endpoint at that path
// followed by the endpoint's (/.well-known/oauth-protected-resource/mcp).
// Mount it at both; runtime/serve does. scopes_supported is
// OAuthOptions.ScopesSupported, else its Scopes and then those the tools
// declare. A server without OAuth options answers 404.
func NewOAuthMetadataHandler(srv *runtime.Server) http.Handler {
	o := srv.Options().OAuth
	if o == nil {
		return http.NotFoundHandler()
	}
	toolScopes := srv.DeclaredScopes()
	supported := o.ScopesSupported
	if supported == nil {
		// The scopes a client must have, then those the tools declare.
		supported = slices.Clone(o.Scopes)
		for _, sc := range toolScopes {
			if !slices.Contains(supported, sc) {
				supported = append(supported, sc)
			}
		}
	}
	return surface.Endpoint(srv, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, runtime.ProtectedResourceMetadataPath)
		auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource:               o.BaseURL(r) + path,
			AuthorizationServers:   o.AuthorizationServers,
			ScopesSupported:        supported,
			BearerMethodsSupported: []string{"header"},
			ResourceName:           o.ResourceName,
			ResourceDocumentation:  o.ResourceDocumentation,
		}).ServeHTTP(w, r)
	}))
}
