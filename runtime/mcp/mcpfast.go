package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
// It answers only what it is sure to answer exactly as the SDK would, as
// the request is written, and leaves the rest to serveRevision
// (revision.go), which words the revision's refusals as the SDK does and
// writes an unusual request again plainly for this path to serve:
//
//   - a request it could answer differently: a batch, an escaped key, a
//     repeated one, a member it does not know, an id the SDK would
//     rewrite (1.0, 1e2, an escaped string), a media type it would not
//     take;
//   - a request the revision refuses: a missing or mismatched
//     Mcp-Protocol-Version, Mcp-Method or Mcp-Name header, a _meta
//     without the protocol version or capabilities, or with ones that do
//     not decode.
//
// A session id sent to a server that keeps sessions goes to the SDK.
//
// A tools/call with a progress token or a log level is answered here too,
// its reports sent as events before the answer (stream.go); the prompts,
// resources and completion are answered by native.go.
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
	// metaLogLevel is the level from which a request's log messages are
	// sent (logging is deprecated at 2026-07-28, SEP-2577, but served).
	metaLogLevel = "io.modelcontextprotocol/logLevel"
)

// fastState is the fast path's part of mcpState.
type fastState struct {
	// off sends every request to the SDK: the differential tests compare
	// the two paths with it.
	off bool
	// answered counts the requests the fast path answered, for the
	// tests to know it did; sdkServed those of revision 2026-07-28 that
	// reached the SDK all the same, for the tests to know which.
	answered, sdkServed atomic.Int64
	metas               fastMetaCache
	infoOnce            sync.Once
	info                []byte // the server's identity's JSON, see serverInfoJSON
}

// fastRequest is what serveMCPFast reads of a request.
type fastRequest struct {
	id, method, params []byte // raw JSON
	// meta, name, args are raw JSON of params' members; name is the
	// tool's, unquoted (tools/call), or the cursor (tools/list).
	meta, name, args []byte
	// members are the other members of params, for the methods of
	// native.go.
	members []member
	// written is the id as the request wrote it, when servePlainly wrote
	// it again: what a tracer is told, as on the SDK's path.
	written []byte
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
	meta, streams, ok := fastMeta(fr.meta)
	if !ok {
		return false
	}
	return s.serveFastRequest(rq, &fr, meta, streams)
}

// serveFastRequest answers fr, a request of revision 2026-07-28 read from
// rq's body, with meta its _meta decoded and streams whether it asks for
// events; false leaves it, unanswered, to the SDK.
func (s *server) serveFastRequest(rq *httpkit.Request, fr *fastRequest, meta sdk.Meta, streams bool) (answered bool) {
	h := rq.R.Header
	defer func() {
		// A panic below (a tracer's, a provider's) is answered as an
		// internal error, as mcpMiddleware answers it on the SDK's path.
		if v := recover(); v != nil {
			s.logPanic("MCP request", v, "method", string(fr.method))
			s.fastReply(rq.W, nil, fr.id, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: httpkit.MsgInternal})
			answered = true
		}
	}()
	traceID := fr.id
	if fr.written != nil {
		traceID = fr.written
	}
	var extra *sdk.RequestExtra
	if string(fr.method) == "tools/call" || string(fr.method) == "subscriptions/listen" {
		// A call may become a task, which outlives the request, and a
		// listen lives long: each is given a copy of the headers.
		extra = &sdk.RequestExtra{Header: s.sdkHeader(rq, traceID)}
	} else {
		extra = &sdk.RequestExtra{Header: s.ownHeader(rq, traceID)}
	}
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
		if name == "" || h.Get("Mcp-Name") != name {
			return false
		}
		req := &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Meta: meta, Name: name, Arguments: bytes.Clone(fr.args)}, Extra: extra}
		if len(fr.members) > 0 && !fastInput(fr.params, req.Params) {
			return false
		}
		if !s.fastMetaDecodes(fr.meta, req) { // before it has a session to fall back on
			return false
		}
		if s.isMeta(name) {
			// Progressive discovery (toolsearch.go): search_tools is
			// answered here; call_tool becomes the call it names, which
			// goes on as a direct one (or, a call the SDK serves, goes
			// to the SDK as it came).
			if streams || len(fr.members) > 0 {
				return false
			}
			if name == SearchToolsName {
				s.fast.answered.Add(1)
				res, err := s.searchTools(rq.Ctx, req.Params.Arguments)
				if err == nil {
					res.Meta = s.fastServerInfo(res.Meta)
				}
				s.fastReply(rq.W, nil, fr.id, callResultJSON{res, "complete"}, err)
				return true
			}
			if res := s.unwrapCall(req); res != nil {
				s.fast.answered.Add(1)
				res.Meta = s.fastServerInfo(res.Meta)
				s.fastReply(rq.W, nil, fr.id, callResultJSON{res, "complete"}, nil)
				return true
			}
			name = req.Params.Name
		}
		if s.fixed && name == string(fr.name) {
			// The tool's Mcp-Param-* headers, checked as the SDK checks
			// them for the tools of its registry (not through call_tool,
			// whose own name the headers go with).
			if t, _ := s.core.Lookup(rq.Ctx, name); t != nil {
				if msg := paramHeaderProblem(h, t, req.Params.Arguments); msg != "" {
					// A bare JSON body, as the SDK refuses before it
					// serves anything (no Cache-Control).
					s.fast.answered.Add(1)
					writeRPC(rq.W, s.log, http.StatusBadRequest, fr.id, nil, &jsonrpc.Error{Code: sdk.CodeHeaderMismatch, Message: msg})
					return true
				}
			}
		}
		s.fast.answered.Add(1)
		if s.taskTool(rq.Ctx, name) {
			// A call that becomes a task sends no events (the tasks
			// extension has none for a task): its reports are dropped,
			// and the answer goes without a stream. One that does not
			// (the client did not declare the extension) is an
			// ordinary call, its events on the response.
			if res, handled, err := s.taskCall(rq.Ctx, req); handled {
				s.fastReply(rq.W, nil, fr.id, s.markTaskCall(res), err)
				return true
			}
		}
		var stream *eventStream
		if streams {
			level, _ := meta[metaLogLevel].(string)
			stream = &eventStream{w: rq.W, drop: s.mopts.JSONResponse, level: level}
		}
		res, err := s.callTool(rq.Ctx, req, stream)
		if err != nil {
			s.fastReply(rq.W, stream, fr.id, nil, err)
			return true
		}
		rt := "complete"
		if len(res.InputRequests) > 0 {
			rt = "input_required"
		} else if res.Content == nil {
			res.Content = []sdk.Content{} // as the SDK's callTool: never null
		}
		res.Meta = s.fastServerInfo(res.Meta)
		s.fastReply(rq.W, stream, fr.id, callResultJSON{res, rt}, nil)
	case "tools/list":
		req := &sdk.ListToolsRequest{Params: &sdk.ListToolsParams{Meta: meta, Cursor: string(fr.name)}, Extra: extra}
		if !s.fastMetaDecodes(fr.meta, req) {
			return false
		}
		s.fast.answered.Add(1)
		ctx, end := s.traceRequest(rq.Ctx, "tools/list", "", req)
		res, err := s.listMCPTools(ctx, req)
		end(err)
		if err != nil {
			s.fastReply(rq.W, nil, fr.id, nil, err)
			return true
		}
		list := res.(*mcpToolList)
		list.ResultType = "complete"
		list.Meta = s.fastServerInfo(list.Meta)
		s.fastReply(rq.W, nil, fr.id, list, nil)
	case "subscriptions/listen":
		return s.serveListen(rq, fr, meta, extra)
	default:
		return s.serveNative(rq, fr, meta, extra, streams)
	}
	return true
}

