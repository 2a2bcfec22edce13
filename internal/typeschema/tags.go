package typeschema

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// jsonTag is a field's `json:"..."` tag, read as encoding/json reads it.
type jsonTag struct {
	name      string // "" when the tag gives none (or an invalid one)
	skip      bool   // `json:"-"`
	omitEmpty bool   // omitempty or omitzero
	asString  bool   // ,string
}

func parseJSONTag(tag string) jsonTag {
	t := ParseJSONTag(tag)
	return jsonTag{name: t.Name, skip: t.Skip, omitEmpty: t.OmitEmpty || t.OmitZero, asString: t.AsString}
}

// JSONTag is a field's `json:"..."` tag as encoding/json reads it, for
// the generator's decoders and encoders, which must tell omitzero from
// omitempty.
type JSONTag struct {
	Name                          string // "" when the tag gives none, or an invalid one: the field's own name
	Skip                          bool   // `json:"-"`
	OmitEmpty, OmitZero, AsString bool
}

// ParseJSONTag reads the json key of a raw struct tag.
func ParseJSONTag(tag string) JSONTag {
	v, ok, _ := lookupTag(tag, "json")
	if !ok {
		return JSONTag{}
	}
	if v == "-" {
		return JSONTag{Skip: true}
	}
	name, opts, _ := strings.Cut(v, ",")
	t := JSONTag{}
	if validJSONName(name) {
		t.Name = name
	}
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		switch o {
		case "omitempty":
			t.OmitEmpty = true
		case "omitzero":
			t.OmitZero = true
		case "string":
			t.AsString = true
		}
	}
	return t
}

// validJSONName is encoding/json's isValidTag.
func validJSONName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// tagItem is one key of a `jsonschema:"..."` tag.
type tagItem struct {
	key, value string
	hasValue   bool
	pos        string // where it is written, when not in a tag (a Keyword)
}

// parseSchemaTag splits a jsonschema tag the way invopop/jsonschema does:
// items separated by commas (a comma inside a value is written `\\,` in
// the Go source), each `key=value` or a bare `key`. A jsonschema_description
// tag sets the description, commas and all.
func parseSchemaTag(tag string) (items []tagItem, skip bool, err error) {
	v, _, err := lookupTag(tag, "jsonschema")
	if err != nil {
		return nil, false, err
	}
	if v == "-" {
		return nil, true, nil
	}
	for _, part := range splitUnescaped(v) {
		if part == "" {
			continue
		}
		k, val, has := strings.Cut(part, "=")
		items = append(items, tagItem{key: strings.TrimSpace(k), value: val, hasValue: has})
	}
	d, ok, err := lookupTag(tag, "jsonschema_description")
	if err != nil {
		return nil, false, err
	}
	if ok {
		items = append(items, tagItem{key: "description", value: d, hasValue: true})
	}
	return items, false, nil
}

// lookupTag is reflect.StructTag.Lookup that reports a malformed tag
// instead of ignoring it: a tag that does not follow the key:"value"
// convention would otherwise silently lose its schema keywords.
func lookupTag(tag, key string) (string, bool, error) {
	for tag != "" {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		if tag == "" {
			break
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			return "", false, fmt.Errorf("malformed struct tag %q: want key:\"value\" pairs", tag)
		}
		name := tag[:i]
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			return "", false, fmt.Errorf("malformed struct tag: unterminated value of %s", name)
		}
		qvalue := tag[:i+1]
		tag = tag[i+1:]
		if name != key {
			continue
		}
		value, err := strconv.Unquote(qvalue)
		if err != nil {
			return "", false, fmt.Errorf("malformed struct tag: the value of %s, %s, is not a valid Go string (write a comma in a value as \\\\,)", name, qvalue)
		}
		return value, true, nil
	}
	return "", false, nil
}

func splitUnescaped(s string) []string {
	if s == "" {
		return nil
	}
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			cur.WriteByte(',')
			i++
		case s[i] == ',':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(parts, cur.String())
}
