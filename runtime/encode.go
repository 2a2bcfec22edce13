package runtime

import (
	"bytes"
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime/jsonwrite"
)

// encodeCallResponse writes resp to buf exactly as encoding/json does with
// HTML escaping off (what writeJSON does for any value), but without
// reflection for what every tool call answers: text blocks and structured
// content that is JSON already (StructuredResult's). Anything else goes
// through encoding/json, piece by piece. TestEncodeCallResponse holds the
// two to the same bytes.
func encodeCallResponse(buf *bytes.Buffer, resp callResponse) error {
	r := resp.Result
	if r == nil {
		return encodeValue(buf, resp)
	}
	buf.WriteString(`{"content":`)
	if r.Content == nil {
		buf.WriteString("null")
	} else {
		buf.WriteByte('[')
		for i, c := range r.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if c.Type == ContentText {
				buf.WriteString(`{"type":"text","text":`)
				encodeString(buf, c.Text)
				buf.WriteByte('}')
				continue
			}
			if err := encodeValue(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	if r.StructuredContent != nil {
		buf.WriteString(`,"structuredContent":`)
		var err error
		raw, ok := r.StructuredContent.(json.RawMessage)
		switch {
		case ok && raw != nil && resp.structured.compactJSON(raw):
			buf.Write(raw) // what Compact would write: StructuredResult's JSON
		case ok && raw != nil:
			err = json.Compact(buf, raw) // what encoding/json does to a RawMessage
		default:
			err = encodeValue(buf, r.StructuredContent)
		}
		if err != nil {
			return err
		}
	}
	if r.IsError {
		buf.WriteString(`,"isError":true`)
	} else {
		buf.WriteString(`,"isError":false`)
	}
	if resp.Meta != nil {
		buf.WriteString(`,"_meta":{"_trace_id":`)
		encodeString(buf, resp.Meta.TraceID)
		buf.WriteByte('}')
	}
	buf.WriteByte('}')
	return nil
}

// encodeValue appends v's JSON, HTML escaping off.
func encodeValue(buf *bytes.Buffer, v any) error {
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

// encodeString appends s as a JSON string, escaped as encoding/json
// escapes it with HTML escaping off: quote, backslash and control
// characters escaped (\n, \t and the like where JSON has them), invalid
// UTF-8 as \ufffd, and U+2028 and U+2029 escaped for JavaScript.
func encodeString(buf *bytes.Buffer, s string) {
	// Appended to the buffer's free space rather than written through
	// its methods: a structured result's text is its JSON, a quote every
	// few bytes, and three method calls an escape were a tenth of a REST
	// call's instructions.
	buf.Grow(len(s) + 2)
	buf.Write(jsonwrite.AppendString(buf.AvailableBuffer(), s, false))
}
