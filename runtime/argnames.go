package runtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/internal/jsonscan"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// Names match as written. encoding/json matches an object's names to a
// struct's fields in any case: {"E": "zzz"} sets the field named "e".
// Validation reads names as written, so where a schema lets other
// properties through (a tools.yaml object without additionalProperties:
// false), "E" passes as one of them, unchecked, and encoding/json then put
// its value in "e", past that property's enum, pattern or bounds (beside
// a valid "e", it replaced it). DecodeArgs takes "E" for what the schema
// says it is, another property, which the Go type has no field for: it is
// ignored, as any other is. (A struct generated from Go code refuses other
// properties, so its calls never get that far.)
//
// Only a name a json tag gives is matched as written: a field without one
// is named by Go, and a hand-written schema beside it names the property
// as JSON does ("city" for City), which encoding/json's matching in any
// case has always joined. Every field toolgen generates has a tag.

// foldedName reports whether the JSON b, to be decoded into t, names a
// field of a struct within it in another case than the field's (or may:
// a name written with escapes is not read here).
func foldedName(b []byte, t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return false // it reads its JSON itself
	}
	found := false
	switch t.Kind() {
	case reflect.Struct:
		fs := fieldsOf(t)
		ok := jsonscan.MemberBytes(b, func(k, v []byte) bool {
			if ft, ok := fs.names[string(k)]; ok {
				found = foldedName(v, ft)
			} else {
				found = fs.folds(string(k))
			}
			return !found
		})
		return found || !ok && startsWith(b, '{') // an escape: not read here
	case reflect.Map:
		if !mayHoldStruct(t.Elem()) {
			return false
		}
		ok := jsonscan.Members(b, func(_ string, v []byte) bool {
			found = foldedName(v, t.Elem())
			return !found
		})
		return found || !ok && startsWith(b, '{')
	case reflect.Slice, reflect.Array:
		if !mayHoldStruct(t.Elem()) {
			return false
		}
		jsonscan.Elements(b, func(v []byte) bool {
			found = foldedName(v, t.Elem())
			return !found
		})
		return found
	}
	return false
}

// exactNames is args, which must be JSON, without the names foldedName
// finds: what json.Unmarshal then decodes into t is what a decoder that
// matches names as written would. Every other member is kept byte for
// byte (a json.RawMessage field gets what the client wrote); only where a
// name is written with escapes is the JSON decoded and written again.
func exactNames(args []byte, t reflect.Type) ([]byte, bool) {
	if b, ok := spliceFolded(nil, args, t); ok {
		return b, true
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber() // numbers are written back as they came
	var tree any
	if dec.Decode(&tree) != nil {
		return nil, false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(dropFolded(tree, t)) != nil {
		return nil, false
	}
	return bytes.TrimSpace(buf.Bytes()), true
}

// spliceFolded appends b, JSON to be decoded into t, to out without the
// names foldedName finds, the rest as written; false where a name is
// written with escapes (not read here).
func spliceFolded(out, b []byte, t reflect.Type) ([]byte, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || !mayHoldStruct(t) {
		return append(out, b...), true
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		if !startsWith(b, '{') {
			return append(out, b...), true // not an object: json.Unmarshal says so
		}
		var fs *jsonFields
		if t.Kind() == reflect.Struct {
			fs = fieldsOf(t)
		}
		out = append(out, '{')
		n, ok := 0, true
		walked := jsonscan.MemberBytes(b, func(k, v []byte) bool {
			var et reflect.Type // nil: another property, kept as written
			switch {
			case fs == nil:
				et = t.Elem() // a map's value
			case fs.names[string(k)] != nil:
				et = fs.names[string(k)]
			case fs.folds(string(k)):
				return true // dropped
			}
			if n > 0 {
				out = append(out, ',')
			}
			n++
			out = append(append(append(out, '"'), k...), '"', ':')
			if et == nil {
				out = append(out, v...)
				return true
			}
			out, ok = spliceFolded(out, v, et)
			return ok
		})
		return append(out, '}'), walked && ok
	case reflect.Slice, reflect.Array:
		if !startsWith(b, '[') {
			return append(out, b...), true
		}
		out = append(out, '[')
		n, ok := 0, true
		walked := jsonscan.Elements(b, func(v []byte) bool {
			if n > 0 {
				out = append(out, ',')
			}
			n++
			out, ok = spliceFolded(out, v, t.Elem())
			return ok
		})
		return append(out, ']'), walked && ok
	}
	return append(out, b...), true
}

// dropFolded removes from v, JSON decoded into a tree, the names that
// match a field of a struct only in another case.
func dropFolded(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			fs := fieldsOf(t)
			for k, e := range x {
				if ft, ok := fs.names[k]; ok {
					x[k] = dropFolded(e, ft)
				} else if fs.folds(k) {
					delete(x, k)
				}
			}
		case reflect.Map:
			for k, e := range x {
				x[k] = dropFolded(e, t.Elem())
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, e := range x {
				x[i] = dropFolded(e, t.Elem())
			}
		}
	}
	return v
}

// mayHoldStruct reports whether a value of t may hold a struct that
// encoding/json decodes by its fields.
func mayHoldStruct(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		return true
	case reflect.Map, reflect.Slice, reflect.Array:
		return mayHoldStruct(t.Elem())
	}
	return false
}

func startsWith(b []byte, c byte) bool {
	i := jsonscan.Space(b, 0)
	return i < len(b) && b[i] == c
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// jsonFields are the names encoding/json decodes a struct's fields from,
// with each field's type, and those of them a json tag gives.
type jsonFields struct {
	names  map[string]reflect.Type
	tagged []string
}

// folds reports whether k is a name a tag gives in another case, as
// encoding/json folds them (bytes.EqualFold), and none as written.
func (fs *jsonFields) folds(k string) bool {
	for _, name := range fs.tagged {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

var fieldsCache sync.Map // reflect.Type → *jsonFields

// fieldsOf returns the JSON names of struct t's fields, as encoding/json
// (and the schemas, typeschema.JSONFields) resolves them.
func fieldsOf(t reflect.Type) *jsonFields {
	if fs, ok := fieldsCache.Load(t); ok {
		return fs.(*jsonFields)
	}
	fs := &jsonFields{names: map[string]reflect.Type{}}
	for _, f := range typeschema.JSONFields(typeschema.Reflect(t)) {
		fs.names[f.Name] = t.FieldByIndex(f.Index).Type
		if f.Tagged {
			fs.tagged = append(fs.tagged, f.Name)
		}
	}
	got, _ := fieldsCache.LoadOrStore(t, fs)
	return got.(*jsonFields)
}
