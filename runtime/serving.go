package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// The serving path every HTTP surface shares, in the shape connect-go gives
// its protocols: one core, and per protocol a small adapter (explorer.go,
// oxp.go, v1.go, mcp.go) that decodes its wire request into a [Call] and
// encodes the [Outcome]. What every surface does alike is done here, once:
//
//   - ids: X-Request-ID and X-Correlation-ID on every response (withIDs);
//   - the method check, the auth hook, the body limit (endpoint);
//   - the mapping of every refusal to the surface's own JSON error
//     (surface.writeError), so that no Go text reaches a client.
//
// The browser guard (browser.go) sits in front of all of it. The arguments
// are parsed once, by the pipeline ([Server.Invoke]), for every surface.

// maxIDLength bounds a request or correlation id, from a header or a body:
// a caller cannot make the server store or echo more.
const maxIDLength = 128

// Headers that carry the ids of a request, in their canonical form: a key
// net/http must canonicalize costs an allocation on every Get and Set.
const (
	headerRequestID     = "X-Request-Id"
	headerCorrelationID = "X-Correlation-Id"
)

// withIDs sets X-Request-ID and X-Correlation-ID on every response: the
// request's own when they are sane ids (printable ASCII, at most 128
// bytes), else new UUIDs. It starts the request's state (see
// [requestState]) with them, where the adapters read the correlation id;
// the request's headers are left as the client sent them.
func withIDs(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := &requestState{
			requestID:     header(r.Header, headerRequestID),
			correlationID: header(r.Header, headerCorrelationID),
		}
		if req, corr := validID(st.requestID), validID(st.correlationID); !req || !corr {
			newReq, newCorr := newUUIDPair() // a client that sends neither is the usual case
			if !req {
				st.requestID = newReq
			}
			if !corr {
				st.correlationID = newCorr
			}
		}
		setHeaders(w.Header(), headerRequestID, st.requestID, headerCorrelationID, st.correlationID)
		r = r.WithContext(context.WithValue(r.Context(), requestKey{}, st))
		st.req = r
		h.ServeHTTP(w, r)
	})
}

// header is h.Get(key) for a key in its canonical form, which Get would
// check character by character on every request to find it is.
func header(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// validID reports whether v is a non-empty id of printable ASCII, at most
// maxIDLength bytes.
func validID(v string) bool {
	return v != "" && len(v) <= maxIDLength && strings.IndexFunc(v, func(c rune) bool { return c < 0x21 || c > 0x7e }) < 0
}

// validBodyID reports whether v, an id a body gives, is one to keep: at
// most maxIDLength characters, none of them a control character (it is
// echoed in a header, and shown in the explorer).
func validBodyID(v string) bool {
	return utf8.RuneCountInString(v) <= maxIDLength && utf8.ValidString(v) &&
		strings.IndexFunc(v, func(c rune) bool { return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) }) < 0
}

// surface is how one HTTP protocol answers a refusal: its name (as
// [Call.Surface] gives it) and its error body.
type surface struct {
	name       string
	writeError func(w http.ResponseWriter, e *httpError)
}

// httpError is a request refused before or instead of a call: the status,
// a message in words for the caller, and headers to send with it.
type httpError struct {
	status int
	msg    string
	// detail is a second message for developers, where the protocol has a
	// place for one (OXP's developer_message).
	detail string
	// code is the JSON-RPC error code, on MCP; zero means the status's.
	code int64
	// id is the JSON-RPC id the error answers, on MCP; nil when unknown.
	id     json.RawMessage
	header map[string]string
}

func (e *httpError) Error() string { return e.msg }

// refuse returns an httpError.
func refuse(status int, format string, args ...any) *httpError {
	if len(args) > 0 {
		format = fmt.Sprintf(format, args...)
	}
	return &httpError{status: status, msg: format}
}

// Messages the serving path answers with, the same on every surface.
const (
	msgUnauthorized   = "Unauthorized"
	msgInternal       = "Internal server error."
	msgUnreadableBody = "Could not read the request body."
)

// endpoint is one route of a surface: which methods it answers, what it
// needs before its adapter runs, and the adapter.
type endpoint struct {
	surface *surface
	methods []string
	// before runs ahead of the auth hook: checks a protocol orders before
	// authentication (the explorer's execution gate and tool lookup).
	before func(rq *request) error
	// auth runs the auth hook; body reads the body of a POST within the
	// configured limit.
	auth, body bool
	// optionalAuth runs the auth hook on a public endpoint (a listing):
	// a caller it accepts is known by its principal, anyone else goes on
	// without one.
	optionalAuth bool
	serve        func(rq *request) error
}

// request is what an adapter is given: the HTTP exchange, the context the
// call runs in (the auth hook's, when it ran) and the body it read.
type request struct {
	w    http.ResponseWriter
	r    *http.Request
	ctx  context.Context
	body []byte
	// st is the request's state, which withIDs started.
	st *requestState
}

// correlationID is the request's correlation id, as withIDs chose it.
func (rq *request) correlationID() string { return rq.st.correlationID }

var (
	methodsGet  = []string{http.MethodGet, http.MethodHead}
	methodsPost = []string{http.MethodPost}
)

