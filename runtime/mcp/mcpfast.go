package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// The fast path of MCP 2026-07-28. A request of that revision stands
// alone: no session, no initialize, and when it needs no stream (nothing
// to send before the answer) it is one JSON-RPC request in, one response
// out. The SDK serves it by making a session for the one request, a
// transport, a stream, and goroutines to pass the message through them;
// for tools/call and tools/list that is most of the time the request
// takes. serveMCPFast answers those requests itself, straight from the
// pipeline: the same handlers (serveToolCall, listMCPTools), the same
// results, marked for the revision as the SDK marks them.
//
// It answers only what it is sure to answer exactly as the SDK would, and
// hands everything else to the SDK untouched:
//
//   - a request it could answer differently: a batch, an escaped key, a
//     repeated one, a member it does not know, an id the SDK would
//     rewrite (1.0, 1e2, an escaped string), a media type it would not
//     take;
//   - a request the revision refuses: a missing or mismatched
//     Mcp-Protocol-Version, Mcp-Method or Mcp-Name header, a _meta
//     without the protocol version or capabilities, or with ones that do
//     not decode. The SDK words those refusals; nothing is gained by
//     answering them fast;
//   - a request that may need a stream or the SDK's machinery: a progress
//     token or a log level (notifications before the answer), a task, a
//     retried input-required round (inputResponses, requestState), a tool
//     that is or may become a task, a tool with x-mcp-header parameters
//     (the SDK checks their Mcp-Param-* headers), a session id sent to a
//     server that keeps sessions.
//
// What the pipeline sees is the same on both paths: the request handed to
// serveToolCall is the SDK's own type, built from the same bytes, with
// the same headers and the same token info, so history records,
// scopes, rate limits, approval, tracing and metrics cannot tell them
// apart. FuzzMCPFastPath and TestMCPFastPathSameAnswers hold the two paths
// to the same answers.

// Keys of a 2026-07-28 request's _meta (SEP-2575).
const (
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
)

// fastState is the fast path's part of mcpState.
type fastState struct {
	// off sends every request to the SDK: the differential tests compare
	// the two paths with it.
	off bool
	// answered counts the requests the fast path answered, for the
	// tests to know it did.
	answered atomic.Int64
	sessOnce sync.Once
	session  *sdk.ServerSession // see fastSession
	metas    fastMetaCache
}

// fastRequest is what serveMCPFast reads of a request.
type fastRequest struct {
	id, method, params []byte // raw JSON
	meta, name, args   []byte // raw JSON of params' members
}

