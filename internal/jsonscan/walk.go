package jsonscan

// Walking JSON that is known to be valid, without decoding it.

// Members calls f with each member of the JSON object b, in order, its key
// as written between the quotes and its value's bytes. b must be valid
// JSON (see Valid): what is not checked again here. Members reports false
// when b is not an object, when a key has an escape (a caller that reads
// keys as written would misread it), or when f does.
func Members(b []byte, f func(key string, v []byte) bool) bool {
	return MemberBytes(b, func(key, v []byte) bool { return f(string(key), v) })
}

// MemberBytes is Members with each key as bytes, which f must not keep:
// a caller that only compares keys (switch string(key)) reads an object
// without allocating a string for each.
func MemberBytes(b []byte, f func(key, v []byte) bool) bool {
	i := Space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = Space(b, i+1)
	if i < len(b) && b[i] == '}' {
		return Space(b, i+1) == len(b)
	}
	for i < len(b) && b[i] == '"' {
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				return false
			}
			j++
		}
		if j >= len(b) {
			return false
		}
		key := b[i+1 : j]
		i = Space(b, j+1)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = Space(b, i+1)
		end := valueEnd(b, i)
		if end <= i || !f(key, b[i:end]) {
			return false
		}
		var done, ok bool
		if i, done, ok = after(b, end, '}'); !ok || done {
			return ok
		}
	}
	return false
}

// after reads past the value that ends at b[end], in an object or array
// that close ends: the start of the next member or element; or done, at
// the end of the container, and then ok only when nothing follows it.
func after(b []byte, end int, close byte) (next int, done, ok bool) {
	i := Space(b, end)
	switch {
	case i >= len(b):
		return 0, false, false
	case b[i] == ',':
		return Space(b, i+1), false, true
	case b[i] == close:
		return 0, true, Space(b, i+1) == len(b)
	}
	return 0, false, false
}

// valueEnd is the end of the JSON value that starts at b[i], -1 if there
// is none.
func valueEnd(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if i >= len(b) {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of a number, true, false or null
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	if depth != 0 {
		return -1
	}
	return i
}

// Deeper reports whether b nests arrays and objects more than max deep,
// counting the brackets outside strings whether or not b is valid JSON:
// a caller can refuse a hostile body for its depth before any decoder
// recurses into it (encoding/json itself stops at 10,000 levels).
func Deeper(b []byte, max int) bool {
	depth := 0
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > max {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

// Space is where the JSON white space at b[i:] ends.
func Space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// Elements calls f with the bytes of each element of the JSON array b,
// in order. b must be valid JSON (see Valid). Elements reports false when
// b is not an array, or when f does.
func Elements(b []byte, f func(v []byte) bool) bool {
	i := Space(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = Space(b, i+1)
	if i < len(b) && b[i] == ']' {
		return Space(b, i+1) == len(b)
	}
	for i < len(b) {
		end := valueEnd(b, i)
		if end <= i || !f(b[i:end]) {
			return false
		}
		var done, ok bool
		if i, done, ok = after(b, end, ']'); !ok || done {
			return ok
		}
	}
	return false
}
