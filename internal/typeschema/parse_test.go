package typeschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// decodeWithTokens is how parseNode read JSON before it read the bytes
// itself: json.Decoder's tokens, numbers as json.Number, objects in key
// order. The reference parseNode is held to.
func decodeWithTokens(data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var decode func() (any, error)
	decode = func() (any, error) {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return tok, nil
		}
		switch d {
		case '{':
			n := &node{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decode()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				if _, dup := n.vals[k]; !dup {
					n.keys = append(n.keys, k)
				}
				n.vals[k] = v
			}
			_, err := dec.Token()
			return n, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decode()
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		return nil, fmt.Errorf("unexpected %v", d)
	}
	v, err := decode()
	if err != nil {
		return nil
	}
	return v
}

var parseSeeds = []string{
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"b":{"type":"integer","minimum":-1.5e3,"default":10},"a":{"enum":["x","y",null,true,false]}},"required":["b"]}`,
	`{"a":1,"a":2,"b":[],"c":{},"d":[[1],[2,{"e":"\u00e9\n\"q\""}]]}`,
	" \t\n{ \"k\" : [ 1 , 2 ] } ", `"caf` + "\xff" + `"`, `"ünïcødé"`, `[]`, `{}`, `null`, `0`, `-0.5E+2`,
	`{"a":}`, `{"a" 1}`, `[1,]`, `{"a":1,}`, `tru`, `"open`, `{"a":1}{"b":2}`, `01`, `+1`, `"\x01"`, ``, `[`, `{"a":[1,2}`, `1x`, `1 x`, `"a"x`, `[1x]`,
}

// TestParseNode: parseNode gives what json.Decoder's tokens give: the
// values, numbers as written, key order, a repeated key's last value in
// its first place; the first value of several; nil for what is not JSON.
func TestParseNode(t *testing.T) {
	for _, s := range parseSeeds {
		checkParseNode(t, []byte(s))
	}
}

func FuzzParseNode(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkParseNode(t, []byte(s)) })
}

func checkParseNode(t *testing.T, data []byte) {
	if got, want := parseNode(data), decodeWithTokens(data); !reflect.DeepEqual(got, want) {
		t.Errorf("parseNode(%q) = %#v, want %#v", data, got, want)
	}
}