// serveMCPFast answers rq, a POST, if it is a tools/call or tools/list of
// revision 2026-07-28 it can answer on its own, and reports whether it
// did. It runs before inspectRPC, whose decoding of the body would cost a
// fast call more than a tenth of its time: a body it answers is valid
// JSON, not nested too deep, and passes every check of inspectRPC (one
// object, "jsonrpc" "2.0", a string or integer id, a method, params an
// object), so inspectRPC would have let it through.
func (s *server) serveMCPFast(rq *httpkit.Request) (answered bool) {
	if s.fast.off {
		return false
	}
	h := rq.R.Header
	if h.Get("Mcp-Protocol-Version") != protocol20260728 ||
		(s.stateful != nil && h.Get("Mcp-Session-Id") != "") ||
		len(h.Values("Last-Event-ID")) > 0 ||
		!fastContentType(h.Get("Content-Type")) || !fastAccepts(h.Values("Accept")) {
		return false
	}
	if jsoncheck.Problem(rq.Body) != "" {
		return false // inspectRPC words the refusal
	}
	fr, ok := parseFast(rq.Body)
	if !ok || h.Get("Mcp-Method") != string(fr.method) {
		return false
	}
	meta, ok := fastMeta(fr.meta)
	if !ok {
		return false
	}
	defer func() {
		// A panic below (a tracer's, a provider's) is answered as an
		// internal error, as mcpMiddleware answers it on the SDK's path.
		if v := recover(); v != nil {
			s.logPanic("MCP request", v, "method", string(fr.method))
			s.fastReply(rq.W, fr.id, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgInternal})
			answered = true
		}
	}()
	extra := &sdk.RequestExtra{Header: s.sdkHeader(rq, fr.id)}
	if s.opts.AuthHook != nil {
		if _, ok := httpkit.BearerToken(rq.R); ok {
			// What withTokenInfo gives the SDK path: the caller, and
			// the context the auth hook returned.
			extra.TokenInfo = &auth.TokenInfo{UserID: s.owner(rq.Ctx), Extra: map[string]any{tokenContextKey: rq.Ctx}}
		}
	}
	switch string(fr.method) {
	case "tools/call":
		name := string(fr.name)
		if name == "" || h.Get("Mcp-Name") != name || !s.fastTool(rq.Ctx, name) {
			return false
		}
		ss := s.fastSession()
		if ss == nil {
			return false
		}
		req := &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Meta: meta, Name: name, Arguments: bytes.Clone(fr.args)}, Extra: extra}
		if !s.fastMetaDecodes(fr.meta, req) { // before it has a session to fall back on
			return false
		}
		req.Session = ss
		s.fast.answered.Add(1)
		res, err := s.serveToolCall(rq.Ctx, req)
		if err != nil {
			s.fastReply(rq.W, fr.id, nil, err)
			return true
		}
		rt := "complete"
		if len(res.InputRequests) > 0 {
			rt = "input_required"
		} else if res.Content == nil {
			res.Content = []sdk.Content{} // as the SDK's callTool: never null
		}
		res.Meta = s.fastServerInfo(res.Meta)
		s.fastReply(rq.W, fr.id, callResultJSON{res, rt}, nil)
	case "tools/list":
		req := &sdk.ListToolsRequest{Params: &sdk.ListToolsParams{Meta: meta}, Extra: extra}
		if !s.fastMetaDecodes(fr.meta, req) {
			return false
		}
		s.fast.answered.Add(1)
		ctx := rq.Ctx
		end := func(error) {}
		if s.opts.Tracer != nil {
			// As mcpMiddleware traces every request but tools/call.
			ctx, end = s.opts.Tracer.StartRequest(ctx, mcpInfo("tools/list", "", req))
		}
		res, err := s.listMCPTools(ctx, req)
		end(err)
		if err != nil {
			s.fastReply(rq.W, fr.id, nil, err)
			return true
		}
		list := res.(*mcpToolList)
		list.ResultType = "complete"
		list.Meta = s.fastServerInfo(list.Meta)
		s.fastReply(rq.W, fr.id, list, nil)
	default:
		return false
	}
	return true
}

// fastSession is the session the fast path's tool calls run in: the ctx
// helpers (Ask, Log, Progress, SessionFromContext) need one, as they have
// the SDK's per-request session on the SDK's path. It is one session for
// all of them, of revision 2026-07-28 like that one: it sends no log
// messages (no request sets a level), asks the client nothing (a
// 2026-07-28 call asks with input-required results), and what it might
// send goes nowhere. It is left out of the tool-list change detection
// (noticeToolChanges), which never fires for a per-request session. Nil
// if it could not be made: the fast path is then off.
func (s *server) fastSession() *sdk.ServerSession {
	f := &s.fast
	f.sessOnce.Do(func() {
		ctx := context.Background()
		st, ct := sdk.NewInMemoryTransports()
		conn, err := ct.Connect(ctx)
		if err != nil {
			return
		}
		go func() { // drain: nothing reads what the session sends
			for {
				if _, err := conn.Read(ctx); err != nil {
					return
				}
			}
		}()
		ss, err := s.sdkSrv.Connect(ctx, st, &sdk.ServerSessionOptions{State: &sdk.ServerSessionState{
			InitializeParams:  &sdk.InitializeParams{ProtocolVersion: protocol20260728, Capabilities: &sdk.ClientCapabilities{}},
			InitializedParams: &sdk.InitializedParams{},
		}})
		if err != nil {
			s.log.Warn("MCP fast path off: no session for it", "err", err)
			_ = conn.Close()
			return
		}
		f.session = ss
	})
	return f.session
}

