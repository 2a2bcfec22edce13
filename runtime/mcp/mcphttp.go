package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
	"github.com/toolgen-go/toolgen/runtime/internal/surface"
)

// MCP over HTTP: Streamable HTTP at /mcp and HTTP+SSE at /sse. The shared
// serving path (serving.go) runs first (ids, auth, body limit); this
// adapter checks that the body is JSON-RPC, picks the SDK handler that
// serves the request's protocol revision, and hands it over. The protocol
// itself, sessions and streams are the go-sdk's.
//
// One endpoint answers every client, chosen per request:
//
//   - a request of revision 2026-07-28 or later (its MCP-Protocol-Version
//     header, its _meta, or server/discover) is served by the SDK's
//     stateless handler: each request stands alone, and a tool's questions
//     to the client become input-required results. A plain tools/call or
//     tools/list of that revision, which needs no stream, is answered by
//     toolgen's fast path instead, as the SDK would answer it
//     (mcpfast.go);
//   - any other request is served in a session (the SDK's stateful handler)
//     whose streams can be resumed: every event has an id, and a client
//     that reconnects with Last-Event-ID is sent what it missed.
//
// Options.Stateless refuses sessions: every request goes to the
// stateless handler, for replicas without sticky routing.

// metaProtocolVersion is the _meta key in which a request of revision
// 2026-07-28 names its revision (SEP-2575).
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// mcpSurface is MCP over HTTP: a refusal is a JSON-RPC error response.
var mcpSurface = &httpkit.Surface{Name: runtime.SurfaceMCP, WriteError: writeRPCError}

