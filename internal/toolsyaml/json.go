package toolsyaml

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// jsonWriter writes a YAML node as JSON, keeping mapping keys in the order
// they are written. It refuses what JSON cannot hold: non-string keys, NaN
// and infinities, and duplicate keys. Aliases are expanded: Parse has
// bounded what they expand to first (checkLimits).
type jsonWriter struct {
	buf bytes.Buffer
}

func nodeJSON(n *yaml.Node) (json.RawMessage, error) {
	var w jsonWriter
	if err := w.write(n); err != nil {
		return nil, err
	}
	return json.RawMessage(w.buf.Bytes()), nil
}

func (w *jsonWriter) write(n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			w.buf.WriteString("null")
			return nil
		}
		return w.write(n.Content[0])
	case yaml.AliasNode:
		return w.write(n.Alias)
	case yaml.MappingNode:
		w.buf.WriteByte('{')
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				return errorf(k, "mapping keys must be plain strings")
			}
			if seen[k.Value] {
				return errorf(k, "duplicate key %q", k.Value)
			}
			seen[k.Value] = true
			if i > 0 {
				w.buf.WriteByte(',')
			}
			writeString(&w.buf, k.Value)
			w.buf.WriteByte(':')
			if err := w.write(v); err != nil {
				return err
			}
		}
		w.buf.WriteByte('}')
		return nil
	case yaml.SequenceNode:
		w.buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if err := w.write(c); err != nil {
				return err
			}
		}
		w.buf.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		return w.scalar(n)
	}
	return errorf(n, "unsupported YAML node")
}

func (w *jsonWriter) scalar(n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		w.buf.WriteString("null")
	case "!!bool":
		b, err := strconv.ParseBool(n.Value)
		if err != nil {
			return errorf(n, "invalid boolean %q", n.Value)
		}
		w.buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		v := strings.ReplaceAll(n.Value, "_", "")
		i, ok := new(big.Int).SetString(v, 0)
		if !ok {
			return errorf(n, "invalid integer %q", n.Value)
		}
		w.buf.WriteString(i.String())
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return errorf(n, "number %q cannot be represented in JSON", n.Value)
		}
		// Keep the number as written when it is already valid JSON
		// (1.50 stays 1.50), else write Go's shortest form.
		if json.Valid([]byte(n.Value)) {
			w.buf.WriteString(n.Value)
		} else {
			w.buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		}
	default: // !!str, !!timestamp, !!binary and custom tags: the text as written
		writeString(&w.buf, n.Value)
	}
	return nil
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

// posError is an error at a node, before the file name is known.
type posError struct {
	Line, Col int
	Msg       string
}

func (e *posError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func errorf(n *yaml.Node, format string, args ...any) *posError {
	return &posError{Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}
