package runtime

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
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
		case ok && raw != nil && compactJSON(raw):
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
	buf.Write(appendString(buf.AvailableBuffer(), s))
}

// appendString is encodeString on a byte slice.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