// writeRPC writes the response to request id (nil: null) with status:
// e when it is not nil, else result; encoded by encodeRPC, as every
// response toolgen writes itself (a refusal of the serving path, a task
// method's answer, the fast path's).
func writeRPC(w http.ResponseWriter, log *slog.Logger, status int, id json.RawMessage, result any, e *jsonrpc.Error) {
	buf := fastBuffers.Get().(*bytes.Buffer)
	defer fastBuffers.Put(buf)
	buf.Reset()
	var err error
	if e != nil {
		err = e
	}
	encodeRPC(buf, id, result, err, log)
	httpkit.SetHeaders(w.Header(), "Content-Type", "application/json", "X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// writeRPCError answers a refusal of the serving path: e's status, a
// JSON-RPC error with e's code (by default the status's: invalid request,
// or internal error from 500 on).
func writeRPCError(w http.ResponseWriter, e *httpkit.Error) {
	code := e.Code
	if code == 0 {
		code = jsonrpc.CodeInvalidRequest
		if e.Status >= 500 {
			code = jsonrpc.CodeInternalError
		}
	}
	// An error always encodes: nothing is logged.
	writeRPC(w, slog.Default(), e.Status, e.ID, nil, &jsonrpc.Error{Code: code, Message: e.Msg})
}

// NewHandler returns MCP's Streamable HTTP for srv's tools, served at
// whatever path it is mounted on (runtime/serve mounts it at
// Options.Path, default [DefaultPath]). A nil opts means defaults. It
// answers every client whatever revision it speaks: 2026-07-28 by
// toolgen's own code, older ones in go-sdk sessions (see the file's
// comment). It serves requests behind the shared serving path: request
// ids, the browser guard, the auth hook (run once per request, its caller
// handed to the session), the body limit.
//
// Each call builds a server of its own (sessions, tasks, the go-sdk's
// server), which srv tells of its changes for as long as srv lives: build
// it once.
func NewHandler(srv *runtime.Server, opts *Options) http.Handler {
	h, _ := newStreamable(srv, opts)
	return h
}

// newStreamable is NewHandler, with the server it built.
func newStreamable(srv *runtime.Server, opts *Options) (http.Handler, *server) {
	s := newServer(srv, opts)
	s.mcpHTTP()
	return surface.Endpoint(srv, s.kit.Handle(httpkit.Endpoint{
		Surface: mcpSurface,
		Methods: []string{http.MethodPost, http.MethodGet, http.MethodDelete},
		Auth:    true, Body: true,
		Serve: s.serveMCP,
	})), s
}

// NewSSEHandler returns the HTTP+SSE transport of protocol 2024-11-05,
// for clients that predate Streamable HTTP (see serveSSE), served at
// whatever path it is mounted on (runtime/serve mounts it at
// Options.SSEPath, default [DefaultSSEPath]); the stream tells the client
// to POST its messages to the same path. Like NewHandler, it builds a
// server of its own: build it once.
func NewSSEHandler(srv *runtime.Server, opts *Options) http.Handler {
	h, _ := newSSE(srv, opts)
	return h
}

// newSSE is NewSSEHandler, with the server it built.
func newSSE(srv *runtime.Server, opts *Options) (http.Handler, *server) {
	s := newServer(srv, opts)
	s.sseHTTP()
	return surface.Endpoint(srv, s.kit.Handle(httpkit.Endpoint{
		Surface: mcpSurface,
		Methods: []string{http.MethodGet, http.MethodPost},
		Auth:    true, Body: true,
		Serve: s.serveSSE,
	})), s
}

// mcpHTTP makes the SDK's two Streamable HTTP handlers.
func (s *server) mcpHTTP() {
	o := &s.mopts
	idle := o.SessionIdleTimeout
	if idle == 0 {
		idle = DefaultSessionIdleTimeout
	}
	getServer := func(*http.Request) *sdk.Server { return s.sdk() }
	common := sdk.StreamableHTTPOptions{
		JSONResponse: o.JSONResponse,
		// The serving path checks the Host header (browser.go) and bounds
		// the body before the SDK sees the request.
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        -1,
		Logger:                     s.log,
	}
	stateless := common
	stateless.Stateless = true
	s.stateless = s.withTokenInfo(sdk.NewStreamableHTTPHandler(getServer, &stateless))
	if !o.Stateless {
		stateful := common
		stateful.SessionTimeout = max(idle, 0)
		// Resumable streams: every event gets an id, and a client that
		// reconnects with Last-Event-ID is sent what it missed. The
		// store forgets a session's events when it closes, and holds at
		// most 10 MiB in all.
		stateful.EventStore = sdk.NewMemoryEventStore(nil)
		s.stateful = s.withTokenInfo(sdk.NewStreamableHTTPHandler(getServer, &stateful))
	}
	s.sessions.every = idle
}

// sseHTTP makes the SDK's HTTP+SSE handler.
func (s *server) sseHTTP() {
	getServer := func(*http.Request) *sdk.Server { return s.sdk() }
	s.sseHandler = sdk.NewSSEHandler(getServer, &sdk.SSEOptions{
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        -1,
	})
}

// serveMCP is the Streamable HTTP adapter.
func (s *server) serveMCP(rq *httpkit.Request) error {
	r := rq.R
	newProtocol := r.Header.Get("MCP-Protocol-Version") >= protocol20260728
	if r.Method == http.MethodPost {
		if newProtocol && s.serveMCPFast(rq) {
			return nil // a plain tools/call or tools/list (mcpfast.go)
		}
		info, err := inspectRPC(rq.Body)
		if err != nil {
			return err
		}
		newProtocol = newProtocol || info.newProtocol
		status := http.StatusOK // in a session, as the SDK answers errors
		if newProtocol {
			status = http.StatusBadRequest // as 2026-07-28 maps -32602
		}
		if err := info.paramsError(status); err != nil {
			return err
		}
		if newProtocol && s.serveTaskMethod(rq) {
			return nil // tasks/get, tasks/update, tasks/cancel (mcptasks.go)
		}
		r.Header = s.sdkHeader(rq, info.id)
		r.Body = io.NopCloser(bytes.NewReader(rq.Body))
		r.ContentLength = int64(len(rq.Body))
	}
	sid := r.Header.Get("Mcp-Session-Id")
	h := s.stateless
	w := rq.W
	if s.stateful != nil && (sid != "" || !newProtocol) {
		h = s.stateful
		var err error
		if w, err = s.sessionWriter(rq, sid); err != nil {
			return err
		}
		if sid != "" && r.Method == http.MethodDelete {
			defer s.sessions.forget(sid)
		}
	}
	ew := &rpcErrorWriter{ResponseWriter: w, req: r}
	h.ServeHTTP(ew, r.WithContext(rq.Ctx))
	ew.finish()
	return nil
}

// sessionWriter checks that the session sid, when the request names one,
// is the caller's (a session belongs to whoever opened it), and for a
// POST that opens one makes room for it and returns the writer that
// records it. It is not inlined, so that its log lines do not make
// serveMCP's frame large (see refuseCrossOrigin).
//
//go:noinline
func (s *server) sessionWriter(rq *httpkit.Request, sid string) (http.ResponseWriter, error) {
	r := rq.R
	owner := s.owner(rq.Ctx)
	if sid != "" {
		if !s.sessions.use(sid, owner) {
			s.log.WarnContext(rq.Ctx, "MCP session used by another caller", "session", sid, "remote", r.RemoteAddr)
			return nil, httpkit.Refuse(http.StatusForbidden, "Forbidden")
		}
		return rq.W, nil
	}
	if r.Method != http.MethodPost {
		return rq.W, nil
	}
	caller := s.core.CallerKey(rq.Ctx)
	if old := s.sessions.makeRoom(s.sdkSrv, caller); old != "" {
		s.log.InfoContext(rq.Ctx, "MCP session closed to make room for a new one", "session", old, "max", s.sessions.max, "max_per_caller", s.sessions.per)
		closeSession(s.sdkSrv, old)
	}
	return &sessionRecorder{ResponseWriter: rq.W, record: func(sid string) { s.sessions.add(sid, owner, caller) }}, nil
}

// serveSSE is the HTTP+SSE adapter (protocol 2024-11-05, for clients that
// predate Streamable HTTP), through the SDK's SSEHandler: a GET opens a
// session and its event stream, and the client POSTs its messages to the
// endpoint the stream names (?sessionid=...).
//
// A session runs in the context of the GET that opened it (the caller's
// identity, the request for RequestFromContext), and belongs to that
// caller: a POST by anyone else is refused (403). Like Streamable HTTP's
// sessions, the open streams are bounded by Options.MaxSessions, the
// least recently used one closed to make room.
func (s *server) serveSSE(rq *httpkit.Request) error {
	owner := s.owner(rq.Ctx)
	w := rq.W
	r := rq.R.WithContext(rq.Ctx)
	switch r.Method {
	case http.MethodGet:
		ctx, cancel := context.WithCancel(rq.Ctx)
		defer cancel()
		var sid string
		defer func() { s.sse.forget(sid) }()
		w = &endpointRecorder{ResponseWriter: w, record: func(id string) {
			sid = id
			if old := s.sse.add(id, owner, s.core.CallerKey(ctx), cancel); old != "" {
				s.log.InfoContext(ctx, "SSE stream closed to make room for a new one", "session", old, "max", s.sse.max)
			}
		}}
		r = r.WithContext(ctx)
	case http.MethodPost:
		if sid := r.URL.Query().Get("sessionid"); sid != "" && !s.sse.use(sid, owner) {
			s.log.WarnContext(rq.Ctx, "SSE session used by another caller", "session", sid, "remote", r.RemoteAddr)
			return httpkit.Refuse(http.StatusForbidden, "Forbidden")
		}
		info, err := inspectRPC(rq.Body)
		if err != nil {
			return err
		}
		if err := info.paramsError(http.StatusBadRequest); err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(rq.Body))
		r.ContentLength = int64(len(rq.Body))
	}
	ew := &rpcErrorWriter{ResponseWriter: w}
	s.sseHandler.ServeHTTP(ew, r)
	ew.finish()
	return nil
}

// rpcInfo is what the adapter needs to know of a JSON-RPC body.
type rpcInfo struct {
	// newProtocol: a request names revision 2026-07-28 or later in its
	// _meta, or is server/discover, which only such clients send.
	newProtocol bool
	// id is the JSON-RPC id of a request that is the body's one message,
	// as written; nil otherwise.
	id json.RawMessage
	// badParams says what is wrong with a message's params, for an
	// invalid-params error (see checkParams); "" when nothing is.
	badParams string
	// badID is the id of the message badParams is about.
	badID json.RawMessage
}

// paramsError is the refusal of a body whose params checkParams refused:
// invalid params, answering the message's id, with status (200 where the
// revision answers errors in a 200, 400 at 2026-07-28 and on /sse, whose
// POSTs have no other way to answer).
func (info rpcInfo) paramsError(status int) error {
	if info.badParams == "" {
		return nil
	}
	return &httpkit.Error{Status: status, Code: jsonrpc.CodeInvalidParams, Msg: info.badParams, ID: info.badID}
}

// sdkHeader is the header an MCP handler is given (RequestExtra.Header): a
// copy of the client's with the request's correlation id and, for the
// trace, its JSON-RPC id. The SDK gives a handler neither, nor the
// request's state: it carries a request's headers to it (a session's
// handlers run in the session's context, not the request's).
func (s *server) sdkHeader(rq *httpkit.Request, rpcID []byte) http.Header {
	h := rq.R.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h[httpkit.HeaderCorrelationID] = []string{rq.St.CorrelationID}
	delete(h, headerRPCID)                    // a client's own is not believed
	if s.opts.Tracer != nil && rpcID != nil { // only a tracer reads it
		h[headerRPCID] = []string{string(rpcID)}
	}
	return h
}

// headerRPCID is where serveMCP leaves a request's JSON-RPC id for the
// MCP handlers (see RPCInfo.RequestID); a client's own is dropped.
const headerRPCID = "Toolgen-Jsonrpc-Id"

// mcpInfo describes an MCP request for Options.Tracer.
func mcpInfo(method, name string, req sdk.Request) *runtime.RPCInfo {
	info := &runtime.RPCInfo{Protocol: runtime.SurfaceMCP, Method: method, Name: name, ProtocolVersion: protocolOf(req)}
	if ss, ok := req.GetSession().(*sdk.ServerSession); ok && ss != nil {
		info.SessionID = ss.ID()
	}
	if e := req.GetExtra(); e != nil {
		info.RequestID = e.Header.Get(headerRPCID)
	}
	if p := paramsOf(req); p != nil {
		info.TraceContext = traceMeta(p.GetMeta())
	}
	if info.TraceContext == nil {
		if e := req.GetExtra(); e != nil {
			info.TraceContext = httpkit.TraceHeaders(e.Header)
		}
	}
	return info
}

// paramsOf returns req's params, or nil when the request had none. For a
// request without params (absent or null) the SDK hands its handlers a
// typed nil pointer, through which the promoted GetMeta, or any field,
// would dereference nil: every read of a request's params goes through
// here.
func paramsOf(req sdk.Request) sdk.Params {
	p := req.GetParams()
	if p == nil {
		return nil
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return p
}

// rpcMessage is the envelope of one JSON-RPC message.
type rpcMessage struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// inspectRPC checks that body is a JSON-RPC message or batch, in words a
// client can act on: the SDK would answer some bad bodies in text/plain,
// with its parser's Go text.
func inspectRPC(body []byte) (rpcInfo, error) {
	var info rpcInfo
	parseError := func(msg string) error {
		return &httpkit.Error{Status: http.StatusBadRequest, Code: jsonrpc.CodeParseError, Msg: "Parse error: " + msg}
	}
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return info, parseError("the body is empty.")
	}
	if p := jsoncheck.Problem(b); p != "" {
		return info, parseError("the body is " + p + ".")
	}
	if info, ok := inspectPlain(b); ok {
		return info, nil
	}
	return inspectMessages(b)
}

// inspectPlain is inspectRPC for the body nearly every client sends: one
// message, its members written plainly (no escapes in keys, each once, in
// lower case), a "jsonrpc" of "2.0" and a method. It reads the members as
// they are written instead of decoding the body twice with reflection
// (about 4% of an MCP session call's CPU); ok is false for anything else,
// which inspectMessages reads in full. TestInspectPlain and
// FuzzInspectPlain hold the two to the same answers.
func inspectPlain(b []byte) (info rpcInfo, ok bool) {
	var jsonrpc, id, method, params, result, rpcErr []byte
	known := [...]struct {
		name string
		v    *[]byte
	}{{"jsonrpc", &jsonrpc}, {"id", &id}, {"method", &method}, {"params", &params}, {"result", &result}, {"error", &rpcErr}}
	ok = jsonscan.Members(b, func(k string, v []byte) bool {
		for _, f := range known {
			if strings.EqualFold(k, f.name) {
				return k == f.name && once(f.v, v)
			}
		}
		return true // a member the JSON-RPC message does not have
	})
	if !ok || string(jsonrpc) != `"2.0"` || !plainString(method) {
		return info, false
	}
	if len(id) > 0 && id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9') && string(id) != "null" {
		return info, false
	}
	if len(params) > 0 && params[0] != '{' && params[0] != '[' && string(params) != "null" {
		return info, false
	}
	if len(id) > 0 && string(id) != "null" {
		info.id = bytes.Clone(id)
	}
	name := method[1 : len(method)-1]
	info.newProtocol = string(method) == `"server/discover"`
	if len(params) == 0 || params[0] != '{' {
		if p := checkParams(name, params); p != "" {
			info.badParams, info.badID = p, info.id
		}
		return info, true
	}
	// One walk of the params' members finds _meta and checks each member
	// (checkParams' check of an object, member by member).
	sh := paramsShapes[string(name)]
	var meta []byte
	if !jsonscan.Members(params, func(k string, v []byte) bool {
		if info.badParams == "" {
			if p := sh.memberProblem(k, v); p != "" {
				info.badParams, info.badID = p, info.id
			}
		}
		if strings.EqualFold(k, "_meta") {
			return k == "_meta" && once(&meta, v)
		}
		return true
	}) {
		return info, false
	}
	if len(meta) == 0 || meta[0] != '{' {
		return info, len(meta) == 0 || string(meta) == "null"
	}
	var version []byte
	if !jsonscan.Members(meta, func(k string, v []byte) bool {
		return k != metaProtocolVersion || once(&version, v)
	}) {
		return info, false
	}
	switch {
	case len(version) == 0:
	case plainString(version):
		info.newProtocol = info.newProtocol || string(version[1:len(version)-1]) >= protocol20260728
	default:
		return info, false
	}
	return info, true
}

