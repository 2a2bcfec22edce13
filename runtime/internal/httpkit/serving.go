package httpkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"
	"unicode/utf8"
)

// Surface is how one HTTP protocol answers a refusal: its name (as the
// runtime's Call.Surface gives it) and its error body.
type Surface struct {
	Name       string
	WriteError func(w http.ResponseWriter, e *Error)
}

// Error is a request refused before or instead of a call: the status, a
// message in words for the caller, and headers to send with it.
type Error struct {
	Status int
	Msg    string
	// Detail is a second message for developers, where the protocol has a
	// place for one (OXP's developer_message).
	Detail string
	// Code is the JSON-RPC error code, on MCP; zero means the status's.
	Code int64
	// ID is the JSON-RPC id the error answers, on MCP; nil when unknown.
	ID     json.RawMessage
	Header map[string]string
}

func (e *Error) Error() string { return e.Msg }

// Refuse returns an Error of status whose message is format, with args
// when there are any.
func Refuse(status int, format string, args ...any) *Error {
	if len(args) > 0 {
		format = fmt.Sprintf(format, args...)
	}
	return &Error{Status: status, Msg: format}
}

// Messages the serving path answers with, the same on every surface.
const (
	MsgUnauthorized   = "Unauthorized"
	MsgInternal       = "Internal server error."
	MsgUnreadableBody = "Could not read the request body."
	// MsgProviderFailed is what a caller is told when the tools provider
	// failed: the error itself is logged, not shown.
	MsgProviderFailed = "Failed to list tools."
)

// Endpoint is one route of a surface: which methods it answers, what it
// needs before its adapter runs, and the adapter.
type Endpoint struct {
	Surface *Surface
	Methods []string
	// Before runs ahead of the auth hook: checks a protocol orders before
	// authentication (the explorer's execution gate and tool lookup).
	Before func(rq *Request) error
	// Auth runs the auth hook; Body reads the body of a POST within the
	// configured limit.
	Auth, Body bool
	// OptionalAuth runs the auth hook on a public endpoint (a listing): a
	// caller it accepts is known by its principal, anyone else goes on
	// without one.
	OptionalAuth bool
	Serve        func(rq *Request) error
}

// Request is what an adapter is given: the HTTP exchange, the context the
// call runs in (the auth hook's, when it ran) and the body it read.
type Request struct {
	W    http.ResponseWriter
	R    *http.Request
	Ctx  context.Context
	Body []byte
	// St is the request's state, which WithIDs started.
	St *State
}

// CorrelationID is the request's correlation id, as WithIDs chose it.
func (rq *Request) CorrelationID() string { return rq.St.CorrelationID }

// Methods an endpoint commonly answers.
var (
	MethodsGet  = []string{http.MethodGet, http.MethodHead}
	MethodsPost = []string{http.MethodPost}
)

// Kit is the serving path of one server, with what it needs of the
// runtime core.
type Kit struct {
	// Authenticate runs the auth hook (the core's Server.Authenticate):
	// the context to serve in, or an error, answered as it says when it
	// is an *Error. HasHook says whether there is a hook to run.
	Authenticate func(*http.Request) (context.Context, error)
	HasHook      bool
	// MaxBodyBytes limits request bodies (413 past it); negative means no
	// limit.
	MaxBodyBytes int64
	Log          *slog.Logger
	// LogPanic logs a recovered panic with its stack.
	LogPanic func(where string, v any, args ...any)
	// Traced says the server has a tracer, for which a call carries the
	// trace context of its request (TraceContext).
	Traced bool
}

// TraceContext is the W3C trace context of a request's headers, for the
// server's tracer to continue (runtime.Call.TraceContext); nil when
// nothing traces, so that an untraced call reads no header for it.
func (k *Kit) TraceContext(h http.Header) map[string]string {
	if !k.Traced {
		return nil
	}
	return TraceHeaders(h)
}

// Handle returns the handler of e: the method check, Before, the auth
// hook, the body, then the adapter; any refusal answered in the surface's
// format. Patterns carry no method, so that a wrong one gets the
// surface's JSON 405 rather than ServeMux's text.
func (k *Kit) Handle(e Endpoint) http.Handler {
	allowed := strings.Join(e.Methods, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(e.Methods, r.Method) {
			k.Fail(w, r, e.Surface, &Error{Status: http.StatusMethodNotAllowed, Msg: "Method not allowed: " + r.Method, Header: map[string]string{"Allow": allowed}})
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
				k.LogPanic(e.Surface.Name+" request", v, "path", r.URL.Path)
				k.Fail(w, r, e.Surface, Refuse(http.StatusInternalServerError, MsgInternal))
			}
		}()
		rq := &Request{W: w, R: r, Ctx: r.Context(), St: StateFrom(r.Context())}
		if rq.St != nil {
			rq.St.Route = route(rq.St.Req, r)
		}
		err := k.prepare(rq, &e)
		if err == nil {
			err = e.Serve(rq)
		}
		if err != nil {
			k.Fail(w, r, e.Surface, err)
		}
	})
}

