package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolgen-go/toolgen/runtime"
)

// The server as an OAuth 2.1 resource server, tested with the SDK's
// client-side OAuth (auth.AuthorizationCodeHandler) against a fake
// authorization server: the client meets a 401, follows its challenge to
// the protected resource metadata, gets a token for the resource with the
// scopes the challenge names (authorization code with PKCE), and calls
// again.

// fakeAS is an authorization server with one pre-registered client.
type fakeAS struct {
	*httptest.Server
	mu     sync.Mutex
	codes  map[string]grant // authorization code → what it grants
	tokens map[string]grant // access token → what it grants
}

type grant struct {
	challenge, resource, scope, redirect string
}

const (
	asClientID     = "toolgen-test"
	asClientSecret = "s3cret"
	asRedirect     = "http://localhost:9999/callback"
)

func newFakeAS(t *testing.T) *fakeAS {
	as := &fakeAS{codes: map[string]grant{}, tokens: map[string]grant{}}
	mux := http.NewServeMux()
	as.Server = newHTTPTest(mux)
	t.Cleanup(as.Close)
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"issuer":                                as.URL,
			"authorization_endpoint":                as.URL + "/authorize",
			"token_endpoint":                        as.URL + "/token",
			"response_types_supported":              []string{"code"},
			"grant_types_supported":                 []string{"authorization_code"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"client_secret_post"},
		})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("client_id") != asClientID || q.Get("redirect_uri") != asRedirect || q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code" {
			http.Error(w, "bad authorization request: "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		as.mu.Lock()
		code := fmt.Sprintf("code-%d", len(as.codes)+1)
		as.codes[code] = grant{challenge: q.Get("code_challenge"), resource: q.Get("resource"), scope: q.Get("scope"), redirect: q.Get("redirect_uri")}
		as.mu.Unlock()
		http.Redirect(w, r, asRedirect+"?code="+code+"&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		as.mu.Lock()
		defer as.mu.Unlock()
		g, ok := as.codes[r.Form.Get("code")]
		delete(as.codes, r.Form.Get("code"))
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		switch {
		case !ok, r.Form.Get("grant_type") != "authorization_code":
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		case r.Form.Get("client_id") != asClientID || r.Form.Get("client_secret") != asClientSecret:
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
			http.Error(w, `{"error":"invalid_grant","error_description":"PKCE"}`, http.StatusBadRequest)
			return
		case r.Form.Get("resource") != g.resource || r.Form.Get("redirect_uri") != g.redirect:
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		token := fmt.Sprintf("token-%d", len(as.tokens)+1)
		as.tokens[token] = g
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": g.scope})
	})
	return as
}

// verify is the resource server's token verifier: a token the fake server
// issued for resource.
func (as *fakeAS) verify(resource string) auth.TokenVerifier {
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		as.mu.Lock()
		g, ok := as.tokens[token]
		as.mu.Unlock()
		if !ok || g.resource != resource {
			return nil, fmt.Errorf("%w: unknown token, or one for another resource", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: "ada", Scopes: strings.Fields(g.scope), Expiration: time.Now().Add(time.Hour)}, nil
	}
}

func TestOAuthResourceServer(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) { testOAuthResourceServer(t, stateless) })
	}
}

