package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
)

// MCP params checked before the go-sdk decodes them. The SDK decodes a
// request's params into its Go types and answers a member of the wrong
// type with its decoder's text ("json: cannot unmarshal ... into Go struct
// field sdk.ListToolsParams.cursor of type string"), and some refusals
// with code 0. checkParams refuses those requests first, in toolgen's
// words, as invalid params (-32602). It is exactly as lenient as the
// SDK's types: a member may be null or absent, and members it does not
// know pass; a method's params themselves are required where marked.

// kind is the JSON kind a member must have.
type kind uint8

const (
	kAny kind = iota
	kString
	kNumber
	kBool
	kObject
	kArray
	kStringOrNumber // a JSON-RPC id, a progress token
)

var kindNames = [...]string{kAny: "any value", kString: "a string", kNumber: "a number", kBool: "true or false",
	kObject: "an object", kArray: "an array", kStringOrNumber: "a string or a number"}

// pshape is what the SDK's type for a value accepts.
type pshape struct {
	kind     kind
	required bool               // params themselves: present and not null
	members  map[string]*pshape // an object's known members
	values   *pshape            // an object's every member (a map), or an array's elements
	// also is what the SDK's type checks beyond the shape, in toolgen's
	// words ("" for nothing wrong), given the value at path.
	also func(path string, v []byte) string
}

func str() *pshape                           { return &pshape{kind: kString} }
func num() *pshape                           { return &pshape{kind: kNumber} }
func boolean() *pshape                       { return &pshape{kind: kBool} }
func obj(members map[string]*pshape) *pshape { return &pshape{kind: kObject, members: members} }
func mapOf(v *pshape) *pshape                { return &pshape{kind: kObject, values: v} }
func arrayOf(v *pshape) *pshape              { return &pshape{kind: kArray, values: v} }
func (s *pshape) req() *pshape               { c := *s; c.required = true; return &c }

// withMeta is a params object: its members and _meta (sdk.Meta, a map).
func withMeta(members map[string]*pshape) *pshape {
	m := map[string]*pshape{"_meta": obj(nil)}
	maps.Copy(m, members)
	return obj(m)
}

var (
	implementationShape = obj(map[string]*pshape{
		"name": str(), "title": str(), "description": str(), "version": str(), "websiteUrl": str(),
		"icons": arrayOf(obj(map[string]*pshape{"src": str(), "mimeType": str(), "sizes": arrayOf(str()), "theme": str()})),
	})
	capabilitiesShape = obj(map[string]*pshape{
		"experimental": obj(nil), "extensions": obj(nil),
		"roots":       obj(map[string]*pshape{"listChanged": boolean()}),
		"sampling":    obj(map[string]*pshape{"context": obj(nil), "tools": obj(nil)}),
		"elicitation": obj(map[string]*pshape{"form": obj(nil), "url": obj(nil)}),
	})
	cursorParams = withMeta(map[string]*pshape{"cursor": str()})
	roundParams  = map[string]*pshape{"inputResponses": mapOf(obj(nil)), "requestState": str()}
	taskParams   = withMeta(map[string]*pshape{"taskId": str()})
	// completionRef is a completion's reference, which the SDK's type
	// (CompleteReference) reads only as a prompt's with a name or a
	// resource template's with a uri: anything else it refused with its
	// decoder's text, naming its Go types.
	completionRef = &pshape{kind: kObject, members: map[string]*pshape{"type": str(), "name": str(), "uri": str()},
		also: func(path string, v []byte) string {
			var ref sdk.CompleteReference
			if ref.UnmarshalJSON(v) != nil {
				return fmt.Sprintf(`Invalid params: %s must be a reference of type "ref/prompt" with a name, or "ref/resource" with a uri.`, path)
			}
			return ""
		}}
)

