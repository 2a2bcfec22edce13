package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// The rest of revision 2026-07-28: what the fast path (mcpfast.go) does
// not take as it comes. serveRevision answers it natively too:
//
//   - the revision's refusals, in the order and the words of the go-sdk's
//     stateless handler: the media types, a batch, a notification, a
//     method it does not know (-32601, 404), the protocol version of the
//     header and of _meta, the Mcp-Method and Mcp-Name headers (-32020),
//     a _meta whose client capabilities or info do not decode (-32602), a
//     revision it does not serve, and the methods the revision removed
//     (ping, initialize, logging/setLevel, resources/subscribe and
//     unsubscribe: -32601);
//   - a request written unusually (escaped or repeated keys, members a
//     method does not have, an id of 1.0, any _meta): read as the SDK
//     reads it (keys as written, the last of a repeated one), written
//     again plainly, then served by the fast path.
//
// Malformed JSON and params of the wrong shape were refused before
// (inspectRPC, checkParams), in toolgen's words. What still reaches the
// SDK: a request with an Mcp-Session-Id sent to a server that keeps
// sessions. (An id the SDK would answer changed, a number with a fraction
// or past 2^53, inspectRPC refuses.) TestMCPNativeRevision counts that the
// rest does not.

// sdkNotifications are the notifications a client may send: the SDK takes
// them (202) and does nothing a stateless request would see.
var sdkNotifications = []string{"notifications/cancelled", "notifications/initialized", "notifications/roots/list_changed", "notifications/progress"}

// sdkMethods are the requests the go-sdk's server knows (the tasks
// extension's, which serveTaskMethod answers before it, are not among
// them).
var sdkMethods = []string{
	"completion/complete", "server/discover", "initialize", "ping", "prompts/list", "prompts/get",
	"tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read",
	"logging/setLevel", "resources/subscribe", "subscriptions/listen", "resources/unsubscribe",
}

// removedMethods are the requests the SDK knows and revision 2026-07-28
// has not.
var removedMethods = []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}

// serveRevision answers rq, a POST of revision 2026-07-28 that the fast
// path and the tasks' methods did not answer, and that no session serves;
// false leaves it to the SDK. inspectRPC has found its body valid JSON,
// and its params of the right shape.
func (s *server) serveRevision(rq *httpkit.Request, info *rpcInfo) bool {
	if s.fast.off {
		return false
	}
	h := rq.R.Header
	refuse := func(status int) bool {
		// What rpcErrorWriter makes of the SDK's refusal in text/plain.
		s.fast.answered.Add(1)
		writeRPCError(rq.W, sdkRefusal(status, rq.R, info))
		return true
	}
	if s.transportRefused(rq, info) {
		return true
	}
	body := bytes.TrimSpace(rq.Body)
	var msg struct {
		ID, Params json.RawMessage
	}
	envelope := exactMembers(body)
	msg.ID, msg.Params = envelope["id"], envelope["params"]
	var method string
	if json.Unmarshal(envelope["method"], &method) != nil {
		return false // a response: the SDK's
	}
	if len(msg.ID) == 0 || string(msg.ID) == "null" {
		return s.serveNotification(rq, method, msg.Params, refuse)
	}
	id, ok := plainIDOf(msg.ID)
	if !ok {
		return false // an id the SDK reads its own way
	}
	reply := func(status int, e *jsonrpc.Error) bool {
		// A refusal before any session: a bare JSON body.
		s.fast.answered.Add(1)
		writeRPC(rq.W, s.log, status, id, nil, e)
		return true
	}
	if slices.Contains(sdkNotifications, method) {
		return refuse(http.StatusBadRequest) // a notification with an id
	}
	if !slices.Contains(sdkMethods, method) {
		if h.Get("Mcp-Protocol-Version") < protocol20260728 {
			return refuse(http.StatusBadRequest) // as the SDK refuses it for an older revision's header
		}
		return reply(http.StatusNotFound, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("JSON RPC not handled: %q unsupported", method)})
	}
	// The params' members, read once for every check below: params are
	// an object or null (checkParams).
	members := exactMembers(msg.Params)
	var params struct {
		Meta sdk.Meta
	}
	_ = json.Unmarshal(members["_meta"], &params.Meta)
	metaVersion, _ := params.Meta[metaProtocolVersion].(string)
	header := h.Get("Mcp-Protocol-Version")
	if header < protocol20260728 && metaVersion == "" {
		return false // names no revision of ours (a bare server/discover): the SDK's
	}
	if e := versionProblem(header, metaVersion); e != nil {
		return reply(http.StatusBadRequest, e)
	}
	if metaVersion < protocol20260728 {
		return false // an older revision, named in both: the SDK answers it as one
	}
	if e := headerProblem(h, method, members); e != "" {
		return reply(http.StatusBadRequest, &jsonrpc.Error{Code: sdk.CodeHeaderMismatch, Message: e})
	}
	if e := s.paramHeadersProblem(rq, method, members); e != "" {
		// Checked with the headers above, before the _meta below, as
		// the SDK's transport checks them before its session does.
		return reply(http.StatusBadRequest, &jsonrpc.Error{Code: sdk.CodeHeaderMismatch, Message: e})
	}
	// The request's own refusals, answered as the SDK's session answers
	// them (fastReply).
	answer := func(e *jsonrpc.Error) bool {
		s.fast.answered.Add(1)
		s.fastReply(rq.W, nil, id, nil, e)
		return true
	}
	if _, present := params.Meta[metaClientInfo]; present {
		r := &sdk.ListToolsRequest{Params: &sdk.ListToolsParams{Meta: params.Meta}}
		if r.ClientInfo() == nil {
			return answer(&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid _meta field %q", metaClientInfo)})
		}
	}
	if r := (&sdk.ListToolsRequest{Params: &sdk.ListToolsParams{Meta: params.Meta}}); r.ClientCapabilities() == nil {
		return answer(&jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("missing or invalid _meta field %q", metaClientCapabilities)})
	}
	if !slices.Contains(sdk.SupportedProtocolVersions(), metaVersion) {
		data, _ := json.Marshal(sdk.UnsupportedProtocolVersionData{Supported: sdk.SupportedProtocolVersions(), Requested: metaVersion})
		return answer(&jsonrpc.Error{Code: sdk.CodeUnsupportedProtocolVersion, Message: "unsupported protocol version", Data: data})
	}
	if slices.Contains(removedMethods, method) || (method == "completion/complete" && s.opts.Complete == nil) {
		return answer(&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q", method)})
	}
	return s.servePlainly(rq, id, msg.ID, method, members, params.Meta)
}

