package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// A caller has one identity, whatever asks: history (whose records a
// caller may read), idempotency keys (whose namespace a key is in), MCP
// sessions and tasks (who may use them), requestState and human requests.
// It is, in order:
//
//   - the subject of the [Principal] the auth hook put in the context
//     ([WithPrincipal]), as history has always stored it;
//   - on a server with an auth hook whose context names no subject,
//     "key:" and a fingerprint (SHA-256) of the credentials the request
//     carried: the headers an auth hook reads (Authorization, cookies, and
//     any header whose name speaks of a key, token or auth, less
//     Idempotency-Key), so that two callers the hook told apart by their
//     credentials are two callers, never one, even when it names neither;
//   - "", the single anonymous caller of a server without an auth hook,
//     for whom nothing is kept apart (rate limits and the per-caller
//     session cap count such a server's callers by client address).
//
// A subject is stored as it is, so the records of stores written before
// this rule keep their callers; a fingerprint is never a subject a hook
// could give by chance (it would have to be "key:" and the SHA-256 of
// another caller's credentials).

// CallerID is the identity of ctx's caller, by the rule above.
func (s *Server) CallerID(ctx context.Context) string {
	if id := s.callerRef(ctx); id != nil {
		return *id
	}
	return ""
}

// callerRef is callerID as history keeps it, nil for the anonymous
// caller. It points at the principal's Subject, or at the request's
// fingerprint (computed once, kept in its state), so that a call
// allocates nothing for it.
func (s *Server) callerRef(ctx context.Context) *string {
	if p, ok := PrincipalFromContext(ctx); ok && p != nil && p.Subject != "" {
		return &p.Subject
	}
	if s.opts.AuthHook == nil {
		return nil
	}
	st := httpkit.StateFrom(ctx)
	if st == nil || st.Req == nil {
		return nil // a call made in process, with no request: no credentials
	}
	st.Mu.Lock()
	defer st.Mu.Unlock()
	if st.Caller == "" {
		st.Caller = credentialFingerprint(st.Req)
	}
	return &st.Caller
}

// credentialFingerprint is "key:" and the SHA-256 of r's credential
// headers, by name and value, in order of name.
func credentialFingerprint(r *http.Request) string {
	names := make([]string, 0, len(r.Header))
	for name := range r.Header {
		if httpkit.CredentialHeader(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		for _, v := range r.Header[name] {
			h.Write([]byte(strings.ToLower(name)))
			h.Write([]byte{0})
			h.Write([]byte(v))
			h.Write([]byte{0})
		}
	}
	return "key:" + hex.EncodeToString(h.Sum(nil))
}