// handle returns the handler of e: the method check, before, the auth
// hook, the body, then the adapter; any refusal answered in the surface's
// format. Patterns carry no method, so that a wrong one gets the surface's
// JSON 405 rather than ServeMux's text.
func (s *Server) handle(e endpoint) http.Handler {
	allowed := strings.Join(e.methods, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(e.methods, r.Method) {
			s.fail(w, r, e.surface, &httpError{status: http.StatusMethodNotAllowed, msg: "Method not allowed: " + r.Method, header: map[string]string{"Allow": allowed}})
			return
		}
		defer func() {
			// A panic below (a middleware's, a tracer's, a provider's)
			// is answered in the surface's shape, as a 500, rather than
			// left to net/http, which drops the connection unanswered.
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logPanic(e.surface.name+" request", v, "path", r.URL.Path)
				s.fail(w, r, e.surface, refuse(http.StatusInternalServerError, msgInternal))
			}
		}()
		rq := &request{w: w, r: r, ctx: r.Context(), st: stateFrom(r.Context())}
		err := s.prepare(rq, &e)
		if err == nil {
			err = e.serve(rq)
		}
		if err != nil {
			s.fail(w, r, e.surface, err)
		}
	})
}

func (s *Server) prepare(rq *request, e *endpoint) error {
	if e.before != nil {
		if err := e.before(rq); err != nil {
			return err
		}
	}
	if e.auth {
		ctx, err := s.authenticate(rq.r)
		if err != nil {
			return err
		}
		rq.ctx = ctx
	} else if e.optionalAuth && s.opts.AuthHook != nil && hasCredentials(rq.r) {
		if ctx, err := s.authenticate(rq.r); err == nil {
			rq.ctx = ctx
		}
	}
	if e.body && rq.r.Method == http.MethodPost {
		body, err := s.readBody(rq.w, rq.r)
		if err != nil {
			return err
		}
		rq.body = body
	}
	return nil
}

// fail answers err in the surface's format: an *httpError as it says, and
// anything else (a bug, or a failure an adapter did not expect) logged and
// answered with a 500 that says nothing of it.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, sf *surface, err error) {
	var he *httpError
	if !errors.As(err, &he) {
		s.log.ErrorContext(r.Context(), "request failed", "surface", sf.name, "path", r.URL.Path, "err", err)
		he = refuse(http.StatusInternalServerError, msgInternal)
	}
	for k, v := range he.header {
		w.Header().Set(k, v)
	}
	sf.writeError(w, he)
}

// authenticate is the one place the auth hook runs, for every surface. On
// rejection it logs the reason at WARN and returns a generic 401 with the
// hook's challenge. The returned context carries the request's state (see
// [RequestFromContext]) whatever context the hook returned.
func (s *Server) authenticate(r *http.Request) (context.Context, error) {
	ctx := r.Context()
	if s.opts.AuthHook == nil {
		return ctx, nil
	}
	hctx, err := s.opts.AuthHook(r)
	if err != nil {
		s.log.WarnContext(ctx, "request rejected by auth hook", "path", r.URL.Path, "remote", r.RemoteAddr, "err", err)
		return nil, &httpError{status: http.StatusUnauthorized, msg: msgUnauthorized, header: map[string]string{"WWW-Authenticate": authChallenge(err)}}
	}
	if hctx == nil {
		return ctx, nil
	}
	if st := stateFrom(ctx); st != nil && stateFrom(hctx) != st {
		hctx = context.WithValue(hctx, requestKey{}, st)
	}
	return hctx, nil
}

// readBody reads the request body within the configured limit: 413 past
// it.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := s.opts.MaxBodyBytes
	tooLarge := func() error {
		return refuse(http.StatusRequestEntityTooLarge, "Request body too large (limit %d bytes).", limit)
	}
	var body []byte
	var err error
	if limit < 0 {
		body, err = readBodyOf(r.Body, r.ContentLength)
	} else {
		if r.ContentLength > limit {
			return nil, tooLarge()
		}
		body, err = readBodyOf(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	}
	if err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			return nil, tooLarge()
		}
		return nil, refuse(http.StatusBadRequest, msgUnreadableBody)
	}
	return body, nil
}

// readBodyOf is io.ReadAll with a first buffer the size of the body the
// request declares (n, -1 when it does not), rather than 512 bytes: a
// tool call's body is usually far smaller. A body longer than declared
// is read whole all the same; n is capped, so that a header alone does not
// make a large buffer.
func readBodyOf(r io.Reader, n int64) ([]byte, error) {
	const maxFirst = 64 << 10
	if n < 0 || n > maxFirst {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, n+1) // one more, for the read that finds EOF
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// decodeEnvelope decodes a protocol's request body (OXP's call request,
// /v1's {"input": ...}; not a tool's arguments, which the pipeline parses)
// into v, which must be a pointer to a struct. An empty body leaves v as
// it is. What is wrong with a body it cannot decode is said in words,
// never in encoding/json's, which names Go types. With strict, a name v
// does not have is refused too.
func decodeEnvelope(body []byte, v any, strict bool) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if p := jsonProblem(body); p != "" {
		return errors.New("the body is " + p)
	}
	if path, key, dup := duplicateKey(body); dup {
		if path = strings.TrimSuffix(path, "/"+escapePointer(key)); path == "" {
			path = "the body"
		}
		return fmt.Errorf("%q appears twice in %s", key, path)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		if te.Field == "" {
			return errors.New("the body must be a JSON object")
		}
		return fmt.Errorf("%q must be %s", te.Field, jsonTypeName(te.Type))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("unknown name %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return errors.New("the body could not be read")
}

// jsonTypeName names the JSON a Go type is decoded from.
func jsonTypeName(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonTypeName(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another kind of value"
}

// hasCredentials reports whether r carries anything an auth hook could
// read as credentials (the headers a caller's identity fingerprints), so that a
// public listing runs the hook only for a caller that sent some, and does
// not log a rejection for every anonymous one.
func hasCredentials(r *http.Request) bool {
	for name := range r.Header {
		if credentialHeader(name) {
			return true
		}
	}
	return false
}
