package httpkit

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/internal/uuid"
)

// State is what the handling of one HTTP request shares through its
// context: the request and its ids, and what the runtime core works out
// once per request (the caller's credential fingerprint, the provider's
// tools).
type State struct {
	Req *http.Request
	// RequestID and CorrelationID are the request's ids, as its response
	// names them (WithIDs).
	RequestID, CorrelationID string
	// Route is the pattern that served the request, from the root of
	// the outermost handler ("/oxp/tools/call" for OXP mounted at /oxp),
	// once an endpoint has: what the request metrics count by.
	Route string
	// Caller is the request's credential fingerprint, once the core has
	// needed it (under Mu).
	Caller string

	// Mu guards Caller and the listing below, which the core fills once
	// per request: a batch of MCP messages in one request may be handled
	// at once.
	Mu     sync.Mutex
	Listed bool
	Tools  any // the core's []runtime.Tool
	Err    error

	// guarded says a Guard let the request through.
	guarded bool
}

type stateKey struct{}

// WithState gives r's context a fresh State.
func WithState(r *http.Request) *http.Request {
	st := &State{}
	r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
	st.Req = r
	return r
}

// NewContext returns ctx carrying st.
func NewContext(ctx context.Context, st *State) context.Context {
	return context.WithValue(ctx, stateKey{}, st)
}

// StateFrom returns the State of the request ctx belongs to, nil outside
// an HTTP request.
func StateFrom(ctx context.Context) *State {
	st, _ := ctx.Value(stateKey{}).(*State)
	return st
}

// MaxIDLength bounds a request or correlation id, from a header or a
// body: a caller cannot make the server store or echo more.
const MaxIDLength = 128

// Headers that carry the ids of a request, in their canonical form: a key
// net/http must canonicalize costs an allocation on every Get and Set.
const (
	HeaderRequestID     = "X-Request-Id"
	HeaderCorrelationID = "X-Correlation-Id"
)

// WithIDs sets X-Request-ID and X-Correlation-ID on every response: the
// request's own when they are sane ids (printable ASCII, at most 128
// bytes), else new UUIDs. It starts the request's [State] with them; the
// request's headers are left as the client sent them. A request that
// already has a State (a surface mounted inside a handler that set one)
// keeps it, so that nesting surfaces never gives a request two sets of
// ids.
func WithIDs(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if StateFrom(r.Context()) != nil {
			h.ServeHTTP(w, r)
			return
		}
		st := &State{
			RequestID:     Header(r.Header, HeaderRequestID),
			CorrelationID: Header(r.Header, HeaderCorrelationID),
		}
		if req, corr := ValidID(st.RequestID), ValidID(st.CorrelationID); !req || !corr {
			newReq, newCorr := uuid.NewPair() // a client that sends neither is the usual case
			if !req {
				st.RequestID = newReq
			}
			if !corr {
				st.CorrelationID = newCorr
			}
		}
		SetHeaders(w.Header(), HeaderRequestID, st.RequestID, HeaderCorrelationID, st.CorrelationID)
		r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))
		st.Req = r
		h.ServeHTTP(w, r)
	})
}

// Header is h.Get(key) for a key in its canonical form, which Get would
// check character by character on every request to find it is.
func Header(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// ValidID reports whether v is a non-empty id of printable ASCII, at most
// MaxIDLength bytes.
func ValidID(v string) bool {
	return v != "" && len(v) <= MaxIDLength && strings.IndexFunc(v, func(c rune) bool { return c < 0x21 || c > 0x7e }) < 0
}

// ValidBodyID reports whether v, an id a body gives, is one to keep: at
// most MaxIDLength characters, none of them a control character (it is
// echoed in a header, and shown in the explorer).
func ValidBodyID(v string) bool {
	return utf8.RuneCountInString(v) <= MaxIDLength && utf8.ValidString(v) &&
		strings.IndexFunc(v, func(c rune) bool { return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) }) < 0
}

// CredentialHeader reports whether a header of that name may carry a
// credential: Authorization, Cookie, and any name that speaks of a key,
// token or auth, but Idempotency-Key, which names a call, not a caller.
func CredentialHeader(name string) bool {
	l := strings.ToLower(name)
	if l == "idempotency-key" {
		return false
	}
	return l == "authorization" || l == "cookie" || strings.Contains(l, "key") || strings.Contains(l, "token") || strings.Contains(l, "auth")
}

// HasCredentials reports whether r carries anything an auth hook could
// read as credentials (the headers a caller's identity fingerprints), so
// that a public listing runs the hook only for a caller that sent some,
// and does not log a rejection for every anonymous one.
func HasCredentials(r *http.Request) bool {
	for name := range r.Header {
		if CredentialHeader(name) {
			return true
		}
	}
	return false
}
