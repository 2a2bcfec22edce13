package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
)

// Content types, as MCP names them.
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResource     = "resource"
	ContentResourceLink = "resource_link"
)

// Content is one MCP content block. Type selects which fields apply; use the
// constructors ([Text], [Image], [Audio], [EmbeddedResource], [ResourceLink])
// rather than filling it by hand. It marshals to exactly MCP's shape for its
// type.
type Content struct {
	Type string `json:"type"`

	// Text is the text of a "text" block.
	Text string `json:"text,omitempty"`

	// Data and MIMEType are an image's or an audio clip's bytes (sent as
	// base64) and media type.
	Data     []byte `json:"data,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`

	// Resource is the embedded resource of a "resource" block.
	Resource *ResourceContents `json:"resource,omitempty"`

	// URI, Name, Title, Description and Size describe a "resource_link";
	// MIMEType applies too.
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        *int64 `json:"size,omitempty"`
}

// ResourceContents is the body of an embedded resource: Text or Blob.
type ResourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"blob,omitempty"`
}

// Text returns a text content block.
func Text(s string) Content { return Content{Type: ContentText, Text: s} }

// Image returns an image content block.
func Image(data []byte, mimeType string) Content {
	return Content{Type: ContentImage, Data: data, MIMEType: mimeType}
}

// Audio returns an audio content block.
func Audio(data []byte, mimeType string) Content {
	return Content{Type: ContentAudio, Data: data, MIMEType: mimeType}
}

// EmbeddedResource returns a content block that carries a resource inline.
func EmbeddedResource(r ResourceContents) Content {
	return Content{Type: ContentResource, Resource: &r}
}

// ResourceLink returns a content block that points at a resource by URI.
func ResourceLink(uri, name string) Content {
	return Content{Type: ContentResourceLink, URI: uri, Name: name}
}

// MarshalJSON writes only the fields of c's type, and always writes the
// fields MCP requires for it (an empty text is "text":"", not absent).
func (c Content) MarshalJSON() ([]byte, error) {
	switch c.Type {
	case ContentText:
		return httpkit.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{c.Type, c.Text})
	case ContentImage, ContentAudio:
		data := c.Data
		if data == nil {
			data = []byte{}
		}
		return httpkit.Marshal(struct {
			Type     string `json:"type"`
			Data     []byte `json:"data"`
			MIMEType string `json:"mimeType"`
		}{c.Type, data, c.MIMEType})
	case ContentResource:
		if c.Resource == nil {
			return nil, fmt.Errorf("runtime: %q content without a resource", c.Type)
		}
		return httpkit.Marshal(struct {
			Type     string            `json:"type"`
			Resource *ResourceContents `json:"resource"`
		}{c.Type, c.Resource})
	case ContentResourceLink:
		return httpkit.Marshal(struct {
			Type        string `json:"type"`
			URI         string `json:"uri"`
			Name        string `json:"name"`
			Title       string `json:"title,omitempty"`
			Description string `json:"description,omitempty"`
			MIMEType    string `json:"mimeType,omitempty"`
			Size        *int64 `json:"size,omitempty"`
		}{c.Type, c.URI, c.Name, c.Title, c.Description, c.MIMEType, c.Size})
	default:
		return nil, fmt.Errorf("runtime: unknown content type %q", c.Type)
	}
}

// Result is the outcome of a tool call, in the shape of MCP's CallToolResult.
type Result struct {
	Content []Content `json:"content"`
	// StructuredContent is the typed result, sent as JSON beside Content.
	StructuredContent any  `json:"structuredContent,omitempty"`
	IsError           bool `json:"isError"`
	// TraceID, when set, is returned to the caller as _meta._trace_id.
	TraceID string `json:"-"`
}

// TextResult returns a result of one text block.
func TextResult(s string) *Result { return &Result{Content: []Content{Text(s)}} }

// ContentResult returns a result of the given blocks.
func ContentResult(c ...Content) *Result {
	if c == nil {
		c = []Content{}
	}
	return &Result{Content: c}
}

// ErrorResult returns an isError result whose text is msg.
func ErrorResult(msg string) *Result {
	return &Result{Content: []Content{Text(msg)}, IsError: true}
}

// StructuredResult returns v as structured content, and as the text
// content for clients that read only text: its JSON, or for a string the
// string itself. A v that encodes as null (a nil pointer, slice or map) has
// no structured content, only the text "null": MCP's structured content is
// never null.
//
// A v that JSON cannot hold (a NaN or an infinity, a channel, a cycle, a
// MarshalJSON that fails) is an error whose message is for the caller, as
// every surface shows a handler's error: it says what JSON cannot hold
// when that is a number, and names no Go type. encoding/json's own error
// stays behind it (errors.Unwrap), for the server's log.
func StructuredResult(v any) (*Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &resultEncodingError{err: err}
	}
	return StructuredJSON(b)
}

// resultEncodingError is a result that could not be written as JSON.
type resultEncodingError struct{ err error }

func (e *resultEncodingError) Error() string {
	var uv *json.UnsupportedValueError
	if errors.As(e.err, &uv) {
		switch uv.Str { // a cycle's Str names a Go type: not said
		case "NaN", "+Inf", "-Inf":
			return "The tool's result could not be encoded as JSON: it holds " + uv.Str + ", which JSON cannot represent."
		}
	}
	return "The tool's result could not be encoded as JSON."
}

func (e *resultEncodingError) Unwrap() error { return e.err }

// StructuredJSON is [StructuredResult] for a value's JSON, b, exactly as
// json.Marshal writes it: what the encoder toolgen generates for a tool's
// result gives, without reflection. The result keeps b, as its structured
// content and as its text: b must not be changed after.
func StructuredJSON(b []byte) (*Result, error) {
	// The result and its one block are one allocation, and a string's text
	// is decoded into a variable of its own, which escapes only when b is
	// a string: two allocations a call fewer than the plain way. Any other
	// text is b itself, which the result keeps anyway: not a copy of it.
	rb := &struct {
		r Result
		c [1]Content
	}{}
	if len(b) > 0 && b[0] == '"' {
		var text string
		if err := json.Unmarshal(b, &text); err != nil {
			return nil, &resultEncodingError{err: err}
		}
		rb.c[0] = Text(text)
	} else {
		rb.c[0] = Text(unsafe.String(unsafe.SliceData(b), len(b)))
	}
	r := &rb.r
	r.Content = rb.c[:]
	if string(b) != "null" {
		r.StructuredContent = json.RawMessage(b)
	}
	return r, nil
}

// DecodeArgs decodes a call's arguments into v. A failure is an
// [*ArgumentError], which every surface reports as invalid arguments (HTTP
// 400) rather than as a failure of the tool.
//
// A number with a fraction or exponent that is a whole number (3.0, 1e2)
// is an integer to JSON Schema, so it decodes into Go integer fields too.
// An object's names match a struct's fields only as written, as
// validation reads them: a name in another case ("E" beside a field "e")
// is another property, ignored, where encoding/json would take it for
// the field (argnames.go says why).
func DecodeArgs(args json.RawMessage, v any) error {
	if len(args) == 0 {
		args = emptyObject
	}
	if t := reflect.TypeOf(v); t != nil && t.Kind() == reflect.Pointer && foldedName(args, t.Elem()) {
		if exact, ok := exactNames(args, t.Elem()); ok {
			args = exact
		}
	}
	err := json.Unmarshal(args, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && strings.HasPrefix(te.Value, "number ") {
		if whole, ok := wholeNumbersAsIntegers(args); ok {
			err = json.Unmarshal(whole, v)
		}
	}
	if err != nil {
		return &ArgumentError{Err: err}
	}
	return nil
}

// wholeNumbersAsIntegers rewrites the numbers in args that are whole but
// written with a fraction or an exponent as plain integers. Only the slow
// path of DecodeArgs takes it.
func wholeNumbersAsIntegers(args json.RawMessage) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	changed := false
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			n := string(x)
			if !strings.ContainsAny(n, ".eE") || !saneNumber(n) {
				return x
			}
			if r, ok := new(big.Rat).SetString(n); ok && r.IsInt() {
				changed = true
				return json.Number(r.Num().String())
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	v = walk(v)
	if !changed {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// ArgumentError reports arguments that could not be decoded into the tool's
// input type, such as a number too large for its Go type.
type ArgumentError struct{ Err error }

// Error says the arguments are invalid, and why.
func (e *ArgumentError) Error() string { return "invalid arguments: " + e.Err.Error() }

// Unwrap returns the decoding error.
func (e *ArgumentError) Unwrap() error { return e.Err }

// issue reports the error at the path of the field it names, when it does,
// in the validator's words rather than encoding/json's (which name Go
// struct fields).
//
// What encoding/json and the standard library's own types say of a value
// the schema let through but the Go type cannot take (a ,string field's
// string that holds no number, bytes that are not base64, a time RFC 3339
// allows but time.Parse does not) is said in words too; an error of
// another type's own decoding (its UnmarshalJSON or UnmarshalText) is its
// own words, and kept.
func (e *ArgumentError) issue() ValidationIssue {
	is := ValidationIssue{Path: "", Message: e.Err.Error(), Keyword: "type"}
	var (
		te *json.UnmarshalTypeError
		be base64.CorruptInputError
		pe *time.ParseError
	)
	switch {
	case errors.As(e.Err, &te):
		if te.Field != "" {
			is.Path = "/" + strings.ReplaceAll(te.Field, ".", "/")
		}
		is.Message = fmt.Sprintf("expected %s, but got %s", jsonKind(te.Type), te.Value)
	case errors.As(e.Err, &be):
		is.Message = fmt.Sprintf("a value is not base64-encoded data (at its byte %d)", int64(be))
	case errors.As(e.Err, &pe) && pe.Layout == time.RFC3339:
		// time.Time's own decoding (another type that parses times
		// keeps its words, below)
		is.Message = fmt.Sprintf("%q is not a date-time as Go reads RFC 3339 (2006-01-02T15:04:05Z, with an upper-case T and Z, and no leap second)", pe.Value)
	case strings.HasPrefix(is.Message, "json: invalid use of ,string struct tag"):
		// "..., trying to unmarshal "abc" into int"
		val, _, _ := strings.Cut(strings.TrimPrefix(is.Message, "json: invalid use of ,string struct tag, trying to unmarshal "), " into ")
		is.Message = "a value sent as a string does not hold a value of its kind: " + val
	case strings.HasPrefix(is.Message, "json: "):
		is.Message = "a value the schema allows cannot be decoded into the tool's input"
	}
	return is
}

// jsonKind says what JSON value a Go type takes.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a different value"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer that fits " + t.Kind().String()
	case reflect.Float32, reflect.Float64:
		return "a number that fits " + t.Kind().String()
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return "a different value"
}

// ErrorText is the text of a failed result, for the protocols that carry
// a failure as one message (OXP's error, /v1's, the history's): its text
// blocks, one a line, else "The tool failed.".
func (r *Result) ErrorText() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == ContentText {
			parts = append(parts, c.Text)
		}
	}
	if len(parts) == 0 {
		return "The tool failed."
	}
	return strings.Join(parts, "\n")
}
