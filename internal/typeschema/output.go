package typeschema

import "encoding/json"

// ObjectOutput is an output schema as MCP requires it, an object schema:
// one that is not an object schema is wrapped as
// {"result": schema}, its "$schema" and "$defs" moved up so that
// references still resolve.
func ObjectOutput(src json.RawMessage) (schema json.RawMessage, wrapped bool) {
	if len(src) == 0 {
		return nil, false
	}
	inner, err := ParseObject(src)
	if err != nil {
		return src, false
	}
	if typ, _ := inner.String("type"); typ == "object" {
		return src, false
	}
	outer := &Object{}
	kept := &Object{}
	var defs json.RawMessage
	for _, m := range inner.Members {
		switch m.Key {
		case "$schema":
			outer.Set("$schema", m.Value)
		case "$defs":
			defs = m.Value
		default:
			kept.Members = append(kept.Members, m)
		}
	}
	outer.Set("type", json.RawMessage(`"object"`))
	k, _ := kept.MarshalJSON()
	outer.Set("properties", json.RawMessage(`{"result":`+string(k)+`}`))
	outer.Set("required", json.RawMessage(`["result"]`))
	if defs != nil {
		outer.Set("$defs", defs)
	}
	b, _ := outer.MarshalJSON()
	return b, true
}
