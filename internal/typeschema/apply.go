package typeschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/suggest"
)

// tagKeys are the keys of a jsonschema tag (and of a //toolgen:param
// directive) that applyTags knows, for a misspelt one's suggestion.
var tagKeys = []string{
	"title", "description", "default", "example", "examples",
	"required", "optional", "nullable", "deprecated", "uniqueItems",
	"minItems", "maxItems", "minLength", "maxLength", "pattern", "format",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"enum", "const",
}

// applyTags applies a field's jsonschema tag to its schema. It returns the
// field's required-ness when the tag sets it (required, optional).
//
// Keywords that constrain values (enum, const, bounds, lengths, pattern,
// format) apply to the field's value when it is of the right type, and to
// the items when the field is an array of such values, as invopop/jsonschema
// does: `jsonschema:"enum=a,enum=b"` on a []string limits each element.
func applyTags(s *Schema, items []tagItem, path, pos string) (*bool, error) {
	var required *bool
	fail := func(format string, args ...any) (*bool, error) {
		return nil, &Error{Pos: pos, Path: path, Msg: "jsonschema tag: " + fmt.Sprintf(format, args...)}
	}
	nullable := false
	// own holds, for each schema an enum tag narrows, the values its type
	// had (an enum type's constants; nil for a type without): the tag's
	// values replace them, and must be among them.
	own := map[*Schema][]json.RawMessage{}
	// tagged holds the bounds a tag set, for each schema: the others are
	// its type's.
	tagged := map[*Schema]map[string]bool{}
	for _, it := range items {
		if it.pos != "" {
			pos := it.pos
			fail = func(format string, args ...any) (*bool, error) {
				return nil, &Error{Pos: pos, Path: path, Msg: fmt.Sprintf(format, args...)}
			}
		}
		needValue := func() error {
			if !it.hasValue || it.value == "" {
				return fmt.Errorf("%s needs a value (%s=...)", it.key, it.key)
			}
			return nil
		}
		switch it.key {
		case "title", "description":
			if err := needValue(); err != nil {
				return fail("%v", err)
			}
			if it.key == "title" {
				s.Title = it.value
			} else {
				s.Description = it.value
			}
		case "default", "example", "examples":
			if err := needValue(); err != nil {
				return fail("%v", err)
			}
			v, err := value(s, it.value)
			if err != nil {
				return fail("%s: %v", it.key, err)
			}
			if it.key == "default" {
				s.Default = v
			} else {
				s.Examples = append(s.Examples, v)
			}
		case "required", "optional", "nullable", "deprecated", "uniqueItems":
			on := true
			if it.hasValue {
				b, err := strconv.ParseBool(it.value)
				if err != nil {
					return fail("%s takes no value or true/false, not %q", it.key, it.value)
				}
				on = b
			}
			switch it.key {
			case "required", "optional":
				r := on == (it.key == "required")
				if required != nil && *required != r {
					return fail("both required and optional")
				}
				required = &r
			case "nullable":
				nullable = on
			case "deprecated":
				s.Deprecated = on
			case "uniqueItems":
				if !isType(s, "array") {
					return fail("uniqueItems applies to slices and arrays")
				}
				s.UniqueItems = on
			}
		case "minItems", "maxItems":
			if !isType(s, "array") {
				return fail("%s applies to slices and arrays", it.key)
			}
			n, err := count(it)
			if err != nil {
				return fail("%v", err)
			}
			if it.key == "minItems" {
				s.MinItems = &n
			} else {
				s.MaxItems = &n
			}
		case "minLength", "maxLength", "pattern", "format":
			t := target(s, "string")
			if t == nil {
				return fail("%s applies to strings (or arrays of strings), not to %s", it.key, describe(s))
			}
			if err := needValue(); err != nil {
				return fail("%v", err)
			}
			switch it.key {
			case "minLength", "maxLength":
				n, err := count(it)
				if err != nil {
					return fail("%v", err)
				}
				if it.key == "minLength" {
					t.MinLength = &n
				} else {
					t.MaxLength = &n
				}
			case "pattern":
				if _, err := regexp.Compile(it.value); err != nil {
					return fail("pattern %q: %v", it.value, err)
				}
				t.Pattern = it.value
			case "format":
				t.Format = it.value
			}
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			t := target(s, "number", "integer")
			if t == nil {
				return fail("%s applies to numbers (or arrays of numbers), not to %s", it.key, describe(s))
			}
			if err := needValue(); err != nil {
				return fail("%v", err)
			}
			n, err := number(it.value)
			if err != nil {
				return fail("%s: %v", it.key, err)
			}
			switch it.key {
			case "minimum", "maximum":
				// The Go type's own bound (an int8's -128 and 127) stays
				// when it is the tighter: a tag's wider bound would let
				// through a value the decoder then cannot hold.
				other := map[string]string{"minimum": "maximum", "maximum": "minimum"}[it.key]
				whose := "the type's "
				if tagged[t][other] {
					whose = ""
				}
				v, err := tighter(it.key, t.Minimum, t.Maximum, n, whose)
				if err != nil {
					return fail("%v", err)
				}
				if tagged[t] == nil {
					tagged[t] = map[string]bool{}
				}
				tagged[t][it.key] = true
				if it.key == "minimum" {
					t.Minimum = v
				} else {
					t.Maximum = v
				}
			case "exclusiveMinimum":
				t.ExclusiveMinimum = n
			case "exclusiveMaximum":
				t.ExclusiveMaximum = n
			case "multipleOf":
				if f, _ := strconv.ParseFloat(n, 64); f <= 0 {
					return fail("multipleOf must be greater than 0")
				}
				t.MultipleOf = n
			}
		case "enum", "const":
			t := target(s, "string", "integer", "number", "boolean")
			if t == nil {
				return fail("%s applies to strings, numbers and booleans (or arrays of them), not to %s", it.key, describe(s))
			}
			if !it.hasValue {
				return fail("%s needs a value (%s=...)", it.key, it.key)
			}
			v, err := value(t, it.value)
			if err != nil {
				return fail("%s: %v", it.key, err)
			}
			if it.key == "enum" {
				values, seen := own[t]
				if !seen {
					values = t.Enum
					own[t], t.Enum = values, nil
				}
				if values != nil && !slices.ContainsFunc(values, func(e json.RawMessage) bool { return bytes.Equal(e, v) }) {
					list := make([]string, len(values))
					for i, e := range values {
						list[i] = string(e)
					}
					return fail("enum: %s is not one of the type's values (%s)", v, strings.Join(list, ", "))
				}
				t.Enum = append(t.Enum, v)
			} else {
				t.Const = v
			}
		default:
			if best := suggest.Closest(it.key, tagKeys); best != "" {
				return fail("unknown key %q: did you mean %s?", it.key, best)
			}
			return fail("unknown key %q", it.key)
		}
	}
	for _, t := range []*Schema{s, s.Items} {
		if t == nil {
			continue
		}
		if c := contradiction(t); c != "" {
			return fail("%s: no value could pass", c)
		}
		if t.Enum != nil && slices.Contains(t.Type, "null") && !slices.ContainsFunc(t.Enum, isNull) {
			// A result's field that can be null (orNull, before the
			// tags) stays so: an enum tag lists the values, not null.
			t.Enum = append(t.Enum, json.RawMessage("null"))
		}
	}
	if nullable {
		makeNullable(s)
	}
	return required, nil
}