func (k *Kit) prepare(rq *Request, e *Endpoint) error {
	if e.Before != nil {
		if err := e.Before(rq); err != nil {
			return err
		}
	}
	if e.Auth {
		ctx, err := k.Authenticate(asSent(rq))
		if err != nil {
			return err
		}
		rq.Ctx = ctx
	} else if e.OptionalAuth && k.HasHook && HasCredentials(rq.R) {
		if ctx, err := k.Authenticate(asSent(rq)); err == nil {
			rq.Ctx = ctx
		}
	}
	if e.Body && rq.R.Method == http.MethodPost {
		body, err := k.ReadBody(rq.W, rq.R)
		if err != nil {
			return err
		}
		rq.Body = body
	}
	return nil
}

// Fail answers err in the surface's format: an *Error as it says, and
// anything else (a bug, or a failure an adapter did not expect) logged
// and answered with a 500 that says nothing of it.
func (k *Kit) Fail(w http.ResponseWriter, r *http.Request, sf *Surface, err error) {
	var he *Error
	if !errors.As(err, &he) {
		k.Log.ErrorContext(r.Context(), "request failed", "surface", sf.Name, "path", r.URL.Path, "err", err)
		he = Refuse(http.StatusInternalServerError, MsgInternal)
	}
	for k, v := range he.Header {
		w.Header().Set(k, v)
	}
	sf.WriteError(w, he)
}

// ReadBody reads the request body within the configured limit: 413 past
// it.
func (k *Kit) ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := k.MaxBodyBytes
	tooLarge := func() error {
		return Refuse(http.StatusRequestEntityTooLarge, "Request body too large (limit %d bytes).", limit)
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
		return nil, Refuse(http.StatusBadRequest, MsgUnreadableBody)
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

// LogPanic logs a recovered panic v, with the stack, at ERROR: where it
// happened, and args for the log line.
func LogPanic(log *slog.Logger, where string, v any, args ...any) {
	log.Error("panic serving "+where, append(args, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))...)
}

// Truncate cuts s to at most n bytes, on a rune boundary, marking the cut
// with "...": what a caller sent, echoed in an error.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// Always adapts a handler that cannot fail to an endpoint's; its request
// carries the context the auth hook gave, if it ran.
func Always(h http.HandlerFunc) func(*Request) error {
	return func(rq *Request) error {
		r := rq.R
		if rq.Ctx != r.Context() {
			r = r.WithContext(rq.Ctx)
		}
		h(rq.W, r)
		return nil
	}
}

// route is the pattern that serves r, from the root of orig, the request
// as the outermost handler got it: r's pattern under the prefixes that
// http.StripPrefix took off on the way.
func route(orig, r *http.Request) string {
	if orig == nil || orig == r || r.Pattern == "" {
		return r.Pattern
	}
	full, rest := orig.URL.Path, r.URL.Path
	if len(rest) > len(full) || !strings.HasSuffix(full, rest) {
		return r.Pattern
	}
	return full[:len(full)-len(rest)] + r.Pattern
}

// HeaderIdempotencyKey is the header a caller names a call with, so that
// a repeat of it happens once (runtime.Call.IdempotencyKey).
const HeaderIdempotencyKey = "Idempotency-Key"

// IdempotencyKey reads the Idempotency-Key header of h: "" when there is
// none, an error in words when it is not 1 to 128 printable ASCII
// characters. Every surface that takes one reads it here.
func IdempotencyKey(h http.Header) (string, error) {
	v := Header(h, HeaderIdempotencyKey)
	if v == "" {
		return "", nil
	}
	if !ValidID(v) {
		return "", errors.New("the Idempotency-Key header must be 1 to 128 printable ASCII characters")
	}
	return v, nil
}

// asSent is the request as the client sent it, for the auth hook: under
// http.StripPrefix (a surface mounted under a prefix) the adapter's
// request has lost the prefix, and a hook that speaks of the path (an
// OAuth challenge's resource_metadata URL) must see all of it.
func asSent(rq *Request) *http.Request {
	if st := rq.St; st != nil && st.Req != nil && st.Req.Context() == rq.R.Context() {
		return st.Req
	}
	return rq.R
}

// BearerToken returns the token of an "Authorization: Bearer <token>"
// header (the scheme is case-insensitive, RFC 7235); false when there is
// none.
func BearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// Query is r's query, refused with status when it cannot be read whole:
// url.URL.Query drops a pair it cannot parse (a bad %-escape, a ';'), and
// a ?limit=%zz would be read as no limit at all.
func Query(r *http.Request, status int) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, Refuse(status, "The query string cannot be read: a bad %-escape or a ';' in it.")
	}
	return q, nil
}