// plainString reports whether v is a JSON string without escapes.
func plainString(v []byte) bool {
	return len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v[1:len(v)-1], '\\') < 0 && bytes.IndexByte(v[1:len(v)-1], '"') < 0
}

// inspectMessages is inspectRPC's reading of a valid JSON body in full.
func inspectMessages(b []byte) (rpcInfo, error) {
	var info rpcInfo
	invalid := func(format string, args ...any) error {
		return &httpkit.Error{Status: http.StatusBadRequest, Code: jsonrpc.CodeInvalidRequest, Msg: "Invalid request: " + fmt.Sprintf(format, args...)}
	}
	var raws []json.RawMessage
	switch b[0] {
	case '{':
		raws = []json.RawMessage{b}
	case '[':
		if err := json.Unmarshal(b, &raws); err != nil || len(raws) == 0 {
			return info, invalid("a batch must be a non-empty array of messages.")
		}
	default:
		return info, invalid("the body must be a JSON-RPC message (an object) or a batch of them.")
	}
	for _, raw := range raws {
		var m rpcMessage
		// The body is valid JSON: what fails now is a member of the wrong
		// type. (A repeated name is the pipeline's to refuse, in a tool's
		// arguments, where it matters.)
		if err := json.Unmarshal(raw, &m); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				return info, invalid("%q must be %s.", te.Field, httpkit.JSONTypeName(te.Type))
			}
			return info, invalid("each message must be an object.")
		}
		if len(bytes.TrimSpace(raw)) == 0 || raw[0] != '{' {
			return info, invalid("each message must be an object.")
		}
		if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
			return info, invalid(`"jsonrpc" must be "2.0".`)
		}
		if id := bytes.TrimSpace(m.ID); len(id) > 0 && id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9') && string(id) != "null" {
			return info, invalid(`"id" must be a string or a number.`)
		}
		if m.Method == nil && m.Result == nil && m.Error == nil {
			return info, invalid(`a message needs a "method", a "result" or an "error".`)
		}
		if p := bytes.TrimSpace(m.Params); len(p) > 0 && p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return info, invalid(`"params" must be an object or an array.`)
		}
		if m.Method != nil && len(raws) == 1 && len(m.ID) > 0 && string(m.ID) != "null" {
			info.id = m.ID
		}
		if m.Method != nil {
			if p := checkParams([]byte(*m.Method), bytes.TrimSpace(m.Params)); p != "" && info.badParams == "" {
				info.badParams = p
				if len(m.ID) > 0 && string(m.ID) != "null" {
					info.badID = m.ID
				}
			}
			if *m.Method == "server/discover" {
				info.newProtocol = true
			}
			var p struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			}
			if len(m.Params) > 0 && m.Params[0] == '{' && json.Unmarshal(m.Params, &p) == nil {
				var v string
				if json.Unmarshal(p.Meta[metaProtocolVersion], &v) == nil && v >= protocol20260728 {
					info.newProtocol = true
				}
			}
		}
	}
	return info, nil
}