func testOAuthResourceServer(t *testing.T, stateless bool) {
	as := newFakeAS(t)
	who := runtime.Tool{Name: "whoami", Handler: func(ctx context.Context, _ json.RawMessage) (*runtime.Result, error) {
		p, _ := runtime.PrincipalFromContext(ctx)
		ti := auth.TokenInfoFromContext(ctx)
		return runtime.TextResult(p.Subject + " " + strings.Join(ti.Scopes, ",")), nil
	}}
	// The verifier needs the server's URL, which it has once it listens.
	var verify auth.TokenVerifier
	s := newTestServer(runtime.ToolList{who}, &runtime.Options{Logger: discard(), OAuth: &runtime.OAuthOptions{
		AuthorizationServers: []string{as.URL},
		Scopes:               []string{"tools:call"},
		Verify: func(ctx context.Context, tok string, r *http.Request) (*auth.TokenInfo, error) {
			return verify(ctx, tok, r)
		},
		ResourceName: "test tools",
	}}, &Options{Stateless: stateless})
	hs := newHTTPTest(s)
	t.Cleanup(hs.Close)
	verify = as.verify(hs.URL + "/mcp")

	// Without a token: 401, with the challenge that points at the metadata.
	resp, err := http.Post(hs.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	wantChallenge := `Bearer resource_metadata="` + hs.URL + `/.well-known/oauth-protected-resource/mcp", scope="tools:call"`
	if body := readAll(resp); resp.StatusCode != 401 || body != rpcUnauthorized || resp.Header.Get("WWW-Authenticate") != wantChallenge {
		t.Errorf("no token: %d %s %q", resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"))
	}
	// The metadata, for the endpoint and for the server.
	for path, resource := range map[string]string{"/mcp": hs.URL + "/mcp", "": hs.URL} {
		resp, err := http.Get(hs.URL + runtime.ProtectedResourceMetadataPath + path)
		if err != nil {
			t.Fatal(err)
		}
		var prm oauthex.ProtectedResourceMetadata
		if err := json.NewDecoder(resp.Body).Decode(&prm); err != nil || resp.StatusCode != 200 {
			t.Fatalf("metadata %q: %d %v", path, resp.StatusCode, err)
		}
		resp.Body.Close()
		if prm.Resource != resource || strings.Join(prm.AuthorizationServers, " ") != as.URL || strings.Join(prm.ScopesSupported, " ") != "tools:call" || prm.ResourceName != "test tools" {
			t.Errorf("metadata %q: %+v", path, prm)
		}
	}

	// The SDK's client finds its way to a token.
	var authorized int
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		RedirectURL: asRedirect,
		PreregisteredClient: &oauthex.ClientCredentials{
			ClientID:         asClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: asClientSecret},
		},
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			authorized++
			noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := noRedirect.Get(args.URL)
			if err != nil {
				return nil, err
			}
			defer resp.Body.Close()
			loc, err := resp.Location()
			if err != nil {
				return nil, fmt.Errorf("authorize: %d %s", resp.StatusCode, readAll(resp))
			}
			return &auth.AuthorizationResult{Code: loc.Query().Get("code"), State: loc.Query().Get("state")}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: hs.URL + "/mcp", OAuthHandler: handler}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// The SDK's client speaks 2026-07-28, which is served statelessly
	// whatever the mode.
	if v, want := cs.InitializeResult().ProtocolVersion, "2026-07-28"; v != want {
		t.Errorf("protocol %s, want %s", v, want)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "whoami"})
	if err != nil || res.Content[0].(*sdk.TextContent).Text != "ada tools:call" {
		t.Fatalf("whoami: %v %v", mustJSON(t, res), err)
	}
	if authorized != 1 {
		t.Errorf("authorized %d times", authorized)
	}

	// A token without the scope, or for another resource, is refused with
	// the same challenge.
	as.mu.Lock()
	as.tokens["narrow"] = grant{resource: hs.URL + "/mcp", scope: "other"}
	as.tokens["elsewhere"] = grant{resource: "https://elsewhere.example/mcp", scope: "tools:call"}
	as.mu.Unlock()
	for _, tok := range []string{"narrow", "elsewhere"} {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if readAll(resp); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != wantChallenge {
			t.Errorf("%s token: %d %q", tok, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}

	// Every surface is behind the same hook: /v1, with its own endpoint's
	// metadata.
	resp, err = http.Get(hs.URL + "/v1/invocations")
	if err != nil {
		t.Fatal(err)
	}
	readAll(resp)
	if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `/.well-known/oauth-protected-resource/v1/invocations"`) {
		t.Errorf("/v1: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

// With OAuthOptions.URL, the resource identifiers and the challenge name
// the public URL, whatever the Host of the request.
func TestOAuthPublicURL(t *testing.T) {
	o := &runtime.OAuthOptions{AuthorizationServers: []string{"https://as.example"}, URL: "https://tools.example.com/",
		Verify: func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return nil, auth.ErrInvalidToken
		}}
	s := runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard(), OAuth: o})
	r := do(t, s, "POST", "/mcp", "{}")
	if r.status != 401 || r.header.Get("WWW-Authenticate") != `Bearer resource_metadata="https://tools.example.com/.well-known/oauth-protected-resource/mcp"` {
		t.Errorf("challenge: %d %q", r.status, r.header.Get("WWW-Authenticate"))
	}
	r = do(t, s, "GET", runtime.ProtectedResourceMetadataPath+"/mcp", "")
	if r.status != 200 || !strings.Contains(r.body, `"resource":"https://tools.example.com/mcp"`) {
		t.Errorf("metadata: %d %s", r.status, r.body)
	}
	// Another auth hook keeps the gate; the metadata is served all the same.
	s = runtime.NewServer(runtime.ToolList{}, &runtime.Options{Logger: discard(), OAuth: o, AuthHook: runtime.BearerTokens("t")})
	if r := do(t, s, "POST", "/mcp", "{}"); r.status != 401 || r.header.Get("WWW-Authenticate") != "Bearer" {
		t.Errorf("own hook: %d %q", r.status, r.header.Get("WWW-Authenticate"))
	}
	if r := do(t, s, "GET", runtime.ProtectedResourceMetadataPath, ""); r.status != 200 {
		t.Errorf("metadata with another hook: %d", r.status)
	}
	// scopes_supported: the scopes every token needs, then those the
	// tools declare.
	o.Scopes = []string{"tools:call"}
	scoped := runtime.Tool{Name: "close", Scopes: []string{"issues:write", "tools:call"}, Handler: func(context.Context, json.RawMessage) (*runtime.Result, error) { return nil, nil }}
	s = runtime.NewServer(runtime.ToolList{scoped}, &runtime.Options{Logger: discard(), OAuth: o})
	if r := do(t, s, "GET", runtime.ProtectedResourceMetadataPath, ""); !strings.Contains(r.body, `"scopes_supported":["tools:call","issues:write"]`) {
		t.Errorf("scopes_supported: %s", r.body)
	}
}