// paramsShapes are the params of the methods the SDK decodes; a method not
// here is checked only for params being an object.
var paramsShapes = map[string]*pshape{
	"initialize": withMeta(map[string]*pshape{
		"protocolVersion": str(), "capabilities": capabilitiesShape, "clientInfo": implementationShape,
	}).req(),
	"tools/list":               cursorParams,
	"prompts/list":             cursorParams,
	"resources/list":           cursorParams,
	"resources/templates/list": cursorParams,
	"tasks/list":               cursorParams,
	"tools/call": withMeta(merge(roundParams, map[string]*pshape{
		"name": str(), "task": obj(map[string]*pshape{"ttl": num()}),
	})).req(),
	"prompts/get": withMeta(merge(roundParams, map[string]*pshape{
		"name": str(), "arguments": mapOf(str()),
	})).req(),
	"resources/read":        withMeta(merge(roundParams, map[string]*pshape{"uri": str()})).req(),
	"resources/subscribe":   withMeta(map[string]*pshape{"uri": str()}).req(),
	"resources/unsubscribe": withMeta(map[string]*pshape{"uri": str()}).req(),
	"completion/complete": withMeta(map[string]*pshape{
		"ref":      completionRef,
		"argument": obj(map[string]*pshape{"name": str(), "value": str()}),
		"context":  obj(map[string]*pshape{"arguments": mapOf(str())}),
	}).req(),
	"logging/setLevel": withMeta(map[string]*pshape{"level": str()}).req(),
	"subscriptions/listen": withMeta(map[string]*pshape{"notifications": obj(map[string]*pshape{
		"toolsListChanged": boolean(), "promptsListChanged": boolean(), "resourcesListChanged": boolean(),
		"resourceSubscriptions": arrayOf(str()), "taskIds": arrayOf(str()),
	})}).req(),
	"tasks/get":    taskParams.req(),
	"tasks/result": taskParams.req(),
	"tasks/cancel": taskParams.req(),
	"notifications/cancelled": withMeta(map[string]*pshape{
		"requestId": {kind: kStringOrNumber}, "reason": str(),
	}),
	"notifications/progress": withMeta(map[string]*pshape{
		"progressToken": {kind: kStringOrNumber}, "message": str(), "progress": num(), "total": num(),
	}).req(),
}

func merge(a, b map[string]*pshape) map[string]*pshape {
	m := maps.Clone(a)
	maps.Copy(m, b)
	return m
}

// checkParams checks the params (raw JSON, empty when absent) of one
// message calling method, and says what is wrong in a sentence for the
// client, or "".
func checkParams(method, params []byte) string {
	sh := paramsShapes[string(method)]
	if isNull(params) {
		if sh != nil && sh.required {
			return fmt.Sprintf("Invalid params: %s needs params, an object.", method)
		}
		return ""
	}
	if sh == nil {
		if params[0] != '{' && (bytes.HasPrefix(method, []byte("notifications/")) || knownMethod(method)) {
			return "Invalid params: params must be an object."
		}
		return ""
	}
	return sh.check("", "", params)
}

// knownMethod reports whether the SDK decodes method's params into a
// struct (which an array's params would fail).
func knownMethod(method []byte) bool {
	switch string(method) {
	case "ping", "server/discover", "tasks/update":
		return true
	}
	return false
}

func isNull(b []byte) bool { return len(b) == 0 || string(b) == "null" }

// check checks v, member key of the value at path ("" for the params
// themselves), against s. The path is written out only for a problem or a
// shape that looks inside v: a call's params are checked without
// allocating.
func (s *pshape) check(path, key string, v []byte) string {
	if isNull(v) {
		return ""
	}
	if !s.kind.holds(v) {
		return fmt.Sprintf("Invalid params: %s must be %s.", at(path, key), kindNames[s.kind])
	}
	switch {
	case s.kind == kObject && (s.members != nil || s.values != nil):
		here := at(path, key)
		var problem string
		jsonscan.Members(v, func(k string, mv []byte) bool {
			ms := s.members[k]
			if ms == nil {
				ms = s.values
			}
			if ms != nil {
				problem = ms.check(here, k, mv)
			}
			return problem == ""
		})
		if problem == "" && s.also != nil {
			problem = s.also(here, v)
		}
		return problem
	case s.kind == kArray && s.values != nil:
		here := at(path, key)
		var elems []json.RawMessage
		if json.Unmarshal(v, &elems) != nil {
			return fmt.Sprintf("Invalid params: %s must be an array.", here)
		}
		for i, e := range elems {
			if p := s.values.check(here, fmt.Sprintf("[%d]", i), e); p != "" {
				return p
			}
		}
	}
	return ""
}

// memberProblem is the problem of member k of the params s describes, or
// "": checkParams for a reader that walks the params' members anyway
// (inspectPlain). A nil s (a method whose params are not checked) has none.
func (s *pshape) memberProblem(k string, v []byte) string {
	if s == nil || s.members[k] == nil {
		return ""
	}
	return s.members[k].check("params", k, v)
}

// at is the path of member key of the value at path, as a message names
// it: params.clientInfo.name, params.icons[0].
func at(path, key string) string {
	switch {
	case path == "":
		return "params"
	case strings.HasPrefix(key, "["):
		return path + key
	}
	return path + "." + key
}

// holds reports whether v, valid JSON and not null, is of kind k.
func (k kind) holds(v []byte) bool {
	c := v[0]
	switch k {
	case kString:
		return c == '"'
	case kNumber:
		return c == '-' || c >= '0' && c <= '9'
	case kBool:
		return c == 't' || c == 'f'
	case kObject:
		return c == '{'
	case kArray:
		return c == '['
	case kStringOrNumber:
		return c == '"' || c == '-' || c >= '0' && c <= '9'
	}
	return true
}
