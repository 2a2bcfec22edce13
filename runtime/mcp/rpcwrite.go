package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// The JSON-RPC responses toolgen writes itself (encodeRPC is the one
// encoder), and the writer that turns the SDK's text/plain refusals
// into JSON-RPC errors.

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

// writeRPCNoID answers a notification with an error: a response without
// an id (a notification has none), as the SDK's transport writes one.
func writeRPCNoID(w http.ResponseWriter, status int, e *jsonrpc.Error) {
	b, _ := json.Marshal(struct { // a code and a message always encode
		JSONRPC string         `json:"jsonrpc"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", e})
	httpkit.SetHeaders(w.Header(), "Content-Type", "application/json", "X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b)
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

// rpcErrorWriter turns an error the SDK answers itself in text/plain (a
// transport error: an unknown session, a wrong Accept header) into a
// JSON-RPC error response with the same status, in words that name no Go
// type.
type rpcErrorWriter struct {
	http.ResponseWriter
	req    *http.Request // what the SDK was asked: its refusal is worded from it
	info   rpcInfo       // and what its body is (a POST's; zero for others)
	sse    bool          // the SDK's SSE handler, not Streamable HTTP's
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
	if w.sse {
		writeRPCError(w.ResponseWriter, &httpkit.Error{Status: w.status, Msg: sseMessage(w.status, w.req)})
		return
	}
	writeRPCError(w.ResponseWriter, sdkRefusal(w.status, w.req, &w.info))
}

// sseMessage is sdkMessage for the SDK's SSE handler, whose POSTs name
// their session in the query and need no Accept header.
func sseMessage(status int, r *http.Request) string {
	switch {
	case status == http.StatusBadRequest && r.Method == http.MethodPost && r.URL.Query().Get("sessionid") == "":
		return "Bad request: a POST names its session: ?sessionid=ID, from the endpoint event of the GET stream."
	case status == http.StatusBadRequest:
		return msgBadRequest
	}
	return sdkMessage(status, r)
}

// msgBadRequest is sdkMessage's word for a 400 the headers do not explain.
const msgBadRequest = "Bad request."

// supportedVersion reports whether the SDK takes v, an MCP-Protocol-Version
// header, as it checks it before anything else: none (the request may be
// an initialize), a version it speaks, or one of revision 2026-07-28 or
// later (whose requests it checks otherwise).
func supportedVersion(v string) bool {
	return v == "" || v >= protocol20260728 || slices.Contains(sdk.SupportedProtocolVersions(), v)
}

// sdkRefusal is sdkMessage's error, for a request the SDK refused with
// status 400 worded from what its body is: the SDK checks the
// MCP-Protocol-Version header, then that the body is not a batch (at
// 2025-06-18 and later), then that its message is one the server takes,
// with an id if and only if it is a request. A request with a method the
// server does not have is answered as JSON-RPC answers one, -32601 with
// its id, in a 200, as any other error of a session is answered.
func sdkRefusal(status int, r *http.Request, info *rpcInfo) *httpkit.Error {
	e := &httpkit.Error{Status: status, Msg: sdkMessage(status, r)}
	if e.Msg != msgBadRequest || r.Method != http.MethodPost || info == nil {
		return e // what the headers explain, or not a POST's body
	}
	method := string(info.method)
	quoted := strconv.Quote(httpkit.Truncate(method, 100))
	switch {
	case info.batch:
		e.Msg = "Bad request: JSON-RPC batches are not supported at MCP-Protocol-Version " + strconv.Quote(r.Header.Get("Mcp-Protocol-Version")) + "."
	case method == "":
		// a response, or no message the layer could read: as sdkMessage says
	case info.id != nil && slices.Contains(sdkNotifications, method):
		e.Code, e.ID = jsonrpc.CodeInvalidRequest, info.id
		e.Msg = "Invalid request: " + quoted + " is a notification: it takes no id."
	case info.id != nil && !slices.Contains(sdkMethods, method):
		e.Status, e.Code, e.ID = http.StatusOK, jsonrpc.CodeMethodNotFound, info.id
		e.Msg = "Method not found: " + quoted + "."
	case info.id != nil:
		// A request the server has, refused for what the headers or
		// its params say: as sdkMessage says, to its id.
		e.ID = info.id
	case slices.Contains(sdkMethods, method):
		e.Code = jsonrpc.CodeInvalidRequest
		e.Msg = "Invalid request: " + quoted + " is a request: it needs an id."
	default:
		e.Code = jsonrpc.CodeMethodNotFound
		e.Msg = "Method not found: " + quoted + " (a notification, not answered)."
	}
	return e
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
		case !supportedVersion(r.Header.Get("Mcp-Protocol-Version")):
			return "Bad request: unsupported or mismatched MCP-Protocol-Version " + strconv.Quote(httpkit.Truncate(r.Header.Get("Mcp-Protocol-Version"), 40)) + "."
		}
		return msgBadRequest
	}
	if status >= 500 {
		return httpkit.MsgInternal
	}
	return "Bad request: " + strings.ToLower(http.StatusText(status)) + "."
}

// encodeRPC writes into buf the JSON-RPC response to the request with id
// (null when nil): result, or err, which is a *jsonrpc.Error or becomes
// an internal error. It is the one encoder of every JSON-RPC response
// toolgen writes itself (fastReply, writeRPC). It returns the HTTP status
// revision 2026-07-28 gives the error (extractErrorStatus), 0 for a
// result or an error it gives none.
// compactResult is a result whose MarshalJSON writes compact JSON, which
// encodeRPC writes as it is.
type compactResult interface {
	json.Marshaler
	compact()
}

func (callResultJSON) compact() {}
func (typedResult) compact()    {}

func encodeRPC(buf *bytes.Buffer, id []byte, result any, err error, log *slog.Logger) (status int) {
	if len(id) == 0 {
		id = []byte("null")
	}
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(id)
	if err == nil {
		buf.WriteString(`,"result":`)
		var e error
		if r, ok := result.(compactResult); ok {
			// A tool's result, a prompt's, a resource's: its MarshalJSON
			// is the SDK's, whose output is compact JSON.
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
		case jsonrpc.CodeInvalidParams, sdk.CodeUnsupportedProtocolVersion, sdk.CodeMissingRequiredClientCapabilities, sdk.CodeHeaderMismatch:
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