// taskTool reports whether a call of the tool name is or may become an
// MCP task (taskCall decides).
func (s *server) taskTool(ctx context.Context, name string) bool {
	if s.core.History() == nil {
		return false // taskCall makes no task without a history
	}
	t, err := s.core.Lookup(ctx, name)
	return err == nil && t != nil && t.Task != ""
}

// markTaskCall marks taskCall's answer for the revision, as the SDK marks a
// result: a task, an input-required round, or the call's own result.
func (s *server) markTaskCall(res sdk.Result) any {
	switch r := res.(type) {
	case *createTaskResult:
		r.Meta = s.fastServerInfo(r.Meta)
		return r
	case callResultJSON:
		r.Meta = s.fastServerInfo(r.Meta)
		return r
	case *sdk.CallToolResult:
		if r.Content == nil {
			r.Content = []sdk.Content{}
		}
		r.Meta = s.fastServerInfo(r.Meta)
		return callResultJSON{r, "complete"}
	}
	return res
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
	return withResultType(b, err, r.resultType)
}

// withResultType adds "resultType" to b, an object's compact JSON.
func withResultType(b []byte, err error, rt string) ([]byte, error) {
	if err != nil || len(b) < 2 || b[len(b)-1] != '}' {
		return b, err
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:len(b)-1]...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"resultType":"`...)
	out = append(out, rt...)
	return append(out, `"}`...), nil
}

// fastBuffers are the buffers responses are encoded in.
var fastBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// fastReply writes the JSON-RPC response to the request with that id: the
// result, or the error, as the SDK's stateless transport writes it. A
// protocol error the revision gives an HTTP status (extractErrorStatus) is
// a bare JSON body with that status; any other answer is one
// application/json body, or with Options.JSONResponse off one SSE
// event. After events on the call's stream (nil for none), it is the
// stream's last event, whatever it is.
func (s *server) fastReply(w http.ResponseWriter, stream *eventStream, id []byte, result any, err error) {
	buf := fastBuffers.Get().(*bytes.Buffer)
	defer fastBuffers.Put(buf)
	buf.Reset()
	status := encodeRPC(buf, id, result, err, s.log)
	if stream != nil && stream.finish(buf.Bytes()) {
		return
	}
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

// fastInput reads a retried round's answers and state (params'
// inputResponses and requestState) into p, as the SDK reads them: with
// the SDK's own decoding of its params type. False when they do not
// decode, for the SDK to refuse.
func fastInput(params []byte, p *sdk.CallToolParamsRaw) bool {
	var all sdk.CallToolParamsRaw
	if json.Unmarshal(params, &all) != nil {
		return false
	}
	p.InputResponses, p.RequestState = all.InputResponses, all.RequestState
	return true
}
