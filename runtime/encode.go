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
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			buf.WriteString(s[start:i])
			switch b {
			case '"', '\\':
				buf.WriteByte('\\')
				buf.WriteByte(b)
			case '\b':
				buf.WriteString(`\b`)
			case '\f':
				buf.WriteString(`\f`)
			case '\n':
				buf.WriteString(`\n`)
			case '\r':
				buf.WriteString(`\r`)
			case '\t':
				buf.WriteString(`\t`)
			default:
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[b>>4])
				buf.WriteByte(hex[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf.WriteString(s[start:i])
			buf.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			buf.WriteString(s[start:i])
			buf.WriteString(`\u202`)
			buf.WriteByte(hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
}
