package mcp

import (
	"bytes"
	"encoding/json"
	"mime"
	"slices"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// The fast path's reading of a request (mcpfast.go): the body, its _meta
// and its headers, without reflection.

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
	ok := jsonscan.MemberBytes(body, func(k, v []byte) bool {
		switch string(k) {
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
		ok = jsonscan.MemberBytes(fr.params, func(k, v []byte) bool {
			switch string(k) {
			case "_meta":
				return once(&fr.meta, v)
			case "name":
				return once(&fr.name, v)
			case "arguments":
				return once(&fr.args, v)
			case "inputResponses", "requestState":
				// A retried input-required round: read with the SDK's
				// types (fastInput).
				for _, m := range fr.members {
					if m.key == string(k) {
						return false
					}
				}
				fr.members = append(fr.members, member{string(k), v})
				return true
			}
			return false
		})
		if !ok || len(fr.name) < 2 || fr.name[0] != '"' || bytes.IndexByte(fr.name, '\\') >= 0 {
			return fr, false
		}
		fr.name = fr.name[1 : len(fr.name)-1]
	case `"tools/list"`:
		fr.method = fr.method[1 : len(fr.method)-1]
		ok = jsonscan.MemberBytes(fr.params, func(k, v []byte) bool {
			switch string(k) {
			case "_meta":
				return once(&fr.meta, v)
			case "cursor": // a string as written, without escapes
				return len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0 && once(&fr.name, v[1:len(v)-1])
			}
			return false
		})
		if !ok {
			return fr, false
		}
	default:
		m := fr.method
		if len(m) < 2 || m[0] != '"' || bytes.IndexByte(m, '\\') >= 0 {
			return fr, false
		}
		keys, known := nativeMethods[string(m[1:len(m)-1])]
		if !known {
			return fr, false
		}
		fr.method = m[1 : len(m)-1]
		ok = jsonscan.MemberBytes(fr.params, func(k, v []byte) bool {
			if string(k) == "_meta" {
				return once(&fr.meta, v)
			}
			if !slices.Contains(keys, string(k)) {
				return false
			}
			for _, m := range fr.members {
				if m.key == string(k) {
					return false
				}
			}
			fr.members = append(fr.members, member{string(k), v})
			return true
		})
		if !ok {
			return fr, false
		}
	}
	return fr, len(fr.meta) > 0
}

// fastMeta checks a request's _meta: the revision, the client's
// capabilities (an object), its info (an object, if given), trace
// context (strings), a progress token and a log level; anything else (a
// key of another extension) is for the SDK. It returns the _meta decoded as
// the SDK decodes it (into a map[string]any), for the handlers: member by
// member, which spares decoding the common capabilities {} at all.
//
// A progress token and a log level, which only a tools/call may have on
// this path (they ask for events before its answer, stream.go), are
// reported by streams.
func fastMeta(raw []byte) (m sdk.Meta, streams, ok bool) {
	var version, caps bool
	m = make(sdk.Meta, 4)
	ok = jsonscan.MemberBytes(raw, func(k, v []byte) bool {
		switch string(k) {
		case "progressToken":
			streams = true
			return (v[0] == '"' || v[0] == '-' || v[0] >= '0' && v[0] <= '9') && decodeMember(m, "progressToken", v)
		case metaLogLevel:
			streams = true
			if len(v) < 2 || v[0] != '"' {
				return false
			}
			if _, known := logLevels[string(v[1:len(v)-1])]; !known {
				return false
			}
			return decodeMember(m, metaLogLevel, v)
		case metaProtocolVersion:
			version = string(v) == `"`+protocol20260728+`"`
			m[metaProtocolVersion] = protocol20260728
			return version
		case metaClientCapabilities:
			caps = v[0] == '{'
			return caps && decodeMember(m, metaClientCapabilities, v)
		case metaClientInfo:
			return v[0] == '{' && decodeMember(m, metaClientInfo, v)
		case "traceparent", "tracestate", "baggage":
			return v[0] == '"' && decodeMember(m, string(k), v)
		}
		return false
	})
	return m, streams, ok && version && caps
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
