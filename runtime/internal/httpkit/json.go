package httpkit

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/jsonwrite"
)

// Encoder is a value that writes its own JSON, as encoding/json with HTML
// escaping off would write it, faster: a tool call's answer.
type Encoder interface {
	EncodeJSON(buf *bytes.Buffer) error
}

// WriteJSON writes v as the whole response. It does not escape <, > and
// &, so that strings (and schemas) come back exactly as the tool gave
// them.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	buf := bufferPool.Get().(*bytes.Buffer)
	defer PutBuffer(buf)
	var err error
	if e, ok := v.(Encoder); ok {
		err = e.EncodeJSON(buf)
	} else {
		err = EncodeValue(buf, v)
	}
	b := buf.Bytes()
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"Failed to encode the response."}`)
	}
	SetHeaders(w.Header(), "Content-Type", "application/json", "X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b) // a Writer keeps nothing of b: the buffer can go back
}

// WriteError writes {"error": msg} with status: the explorer's and the
// operational endpoints' error body.
func WriteError(w http.ResponseWriter, status int, msg string) {
	WriteJSON(w, status, ErrorBody{Error: msg})
}

// ErrorBody is {"error": "..."}.
type ErrorBody struct {
	Error string `json:"error"`
}

// SetHeaders sets two headers of canonical keys k1 and k2, as Header.Set
// does but with one allocation for both values: every answer sets two.
// Each value's slice is capped, so that an Add to one copies it.
func SetHeaders(h http.Header, k1, v1, k2, v2 string) {
	vs := []string{v1, v2}
	h[k1], h[k2] = vs[0:1:1], vs[1:2:2]
}

// bufferPool holds the buffers responses are encoded into.
var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// GetBuffer returns an empty buffer from the pool; PutBuffer gives it
// back.
func GetBuffer() *bytes.Buffer { return bufferPool.Get().(*bytes.Buffer) }

// PutBuffer returns buf to the pool unless it grew large: one huge
// response should not pin its memory for good.
func PutBuffer(buf *bytes.Buffer) {
	if buf.Cap() > 64<<10 {
		return
	}
	buf.Reset()
	bufferPool.Put(buf)
}

// EncodeValue appends v's JSON, HTML escaping off.
func EncodeValue(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	n := buf.Len()
	if err := enc.Encode(v); err != nil {
		buf.Truncate(n)
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}

// EncodeString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off: quote, backslash and control
// characters escaped (\n, \t and the like where JSON has them), invalid
// UTF-8 as \ufffd, and U+2028 and U+2029 escaped for JavaScript.
func EncodeString(buf *bytes.Buffer, s string) {
	// Appended to the buffer's free space rather than written through
	// its methods: a structured result's text is its JSON, a quote every
	// few bytes, and three method calls an escape were a tenth of a REST
	// call's instructions.
	buf.Grow(len(s) + 2)
	buf.Write(jsonwrite.AppendString(buf.AvailableBuffer(), s, false))
}

// Marshal is json.Marshal without HTML escaping: the bodies are JSON for
// programs, and <, > and & in a tool's text must come back as written.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