// fastTool reports whether a call of the tool name may take the fast
// path: not one whose x-mcp-header parameters the SDK checks (the SDK's
// registry holds the fixed list's tools; x-mcp-header is only read in
// their input schemas), nor one that is or may become an MCP task (see
// taskCall). An unknown tool takes it: the answer is the pipeline's.
func (s *server) fastTool(ctx context.Context, name string) bool {
	if s.fixed {
		if t, _ := s.core.Lookup(ctx, name); t != nil && bytes.Contains(t.InputSchema, []byte("x-mcp-header")) {
			return false
		}
	}
	if s.core.History() == nil {
		return true // taskCall makes no task without a history
	}
	t, err := s.core.Lookup(ctx, name)
	return err != nil || t == nil || t.Task == ""
}

// fastMetaDecodes reports whether the SDK decodes the request's client
// capabilities, and its client info when it has one, as it must for the
// request to be served (validateRequestMeta): the SDK's own accessors
// decode them, so the two paths agree on what decodes.
//
// The SDK's decoding costs more than the rest of a fast call (it makes a
// decoder with a buffer of its own each time), and a client sends the
// same _meta with every request: what it found of a _meta is kept, by
// the _meta's bytes, for the next request (see fastMetaCache).
func (s *server) fastMetaDecodes(raw []byte, req interface {
	ClientCapabilities() *sdk.ClientCapabilities
	ClientInfo() *sdk.Implementation
	GetParams() sdk.Params
}) bool {
	c := &s.fast.metas
	if ok, known := c.get(raw); known {
		return ok
	}
	ok := req.ClientCapabilities() != nil
	if ok {
		var m map[string]any
		if p := req.GetParams(); p != nil {
			m = p.GetMeta() // the fast path made the params: never a nil pointer
		}
		_, hasInfo := m[metaClientInfo]
		ok = !hasInfo || req.ClientInfo() != nil
	}
	c.put(raw, ok)
	return ok
}

// fastMetaCache remembers whether the SDK decodes a _meta, by its bytes
// (which decide it). It holds at most fastMetaMax of them: past that, new
// ones are decoded each time, and a client that sends a new _meta with
// every request costs what it would on the SDK's path.
type fastMetaCache struct {
	mu sync.RWMutex
	m  map[string]bool
}

const fastMetaMax = 1024

func (c *fastMetaCache) get(raw []byte) (ok, known bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	ok, known = c.m[string(raw)]
	return ok, known
}

func (c *fastMetaCache) put(raw []byte, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]bool)
	}
	if len(c.m) < fastMetaMax {
		c.m[string(raw)] = ok
	}
}

// parseFast reads a body that is one tools/call or tools/list request,
// written plainly: false for anything else.
func parseFast(body []byte) (fastRequest, bool) {
	var fr fastRequest
	var jsonrpc []byte
	ok := jsonscan.Members(body, func(k string, v []byte) bool {
		switch k {
		case "jsonrpc":
			return once(&jsonrpc, v)
		case "id":
			return once(&fr.id, v)
		case "method":
			return once(&fr.method, v)
		case "params":
			return once(&fr.params, v)
		}
		return false
	})
	if !ok || string(jsonrpc) != `"2.0"` || !plainID(fr.id) || len(fr.params) == 0 {
		return fr, false
	}
	switch string(fr.method) {
	case `"tools/call"`:
		fr.method = fr.method[1 : len(fr.method)-1]
		ok = jsonscan.Members(fr.params, func(k string, v []byte) bool {
			switch k {
			case "_meta":
				return once(&fr.meta, v)
			case "name":
				return once(&fr.name, v)
			case "arguments":
				return once(&fr.args, v)
			}
			return false
		})
		if !ok || len(fr.name) < 2 || fr.name[0] != '"' || bytes.IndexByte(fr.name, '\\') >= 0 {
			return fr, false
		}
		fr.name = fr.name[1 : len(fr.name)-1]
	case `"tools/list"`:
		fr.method = fr.method[1 : len(fr.method)-1]
		ok = jsonscan.Members(fr.params, func(k string, v []byte) bool {
			return k == "_meta" && once(&fr.meta, v)
		})
		if !ok {
			return fr, false
		}
	default:
		return fr, false
	}
	return fr, len(fr.meta) > 0
}

