package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// inspectRPC and its helpers: what the MCP adapters know of a JSON-RPC
// body before any SDK sees it (mcphttp.go, stdio.go).

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
	// method is the method of a body that is one message with one, as
	// written (the plain reading keeps the body's bytes: no string is
	// made for it on a call's path); batch says the body is an array of
	// messages. What the SDK refuses in text/plain is worded from them
	// (sdkRefusal).
	method []byte
	batch  bool
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
	if len(id) > 0 && id[0] != '"' && string(id) != "null" && !exactID(id) {
		return info, false // not a number the answer carries back as it is
	}
	if len(params) > 0 && params[0] != '{' && params[0] != '[' && string(params) != "null" {
		return info, false
	}
	if len(id) > 0 && string(id) != "null" {
		info.id = bytes.Clone(id)
	}
	name := method[1 : len(method)-1]
	info.method = name
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

// exactID reports whether id, a JSON number, is one the SDK answers with
// the same number: it decodes an id as a float64 and writes back an
// int64, so that 1.5 would be answered as 1, and 2^63 as -2^63.
func exactID(id []byte) bool {
	if d := bytes.TrimPrefix(id, []byte("-")); len(d) > 0 && len(d) <= 15 && bytes.IndexFunc(d, func(c rune) bool { return c < '0' || c > '9' }) < 0 {
		return true // the usual id, under 10^15 < 2^53
	}
	// Read from its digits, not as a float64, which would round 2^53+1
	// and 1.0000000000000001 onto a whole number the SDK then answers.
	mant, exp, _ := strings.Cut(strings.ToLower(strings.TrimPrefix(string(id), "-")), "e")
	e := 0
	if exp != "" {
		n, err := strconv.Atoi(exp)
		if err != nil {
			return false
		}
		e = n
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	point := len(intPart) + e // the digits before it are the whole part
	for i := max(point, 0); i < len(digits); i++ {
		if digits[i] != '0' {
			return false // a fraction
		}
	}
	whole := strings.TrimLeft(digits[:min(max(point, 0), len(digits))], "0")
	if whole == "" {
		return true // zero
	}
	if zeros := point - len(digits); zeros > 0 {
		if len(whole)+zeros > 16 {
			return false
		}
		whole += strings.Repeat("0", zeros)
	}
	v, err := strconv.ParseUint(whole, 10, 64)
	return err == nil && v <= 1<<53
}

// plainString reports whether v is a JSON string without escapes.
func plainString(v []byte) bool {
	return len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v[1:len(v)-1], '\\') < 0 && bytes.IndexByte(v[1:len(v)-1], '"') < 0
}

// inspectMessages is inspectRPC's reading of a valid JSON body in full.
func inspectMessages(b []byte) (rpcInfo, error) {
	var info rpcInfo
	var errID json.RawMessage // the id of the one message, once it is known to be one
	invalid := func(format string, args ...any) error {
		return &httpkit.Error{Status: http.StatusBadRequest, Code: jsonrpc.CodeInvalidRequest, Msg: "Invalid request: " + fmt.Sprintf(format, args...), ID: errID}
	}
	var raws []json.RawMessage
	switch b[0] {
	case '{':
		raws = []json.RawMessage{b}
	case '[':
		if err := json.Unmarshal(b, &raws); err != nil || len(raws) == 0 {
			return info, invalid("a batch must be a non-empty array of messages.")
		}
		info.batch = true
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
		// What the SDK reads is each member by its key as written (the
		// decoding above matches keys whatever their case): "ID" is not
		// the id.
		ex := exactMembers(raw)
		m = rpcMessage{ID: ex["id"], Params: ex["params"], Result: ex["result"], Error: ex["error"]}
		for key, dst := range map[string]**string{"jsonrpc": &m.JSONRPC, "method": &m.Method} {
			if v, ok := ex[key]; ok && json.Unmarshal(v, dst) != nil {
				return info, invalid("%q must be a string.", key)
			}
		}
		if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
			return info, invalid(`"jsonrpc" must be "2.0".`)
		}
		if id := bytes.TrimSpace(m.ID); len(id) > 0 && id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9') && string(id) != "null" {
			return info, invalid(`"id" must be a string or a number.`)
		}
		if id := bytes.TrimSpace(m.ID); len(id) > 0 && id[0] != '"' && string(id) != "null" && !exactID(id) {
			return info, invalid(`"id" must be a string or a whole number of at most 2^53 in size: the SDK would answer %s with another id.`, httpkit.Truncate(string(id), 40))
		}
		if id := bytes.TrimSpace(m.ID); len(raws) == 1 && b[0] == '{' && len(id) > 0 && string(id) != "null" {
			errID = id // what is wrong from here on is answered to it
		}
		if m.Method == nil && m.Result == nil && m.Error == nil {
			return info, invalid(`a message needs a "method", a "result" or an "error".`)
		}
		if p := bytes.TrimSpace(m.Params); len(p) > 0 && p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return info, invalid(`"params" must be an object or an array.`)
		}
		if m.Method != nil && len(raws) == 1 {
			if !info.batch {
				info.method = []byte(*m.Method)
			}
			if len(m.ID) > 0 && string(m.ID) != "null" {
				info.id = m.ID
			}
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