// rpcErrorWriter turns an error the SDK answers itself in text/plain (a
// transport error: an unknown session, a wrong Accept header) into a
// JSON-RPC error response with the same status, in words that name no Go
// type.
type rpcErrorWriter struct {
	http.ResponseWriter
	req    *http.Request // what the SDK was asked: its refusal is worded from it
	status int
	text   bool // capturing a text/plain error
}

func (w *rpcErrorWriter) WriteHeader(code int) {
	if w.status != 0 {
		return
	}
	w.status = code
	if code >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.text = true
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *rpcErrorWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.text {
		return len(b), nil // the SDK's words are not passed on: see sdkMessage
	}
	if rest, ok := bytes.CutPrefix(b, primeEventName); ok {
		// The go-sdk names the priming event that opens a resumable
		// stream "prime"; the spec's priming event is an event id with
		// empty data, of the default type, which is all a client (the
		// Python SDK among them) recognises as one. The SDK writes each
		// event in one Write, its name first.
		n, err := w.ResponseWriter.Write(rest)
		return n + len(primeEventName), err
	}
	return w.ResponseWriter.Write(b)
}

// primeEventName is the line the go-sdk's priming event starts with.
var primeEventName = []byte("event: prime\n")

func (w *rpcErrorWriter) Flush() {
	if w.text {
		return
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the captured error, if any.
func (w *rpcErrorWriter) finish() {
	if !w.text {
		return
	}
	w.Header().Del("Content-Type")
	writeRPCError(w.ResponseWriter, &httpkit.Error{Status: w.status, Msg: sdkMessage(w.status, w.req)})
}

// sdkMessage is what a client is told when the go-sdk refused r with
// status in text/plain: worded here from the request and the status, what
// the SDK checks, never from the SDK's own text, which may change with
// its version and is not the server's to pass on.
func sdkMessage(status int, r *http.Request) string {
	accepts := func(types ...string) bool {
		a := strings.Join(r.Header.Values("Accept"), ",")
		for _, t := range types {
			if !strings.Contains(a, t) && !strings.Contains(a, "*/*") {
				return false
			}
		}
		return true
	}
	switch status {
	case http.StatusNotFound:
		return "Session not found."
	case http.StatusMethodNotAllowed:
		return "Method not allowed: " + r.Method
	case http.StatusUnsupportedMediaType:
		return "Content-Type must be application/json."
	case http.StatusUnauthorized:
		return httpkit.MsgUnauthorized
	case http.StatusForbidden:
		return "Forbidden"
	case http.StatusBadRequest:
		switch {
		case r.Method == http.MethodPost && !accepts("application/json", "text/event-stream"):
			return "Accept must contain both application/json and text/event-stream."
		case r.Method == http.MethodGet && !accepts("text/event-stream"):
			return "Accept must contain text/event-stream."
		case (r.Method == http.MethodGet || r.Method == http.MethodDelete) && r.Header.Get("Mcp-Session-Id") == "":
			return "Bad request: " + r.Method + " requires an Mcp-Session-Id header."
		case r.Header.Get("Last-Event-ID") != "":
			return "Bad request: the stream cannot be resumed from that Last-Event-ID."
		case r.Header.Get("Mcp-Protocol-Version") != "":
			return "Bad request: unsupported or mismatched MCP-Protocol-Version " + strconv.Quote(httpkit.Truncate(r.Header.Get("Mcp-Protocol-Version"), 40)) + "."
		}
		return "Bad request."
	}
	if status >= 500 {
		return httpkit.MsgInternal
	}
	return "Bad request: " + strings.ToLower(http.StatusText(status)) + "."
}

// withTokenInfo hands the caller the serving path authenticated to the
// SDK, so that its session binding (RequestExtra.TokenInfo) and each
// request of a session know who calls without running the auth hook
// again: the hook runs once per HTTP request, on the serving path, and
// the request reaches h in the context it returned. The SDK's only setter
// of TokenInfo is its bearer-token middleware, so every request goes
// through it, with a verifier that reads the caller from the request's
// context rather than from the token. A request whose credentials are not
// one bearer token (an API key, a cookie) passes it on a copy that
// carries a placeholder token, and h gets the request's own headers back.
func (s *server) withTokenInfo(h http.Handler) http.Handler {
	if s.opts.AuthHook == nil {
		return h
	}
	opts := &auth.RequireBearerTokenOptions{AllowMissingExpiration: true}
	bearer := auth.RequireBearerToken(s.tokenInfo, opts)(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := strings.Fields(r.Header.Get("Authorization")); len(f) == 2 && strings.EqualFold(f[0], "bearer") {
			bearer.ServeHTTP(w, r) // the SDK's own reading of a bearer token
			return
		}
		own := r.Header
		r2 := new(http.Request)
		*r2 = *r
		r2.Header = own.Clone()
		r2.Header.Set("Authorization", "Bearer authenticated-by-toolgen")
		auth.RequireBearerToken(s.tokenInfo, opts)(http.HandlerFunc(func(w http.ResponseWriter, r3 *http.Request) {
			r3.Header = own
			h.ServeHTTP(w, r3)
		})).ServeHTTP(w, r2)
	})
}

// tokenContextKey is where a TokenInfo's Extra holds the context the auth
// hook returned, which the call runs in.
const tokenContextKey = "toolgen.context"

// tokenInfo is the SDK's token verifier: the caller the serving path
// authenticated, from the request's context (the auth hook's), whatever
// the token. UserID binds a session to the caller; Extra carries the
// hook's context for each request (requestContext). No Expiration: the
// hook checked it (with its leeway), and a static token has none.
func (s *server) tokenInfo(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
	return &auth.TokenInfo{UserID: s.owner(ctx), Extra: map[string]any{tokenContextKey: ctx}}, nil
}

// traceMeta is the W3C trace context in an MCP request's _meta, or nil.
func traceMeta(meta map[string]any) map[string]string {
	var m map[string]string
	for _, k := range httpkit.TraceKeys {
		if v, ok := meta[k].(string); ok && v != "" {
			if m == nil {
				m = make(map[string]string, len(httpkit.TraceKeys))
			}
			m[k] = v
		}
	}
	return m
}