// fastMeta checks a request's _meta: the revision, the client's
// capabilities (an object), its info (an object, if given) and trace
// context (strings); anything else (a progress token, a log level, a key
// of another extension) is for the SDK. It returns the _meta decoded as
// the SDK decodes it (into a map[string]any), for the handlers: member by
// member, which spares decoding the common capabilities {} at all.
func fastMeta(raw []byte) (sdk.Meta, bool) {
	var version, caps bool
	m := make(sdk.Meta, 4)
	ok := jsonscan.Members(raw, func(k string, v []byte) bool {
		switch k {
		case metaProtocolVersion:
			version = string(v) == `"`+protocol20260728+`"`
			m[k] = protocol20260728
			return version
		case metaClientCapabilities:
			caps = v[0] == '{'
			return caps && decodeMember(m, k, v)
		case metaClientInfo:
			return v[0] == '{' && decodeMember(m, k, v)
		case "traceparent", "tracestate", "baggage":
			return v[0] == '"' && decodeMember(m, k, v)
		}
		return false
	})
	return m, ok && version && caps
}

// decodeMember decodes v, a member of _meta, into m[k] as json.Unmarshal
// into a map[string]any would.
func decodeMember(m sdk.Meta, k string, v []byte) bool {
	switch {
	case len(v) == 2 && v[0] == '{':
		m[k] = map[string]any{}
		return true
	case v[0] == '"' && bytes.IndexByte(v, '\\') < 0:
		m[k] = string(v[1 : len(v)-1])
		return true
	}
	var x any
	if json.Unmarshal(v, &x) != nil {
		return false
	}
	m[k] = x
	return true
}

// once keeps v in *dst, unless a value is there already: a repeated key
// is for the SDK, whose decoder may settle it otherwise.
func once(dst *[]byte, v []byte) bool {
	if *dst != nil {
		return false
	}
	*dst = v
	return true
}