// contradiction names the keywords of s, once its tags are applied, that
// no value could satisfy together, "" when there are none: a field no call
// could ever give.
func contradiction(s *Schema) string {
	rat := func(v string) *big.Rat {
		if v == "" {
			return nil
		}
		r, _ := new(big.Rat).SetString(v)
		return r
	}
	lo, hi := rat(s.Minimum), rat(s.Maximum)
	switch {
	case lo != nil && hi != nil && lo.Cmp(hi) > 0:
		return fmt.Sprintf("minimum %s is above maximum %s", s.Minimum, s.Maximum)
	case s.MinLength != nil && s.MaxLength != nil && *s.MinLength > *s.MaxLength:
		return fmt.Sprintf("minLength %d is above maxLength %d", *s.MinLength, *s.MaxLength)
	case s.MinItems != nil && s.MaxItems != nil && *s.MinItems > *s.MaxItems:
		return fmt.Sprintf("minItems %d is above maxItems %d", *s.MinItems, *s.MaxItems)
	case s.Const != nil && s.Enum != nil && !slices.ContainsFunc(s.Enum, func(e json.RawMessage) bool { return bytes.Equal(e, s.Const) }):
		return fmt.Sprintf("const %s is not in its enum", s.Const)
	}
	return ""
}

// makeNullable lets s also accept null (once: a schema that does already
// is left alone).
func makeNullable(s *Schema) {
	if slices.Contains(s.Type, "null") {
		return
	}
	for _, a := range s.AnyOf {
		if len(a.Type) == 1 && a.Type[0] == "null" {
			return
		}
	}
	switch {
	case len(s.Type) == 1 && s.Raw == nil && s.Ref == "":
		s.Type = append(s.Type, "null")
		if s.Enum != nil {
			s.Enum = append(s.Enum, json.RawMessage("null"))
		}
	case len(s.Type) == 0 && s.Raw == nil && s.Ref == "" && s.Items == nil && s.Properties == nil:
		// {} already accepts null.
	default:
		inner := *s
		inner.Title, inner.Description, inner.Default, inner.Examples, inner.Deprecated = "", "", nil, nil, false
		*s = Schema{Title: s.Title, Description: s.Description, Default: s.Default, Examples: s.Examples, Deprecated: s.Deprecated,
			AnyOf: []*Schema{&inner, {Type: []string{"null"}}}}
	}
}

