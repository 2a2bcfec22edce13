package runtime

// traceParentID returns the trace id of a W3C traceparent header
// ("00-<32 hex>-<16 hex>-<2 hex>"), or "" when the header is absent or
// malformed, or the id is all zeros (invalid by the spec).
func traceParentID(h string) string {
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