// plainID reports whether id is a JSON-RPC id the SDK sends back exactly
// as written: a string of printable ASCII without escapes, or an integer
// of at most 15 digits (the SDK decodes numbers as float64 and sends back
// an int64).
func plainID(id []byte) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		for _, c := range id[1 : len(id)-1] {
			if c < 0x20 || c > 0x7e || c == '\\' {
				return false
			}
		}
		return true
	}
	d := id
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 || (d[0] == '0' && len(id) > 1) {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// fastContentType reports whether the SDK takes a body of that media type.
func fastContentType(v string) bool {
	if v == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(v)
	return err == nil && mt == "application/json"
}

// fastAccepts reports whether the client accepts both a JSON answer and
// an event stream, as the SDK requires of every POST (streamableAccepts).
func fastAccepts(values []string) bool {
	var jsonOK, streamOK bool
	for _, value := range values {
		for raw := range strings.SplitSeq(value, ",") {
			base, _, _ := strings.Cut(raw, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// fastServerInfo adds the server's identity to a result's _meta, as the
// SDK does to every result of the revision (annotateServerInfo).
func (s *server) fastServerInfo(m sdk.Meta) sdk.Meta {
	if _, ok := m[sdk.MetaKeyServerInfo]; ok {
		return m
	}
	if m == nil {
		m = make(sdk.Meta, 1)
	}
	m[sdk.MetaKeyServerInfo] = s.impl
	return m
}

// callResultJSON is a CallToolResult with the resultType the SDK gives it
// (a field of the SDK's it keeps unexported).
type callResultJSON struct {
	*sdk.CallToolResult
	resultType string
}

func (r callResultJSON) MarshalJSON() ([]byte, error) {
	// The SDK's own encoding, called directly: through json.Marshal its
	// output would be scanned and copied once more.
	b, err := r.CallToolResult.MarshalJSON()
	if err != nil || len(b) < 2 || b[len(b)-1] != '}' {
		return b, err
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:len(b)-1]...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"resultType":"`...)
	out = append(out, r.resultType...)
	return append(out, `"}`...), nil
}

// fastBuffers are the buffers responses are encoded in.
var fastBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// fastReply writes the JSON-RPC response to the request with that id: the
// result, or the error, as the SDK's stateless transport writes it. A
// protocol error the revision gives an HTTP status (extractErrorStatus) is
// a bare JSON body with that status; any other answer is one
// application/json body, or with Options.JSONResponse off one SSE
// event.
func (s *server) fastReply(w http.ResponseWriter, id []byte, result any, err error) {
	buf := fastBuffers.Get().(*bytes.Buffer)
	defer fastBuffers.Put(buf)
	buf.Reset()
	status := encodeRPC(buf, id, result, err, s.log)
	hd := w.Header()
	hd.Set("Cache-Control", "no-cache, no-transform")
	if status != 0 || s.mopts.JSONResponse {
		hd.Set("Content-Type", "application/json")
		if status == 0 {
			status = http.StatusOK
		} else if !s.mopts.JSONResponse {
			hd.Set("Connection", "keep-alive") // set before the SDK knew it was an error
		}
		w.WriteHeader(status)
		_, _ = w.Write(buf.Bytes())
		return
	}
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("event: message\ndata: "))
	_, _ = w.Write(buf.Bytes())
	_, _ = w.Write([]byte("\n\n"))
	_ = http.NewResponseController(w).Flush()
}

// encodeRPC writes into buf the JSON-RPC response to the request with id
// (null when nil): result, or err, which is a *jsonrpc.Error or becomes
// an internal error. It is the one encoder of every JSON-RPC response
// toolgen writes itself (fastReply, writeRPC). It returns the HTTP status
// revision 2026-07-28 gives the error (extractErrorStatus), 0 for a
// result or an error it gives none.
func encodeRPC(buf *bytes.Buffer, id []byte, result any, err error, log *slog.Logger) (status int) {
	if len(id) == 0 {
		id = []byte("null")
	}
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(id)
	if err == nil {
		buf.WriteString(`,"result":`)
		var e error
		if r, ok := result.(callResultJSON); ok {
			// A tool's result: its MarshalJSON is the SDK's, whose
			// output is compact JSON.
			var b []byte
			if b, e = r.MarshalJSON(); e == nil {
				buf.Write(b)
			}
		} else {
			enc := json.NewEncoder(buf)
			enc.SetEscapeHTML(false) // as the SDK encodes
			if e = enc.Encode(result); e == nil {
				buf.Truncate(buf.Len() - 1) // Encode's newline
			}
		}
		if e != nil {
			log.Error("MCP result does not encode", "err", e)
			buf.Truncate(len(`{"jsonrpc":"2.0","id":`) + len(id))
			err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgInternal}
		} else {
			buf.WriteByte('}')
		}
	}
	if err != nil {
		we := &jsonrpc.Error{Message: err.Error()}
		if !errors.As(err, &we) {
			we = &jsonrpc.Error{Message: httpkit.MsgInternal, Code: jsonrpc.CodeInternalError}
		}
		switch we.Code {
		case jsonrpc.CodeMethodNotFound:
			status = http.StatusNotFound
		case jsonrpc.CodeInvalidParams, sdk.CodeUnsupportedProtocolVersion, sdk.CodeMissingRequiredClientCapabilities:
			status = http.StatusBadRequest
		}
		data := we.Data
		if len(data) > 0 && !json.Valid(data) {
			data = nil // as mcpServe drops it
		}
		buf.WriteString(`,"error":`)
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(struct { // a string and valid JSON always encode
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		}{we.Code, we.Message, data})
		buf.Truncate(buf.Len() - 1)
		buf.WriteByte('}')
	}
	return status
}