// transportRefused answers, as the SDK's transport refuses it in
// text/plain (worded by sdkRefusal), a POST of the revision whose headers
// or body it does not take: a protocol version it has not, another media
// type, an Accept without JSON and an event stream, a Last-Event-ID, a
// batch. It reports whether it answered.
func (s *server) transportRefused(rq *httpkit.Request, info *rpcInfo) bool {
	h := rq.R.Header
	status := 0
	switch body := bytes.TrimSpace(rq.Body); {
	case !supportedVersion(h.Get("Mcp-Protocol-Version")):
		status = http.StatusBadRequest
	case !fastContentType(h.Get("Content-Type")):
		status = http.StatusUnsupportedMediaType
	case !fastAccepts(h.Values("Accept")) || len(h.Values("Last-Event-ID")) > 0:
		status = http.StatusBadRequest
	case len(body) == 0 || body[0] != '{':
		status = http.StatusBadRequest // a batch, which the revision has not
	default:
		return false
	}
	s.fast.answered.Add(1)
	writeRPCError(rq.W, sdkRefusal(status, rq.R, info))
	return true
}

// versionProblem is the SDK's refusal of a request whose
// Mcp-Protocol-Version header and _meta's protocol version (metaVersion)
// are not both there and the same; nil when they are.
func versionProblem(header, metaVersion string) *jsonrpc.Error {
	switch {
	case header == "":
		return &jsonrpc.Error{Code: sdk.CodeHeaderMismatch, Message: fmt.Sprintf("Mcp-Protocol-Version header is required for requests carrying %q", metaProtocolVersion)}
	case metaVersion == "":
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("missing or invalid _meta field %q", metaProtocolVersion)}
	case header != metaVersion:
		return &jsonrpc.Error{Code: sdk.CodeHeaderMismatch, Message: fmt.Sprintf("Mcp-Protocol-Version header %q does not match request %s %q", header, metaProtocolVersion, metaVersion)}
	}
	return nil
}

// exactMembers are the members of the JSON object b by their keys as
// written (unescaped; the last of a repeated one), nil for anything but an
// object. The go-sdk's decoding matches keys so, where encoding/json's
// into a struct would ignore their case.
func exactMembers(b []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// serveNotification answers a notification of the revision as the SDK's
// transport does: taken (202) once it passes the transport's checks (a
// notification it knows; the protocol version of header and _meta, when
// _meta names one; the Mcp-Method header), refused without an id
// otherwise (a notification has none).
func (s *server) serveNotification(rq *httpkit.Request, method string, params json.RawMessage, refuse func(int) bool) bool {
	if !slices.Contains(sdkNotifications, method) {
		return refuse(http.StatusBadRequest)
	}
	h := rq.R.Header
	header := h.Get("Mcp-Protocol-Version")
	members := exactMembers(params)
	var meta sdk.Meta
	_ = json.Unmarshal(members["_meta"], &meta)
	metaVersion, _ := meta[metaProtocolVersion].(string)
	problem := ""
	switch {
	case metaVersion != "" && header == "":
		problem = fmt.Sprintf("Mcp-Protocol-Version header is required for requests carrying %q", metaProtocolVersion)
	case metaVersion != "" && header != metaVersion:
		problem = fmt.Sprintf("Mcp-Protocol-Version header %q does not match request %s %q", header, metaProtocolVersion, metaVersion)
	case header >= protocol20260728:
		problem = headerProblem(h, method, members)
	}
	s.fast.answered.Add(1)
	if problem != "" {
		writeRPCNoID(rq.W, http.StatusBadRequest, &jsonrpc.Error{Code: sdk.CodeHeaderMismatch, Message: problem})
		return true
	}
	rq.W.WriteHeader(http.StatusAccepted) // taken, and nothing to do
	return true
}

// plainIDOf is a request's id written as the fast path reads it, as the
// SDK reads it: a string unescaped, a number as an integer (1.5 is 1).
func plainIDOf(raw json.RawMessage) ([]byte, bool) {
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		b, ok := unescapedJSON(s)
		return b, ok
	default:
		// The SDK's id is an integer; inspectRPC let through only a whole
		// number of at most 2^53 (exactID), which a float64 holds.
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || f != f || f >= 1<<63 || f < -(1<<63) {
			return nil, false
		}
		return strconv.AppendInt(nil, int64(f), 10), true
	}
}

