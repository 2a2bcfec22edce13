package httpkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
	"github.com/toolgen-go/toolgen/runtime/internal/jsoncheck"
)

// DecodeEnvelope decodes a protocol's request body (OXP's call request,
// /v1's {"input": ...}; not a tool's arguments, which the pipeline parses)
// into v, which must be a pointer to a struct. An empty body leaves v as
// it is. What is wrong with a body it cannot decode is said in words,
// never in encoding/json's, which names Go types. With strict, a name v
// does not have is refused too.
func DecodeEnvelope(body []byte, v any, strict bool) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if p := jsoncheck.Problem(body); p != "" {
		return errors.New("the body is " + p)
	}
	if path, key, dup := jsoncheck.DuplicateKey(body); dup {
		if path = strings.TrimSuffix(path, "/"+jsoncheck.EscapePointer(key)); path == "" {
			path = "the body"
		}
		return fmt.Errorf("%q appears twice in %s", key, path)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic("httpkit: DecodeEnvelope of a non-pointer")
	}
	return decodeExact(body, rv.Elem(), strict, "")
}

// decodeExact decodes raw into rv as json.Unmarshal does, but a struct's
// names match only as written. encoding/json matches them in any case:
// "Input" would stand for "input" (past the duplicate check, which is
// exact), and beside it would replace it. A name in another case is a
// name the struct does not have: refused with strict, else ignored. path
// is the dotted names down to rv, for the messages. An embedded struct's
// fields are not promoted, as json.Unmarshal would: no envelope has one.
func decodeExact(raw []byte, rv reflect.Value, strict bool, path string) error {
	t := rv.Type()
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return unmarshalAt(raw, rv, path)
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := reflect.New(t.Elem())
		if err := decodeExact(raw, elem.Elem(), strict, path); err != nil {
			return err
		}
		rv.Set(elem)
		return nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return unmarshalAt(raw, rv, path)
		}
		var items []json.RawMessage
		if err := unmarshalAt(raw, reflect.ValueOf(&items).Elem(), path); err != nil {
			return typeError(path, t)
		}
		out := reflect.MakeSlice(t, len(items), len(items))
		for i, item := range items {
			if err := decodeExact(item, out.Index(i), strict, path); err != nil {
				return err
			}
		}
		rv.Set(out)
		return nil
	case reflect.Struct:
		var members map[string]json.RawMessage
		if err := json.Unmarshal(raw, &members); err != nil {
			return typeError(path, t)
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			m, ok := members[name]
			if !ok {
				continue
			}
			delete(members, name) // what is left is unknown
			if err := decodeExact(m, rv.Field(i), strict, join(path, name)); err != nil {
				return err
			}
		}
		if strict && len(members) > 0 {
			return fmt.Errorf("unknown name %q", firstMember(raw, members))
		}
		return nil
	}
	return unmarshalAt(raw, rv, path)
}

// firstMember is the first name of object raw, in its order, that is in
// names.
func firstMember(raw []byte, names map[string]json.RawMessage) string {
	first := ""
	jsonscan.Members(raw, func(k string, _ []byte) bool {
		if _, ok := names[k]; ok && first == "" {
			first = k
		}
		return first == ""
	})
	if first == "" { // a name written with escapes: any of them
		first = slices.Sorted(maps.Keys(names))[0]
	}
	return first
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// unmarshalAt is json.Unmarshal into rv, its errors said in words.
func unmarshalAt(raw []byte, rv reflect.Value, path string) error {
	err := json.Unmarshal(raw, rv.Addr().Interface())
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		return typeError(join(path, te.Field), te.Type)
	}
	return errors.New("the body could not be read")
}

// typeError says that the value at path must be JSON of t's kind.
func typeError(path string, t reflect.Type) error {
	if path == "" {
		return errors.New("the body must be a JSON object")
	}
	return fmt.Errorf("%q must be %s", path, JSONTypeName(t))
}

func join(path, name string) string {
	switch {
	case path == "":
		return name
	case name == "":
		return path
	}
	return path + "." + name
}

// JSONTypeName names the JSON a Go type is decoded from.
func JSONTypeName(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return JSONTypeName(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another kind of value"
}
