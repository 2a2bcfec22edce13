package jsonscan

import (
	"encoding/json"
	"slices"
	"testing"
)

// Members yields an object's members as written, in order, and refuses
// what a caller reading keys as written would misread.
func TestMembers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // key=value, nil for false
	}{
		{`{}`, []string{}},
		{` { } `, []string{}},
		{`{"a":1,"b" : [1, {"c":"}"}] ,"d":"x\"y"}`, []string{`a=1`, `b=[1, {"c":"}"}]`, `d="x\"y"`}},
		{`{"a":true,"b":null,"c":-1.5e3}`, []string{`a=true`, `b=null`, `c=-1.5e3`}},
		{`{"a\u0062":1}`, nil},
		{`[1]`, nil},
		{`"x"`, nil},
		{`{"a":1} {}`, nil},
	} {
		var got []string
		ok := Members([]byte(tc.in), func(k string, v []byte) bool {
			got = append(got, k+"="+string(v))
			return true
		})
		if tc.want == nil {
			if ok {
				t.Errorf("Members(%s) = true, %q; want false", tc.in, got)
			}
			continue
		}
		if !ok || !slices.Equal(got, tc.want) {
			t.Errorf("Members(%s) = %v, %q; want %q", tc.in, ok, got, tc.want)
		}
	}
	stop := Members([]byte(`{"a":1,"b":2}`), func(k string, _ []byte) bool { return k != "a" })
	if stop {
		t.Error("Members went on after f said false")
	}
}

// Elements yields an array's elements as written, in order.
func TestElements(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // nil for false
	}{
		{`[]`, []string{}},
		{` [ ] `, []string{}},
		{`[1, "a]", {"b":[2,3]} ,null]`, []string{`1`, `"a]"`, `{"b":[2,3]}`, `null`}},
		{`{"a":1}`, nil},
		{`[1] []`, nil},
		{`"x"`, nil},
	} {
		var got []string
		ok := Elements([]byte(tc.in), func(v []byte) bool {
			got = append(got, string(v))
			return true
		})
		if tc.want == nil {
			if ok {
				t.Errorf("Elements(%s) = true, %q; want false", tc.in, got)
			}
			continue
		}
		if !ok || !slices.Equal(got, tc.want) {
			t.Errorf("Elements(%s) = %v, %q; want %q", tc.in, ok, got, tc.want)
		}
	}
	if Elements([]byte(`[1,2]`), func(v []byte) bool { return string(v) != "1" }) {
		t.Error("Elements went on after f said false")
	}
}

// On any valid object, Members gives values that are JSON under the keys
// encoding/json reads, all of them when no key has an escape.
func FuzzMembers(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !Valid(b, maxDepth) {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			return // not an object
		}
		seen := map[string]bool{}
		ok := Members(b, func(k string, v []byte) bool {
			if !json.Valid(v) {
				t.Fatalf("Members(%q): %q=%q is not a value", b, k, v)
			}
			seen[k] = true
			return true
		})
		for k := range seen {
			if _, ok := m[k]; !ok {
				t.Fatalf("Members(%q) gave %q, which encoding/json does not", b, k)
			}
		}
		if ok && len(seen) != len(m) {
			t.Fatalf("Members(%q) gave %d keys, encoding/json %d", b, len(seen), len(m))
		}
	})
}

// Deeper counts brackets outside strings as depth does, valid JSON or not.
func FuzzDeeper(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Deeper(b, maxDepth), depth(b) > maxDepth; got != want {
			t.Fatalf("Deeper(%q) = %v, want %v", b, got, want)
		}
	})
}
