package httpkit

import "net/http"

// TraceKeys are the W3C trace context's carriers: HTTP headers, and MCP
// _meta keys of the same names.
var TraceKeys = [...]string{"traceparent", "tracestate", "baggage"}

// traceHeaderKeys are TraceKeys in canonical form: a request's headers are
// keyed so, and h.Get("traceparent") would allocate the canonical key on
// every request to find it.
var traceHeaderKeys = [...]string{"Traceparent", "Tracestate", "Baggage"}

// HeaderTraceparent is the traceparent header, canonical, for the same
// reason.
const HeaderTraceparent = "Traceparent"

// TraceHeaders is the W3C trace context of an HTTP request's headers, or
// nil when it has none.
func TraceHeaders(h http.Header) map[string]string {
	var m map[string]string
	for i, hk := range traceHeaderKeys {
		if v := Header(h, hk); v != "" {
			k := TraceKeys[i]
			if m == nil {
				m = make(map[string]string, len(TraceKeys))
			}
			m[k] = v
		}
	}
	return m
}

// TraceParentID returns the trace id of a W3C traceparent header
// ("00-<32 hex>-<16 hex>-<2 hex>"), or "" when the header is absent or
// malformed, or the id is all zeros (invalid by the spec).
func TraceParentID(h string) string {
	if len(h) < 55 || h[2] != '-' || h[35] != '-' || h[52] != '-' {
		return ""
	}
	if h[:2] == "ff" || !isLowerHex(h[:2]) || !isLowerHex(h[36:52]) || !isLowerHex(h[53:55]) {
		return ""
	}
	if len(h) > 55 && (h[:2] == "00" || h[55] != '-') {
		return ""
	}
	id := h[3:35]
	if !isLowerHex(id) || id == "00000000000000000000000000000000" {
		return ""
	}
	return id
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