// unescapedJSON is s as a JSON string without escapes; false when it needs
// one.
func unescapedJSON(s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return nil, false
		}
	}
	return []byte(`"` + s + `"`), true
}

// headerProblem is the go-sdk's refusal of a request whose Mcp-Method or
// Mcp-Name header does not agree with its body (validateMcpHeaders), ""
// when they agree. (Mcp-Param-* headers are the fast path's to check.)
func headerProblem(h http.Header, method string, p map[string]json.RawMessage) string {
	inHeader := h.Get("Mcp-Method")
	if inHeader == "" {
		return "missing required Mcp-Method header"
	}
	if inHeader != method {
		return fmt.Sprintf("header mismatch: Mcp-Method header value '%s' does not match body value '%s'", inHeader, method)
	}
	key := map[string]string{"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}[method]
	if key == "" {
		return ""
	}
	name := h.Get("Mcp-Name")
	if name == "" {
		return fmt.Sprintf("missing required Mcp-Name header for method %q", method)
	}
	// The SDK reads the name by decoding the whole params into its
	// type: a member that type cannot take fails the extraction, the
	// name's own or an answer in inputResponses of no kind it knows
	// (InputResponseMap's decoding, called here as the SDK calls it).
	var inBody string // "" when absent: the SDK's params type matches keys as written
	var answers sdk.InputResponseMap
	if v, ok := p[key]; ok && json.Unmarshal(v, &inBody) != nil {
		return fmt.Sprintf("failed to extract name from parameters for method %q", method)
	}
	if v, ok := p["inputResponses"]; ok && answers.UnmarshalJSON(v) != nil {
		return fmt.Sprintf("failed to extract name from parameters for method %q", method)
	}
	if name != inBody {
		return fmt.Sprintf("header mismatch: Mcp-Name header value '%s' does not match body value '%s'", name, inBody)
	}
	return ""
}

// paramHeadersProblem is the SDK's refusal of a tools/call whose
// Mcp-Param-* headers do not agree with its arguments, for the tools of
// its registry (a fixed list's), as the fast path checks them; "" when
// they agree.
func (s *server) paramHeadersProblem(rq *httpkit.Request, method string, p map[string]json.RawMessage) string {
	if method != "tools/call" || !s.fixed {
		return ""
	}
	var name string
	if json.Unmarshal(p["name"], &name) != nil || name == "" {
		return ""
	}
	t, _ := s.core.Lookup(rq.Ctx, name)
	if t == nil {
		return ""
	}
	return paramHeaderProblem(rq.R.Header, t, p["arguments"])
}

// plainMembers are the members of each method's params the fast path
// reads (besides _meta), as the SDK's params type names them.
var plainMembers = map[string][]string{
	"tools/call": {"name", "arguments", "inputResponses", "requestState"},
	"tools/list": {"cursor"},
}

// servePlainly serves a request of the revision that passed its checks
// but is written unusually: its params as encoding/json reads them into
// the SDK's types (the last of a repeated key, a member the type has not
// dropped), written again
// plainly, and served by the fast path. false: still not plain enough
// (a name that needs escapes), the SDK's.
func (s *server) servePlainly(rq *httpkit.Request, id, written []byte, method string, in map[string]json.RawMessage, meta sdk.Meta) bool {
	keys, ok := plainMembers[method]
	if !ok {
		keys, ok = nativeMethods[method]
	}
	if !ok {
		return false
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"method":"` + method + `","params":{"_meta":`)
	m, err := json.Marshal(meta)
	if err != nil {
		return false
	}
	b.Write(m)
	for _, k := range keys {
		v, found := in[k] // as written: the SDK's types match no other case
		if !found || string(v) == "null" {
			continue
		}
		if v[0] == '"' {
			var str string
			if json.Unmarshal(v, &str) != nil {
				return false
			}
			if v, ok = unescapedJSON(str); !ok {
				return false
			}
		}
		b.WriteString(`,"` + k + `":`)
		b.Write(v)
	}
	b.WriteString(`}}`)
	fr, ok := parseFast(b.Bytes())
	if !ok {
		return false
	}
	fr.written = written
	_, streams := meta["progressToken"]
	if _, ok := meta[metaLogLevel]; ok {
		streams = true
	}
	return s.serveFastRequest(rq, &fr, meta, streams)
}
