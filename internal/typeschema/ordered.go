package typeschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Object is a JSON object that keeps its keys in order. Values stay JSON
// text until asked for.
type Object struct {
	Members []Member
}

// Member is one key of an [Object].
type Member struct {
	Key   string
	Value json.RawMessage
}

// ParseObject reads a JSON object, keeping its key order.
func ParseObject(data []byte) (*Object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := &Object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.Members = append(o.Members, Member{Key: tok.(string), Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the JSON object")
	}
	return o, nil
}

// Get returns the value of key, or nil.
func (o *Object) Get(key string) json.RawMessage {
	for _, m := range o.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// Object returns the value of key as an object, or nil when it is absent or
// not an object.
func (o *Object) Object(key string) *Object {
	v := o.Get(key)
	if v == nil {
		return nil
	}
	obj, err := ParseObject(v)
	if err != nil {
		return nil
	}
	return obj
}

// String returns the value of key when it is a string.
func (o *Object) String(key string) (string, bool) {
	var s string
	if v := o.Get(key); v != nil && json.Unmarshal(v, &s) == nil {
		return s, true
	}
	return "", false
}

// Set replaces key's value, or appends the key.
func (o *Object) Set(key string, v json.RawMessage) {
	for i := range o.Members {
		if o.Members[i].Key == key {
			o.Members[i].Value = v
			return
		}
	}
	o.Members = append(o.Members, Member{Key: key, Value: v})
}

// MarshalJSON writes the object compactly, in its key order.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.Members {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, m.Key)
		b.WriteByte(':')
		if err := json.Compact(&b, m.Value); err != nil {
			return nil, fmt.Errorf("value of %q: %w", m.Key, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