// schemaType is the JSON type s describes, or "" when it has none.
func schemaType(s *Schema) string {
	if len(s.Type) > 0 {
		return s.Type[0]
	}
	if s.Raw != nil {
		if o, err := ParseObject(s.Raw); err == nil {
			if t, ok := o.String("type"); ok {
				return t
			}
		}
	}
	return ""
}

func isType(s *Schema, t string) bool { return schemaType(s) == t }

// target is s when it has one of the types, else s's items when they do,
// else nil.
func target(s *Schema, types ...string) *Schema {
	for _, t := range types {
		if schemaType(s) == t && s.Raw == nil {
			return s
		}
	}
	if isType(s, "array") && s.Items != nil {
		for _, t := range types {
			if schemaType(s.Items) == t && s.Items.Raw == nil {
				return s.Items
			}
		}
	}
	return nil
}

func describe(s *Schema) string {
	switch t := schemaType(s); t {
	case "":
		return "a value of any type"
	case "array", "object", "integer":
		return "an " + t
	default:
		return "a " + t
	}
}

func count(it tagItem) (int64, error) {
	n, err := strconv.ParseInt(it.value, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s must be a non-negative integer, not %q", it.key, it.value)
	}
	return n, nil
}

// number checks a JSON number and returns its text.
func number(v string) (string, error) {
	v = strings.TrimSpace(v)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("%q is not a number", v)
	}
	if !json.Valid([]byte(v)) {
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	}
	return v, nil
}

// value turns a tag's text into a JSON value of s's type.
func value(s *Schema, v string) (json.RawMessage, error) {
	switch schemaType(s) {
	case "string":
		return json.Marshal(v)
	case "integer":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			if _, err := strconv.ParseUint(v, 10, 64); err != nil {
				return nil, fmt.Errorf("%q is not an integer", v)
			}
		}
		return json.RawMessage(v), nil
	case "number":
		n, err := number(v)
		if err != nil {
			return nil, err
		}
		return json.RawMessage(n), nil
	case "boolean":
		switch v {
		case "true", "false":
			return json.RawMessage(v), nil
		}
		return nil, fmt.Errorf("%q is not true or false", v)
	default:
		if !json.Valid([]byte(v)) {
			return nil, fmt.Errorf("%q is not JSON (values of %s are written as JSON)", v, describe(s))
		}
		var buf bytes.Buffer
		_ = json.Compact(&buf, []byte(v))
		return json.RawMessage(buf.Bytes()), nil
	}
}

// tighter is the bound a minimum or maximum tag of value n leaves, beside
// the minimum and maximum the schema has ("" for none; whose says whose
// they are, for the error): the tighter of the tag's and the schema's. A
// tag that leaves no value at all is an error.
func tighter(key, min, max, n, whose string) (string, error) {
	v, _ := new(big.Rat).SetString(n)
	bound := func(s string) *big.Rat {
		if s == "" {
			return nil
		}
		r, _ := new(big.Rat).SetString(s)
		return r
	}
	lo, hi := bound(min), bound(max)
	if key == "minimum" {
		switch {
		case hi != nil && v.Cmp(hi) > 0:
			return "", fmt.Errorf("minimum %s is above %smaximum, %s", n, whose, max)
		case lo != nil && v.Cmp(lo) < 0:
			return min, nil
		}
		return n, nil
	}
	switch {
	case lo != nil && v.Cmp(lo) < 0:
		return "", fmt.Errorf("maximum %s is below %sminimum, %s", n, whose, min)
	case hi != nil && v.Cmp(hi) > 0:
		return max, nil
	}
	return n, nil
}

func isNull(v json.RawMessage) bool { return string(v) == "null" }
