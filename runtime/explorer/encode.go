package explorer

import (
	"bytes"
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/httpkit"
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
		return httpkit.EncodeValue(buf, resp)
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
			if c.Type == runtime.ContentText {
				buf.WriteString(`{"type":"text","text":`)
				httpkit.EncodeString(buf, c.Text)
				buf.WriteByte('}')
				continue
			}
			if err := httpkit.EncodeValue(buf, c); err != nil {
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
		case ok && raw != nil && resp.out != nil && resp.out.CompactStructured(raw):
			buf.Write(raw) // what Compact would write: StructuredResult's JSON
		case ok && raw != nil:
			err = json.Compact(buf, raw) // what encoding/json does to a RawMessage
		default:
			err = httpkit.EncodeValue(buf, r.StructuredContent)
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
		httpkit.EncodeString(buf, resp.Meta.TraceID)
		buf.WriteByte('}')
	}
	buf.WriteByte('}')
	return nil
}

// EncodeJSON is encodeCallResponse: httpkit.WriteJSON writes a
// callResponse with it.
func (r callResponse) EncodeJSON(buf *bytes.Buffer) error { return encodeCallResponse(buf, r) }
