package httpkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

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
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		if te.Field == "" {
			return errors.New("the body must be a JSON object")
		}
		return fmt.Errorf("%q must be %s", te.Field, JSONTypeName(te.Type))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("unknown name %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return errors.New("the body could not be read")
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
