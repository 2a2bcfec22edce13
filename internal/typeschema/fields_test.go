package typeschema

//lint:file-ignore SA5008 the quirks type has odd json tags on purpose: encoding/json is the reference

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// jsonFields must name exactly the properties encoding/json writes: for
// each type, a fully populated value is marshalled and its keys compared.

type Inner struct {
	A string
	B string `json:"b"`
}

type Other struct {
	A string
	C string
}

type tagged struct {
	T string `json:"t"`
}

type deep struct{ Inner }

type clash struct {
	Inner        // A and B at depth 1
	Other        // A clashes with Inner.A: both dropped; C stays
	B     string `json:"b"` // depth 0 wins over Inner.B
}

type tagWins struct {
	Inner        // A untagged at depth 1
	Named tagged // not embedded: a property
	X     struct {
		A string `json:"A"`
	} `json:"-"`
	tagged // unexported embedded struct: T promoted
}

type twoTagged struct {
	Inner
	Other2 struct{} `json:"other2,omitempty"`
	T1     tagged
	T2     `json:"t2"`
}

type T2 struct{ A string }

type ptrEmbed struct {
	*Inner
	Z string `json:""`
}

type deeper struct {
	deep        // Inner at depth 2
	A    string // depth 0 wins
}

type dupEmbed struct {
	Inner
	deep // Inner again, deeper: its fields lose
}

type quirks struct {
	Bad     string `json:"a,b,c"`   // name "a"
	Empty   string `json:",string"` // name from the field
	Weird   string `json:"héllo"`
	Space   string `json:"has space"`
	Invalid string `json:"\x01"` // invalid name: the field's name is used
	Dash    string `json:"-,"`
	Skip    string `json:"-"`
	lower   string
}

var _ = quirks{}.lower

func TestJSONFieldsMatchEncodingJSON(t *testing.T) {
	for _, v := range []any{
		Inner{}, clash{}, tagWins{}, twoTagged{}, ptrEmbed{Inner: &Inner{}}, deeper{}, dupEmbed{}, quirks{},
	} {
		rt := reflect.TypeOf(v)
		var got []string
		for _, f := range jsonFields(Reflect(rt)) {
			got = append(got, f.name)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var want []string
		for k := range m {
			want = append(want, k)
		}
		slices.Sort(want)
		sorted := slices.Sorted(slices.Values(got))
		if !slices.Equal(sorted, want) {
			t.Errorf("%s: jsonFields %v, encoding/json %v", rt, got, want)
		}
	}
}

type withDefaults struct {
	Count int    `json:"count,omitempty" jsonschema:"minimum=1,default=10"`
	Unit  string `json:"unit,string,omitempty" jsonschema:"default=\"m\""`
	Inner
	Nested struct {
		Depth int `json:"depth,omitempty" jsonschema:"default=2"`
	} `json:"nested"`
}

// TestForInputFields: one build gives ForType's schema and ObjectFields'
// properties (for a struct, or a pointer to one; none for anything else).
func TestForInputFields(t *testing.T) {
	for _, v := range []any{
		Inner{}, clash{}, tagWins{}, twoTagged{}, ptrEmbed{}, deeper{}, dupEmbed{}, quirks{}, withDefaults{},
		&withDefaults{}, map[string]Inner{}, []withDefaults{}, 3,
	} {
		rt := reflect.TypeOf(v)
		s, fields, _, err := ForInput(Reflect(rt), nil)
		if err != nil {
			t.Fatalf("%s: %v", rt, err)
		}
		want, err := ForType(Reflect(rt))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := mustJSON(t, s), mustJSON(t, want); got != want {
			t.Errorf("%s: schema\n%s\nwant ForType's\n%s", rt, got, want)
		}
		st := rt
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if st.Kind() != reflect.Struct {
			if fields != nil {
				t.Errorf("%s: fields %v, want none", rt, fields)
			}
			continue
		}
		wantFields, err := ObjectFields(Reflect(st))
		if err != nil {
			t.Fatal(err)
		}
		if len(fields) != len(wantFields) {
			t.Fatalf("%s: %d fields, ObjectFields %d", rt, len(fields), len(wantFields))
		}
		for i, f := range fields {
			w := wantFields[i]
			if f.Name != w.Name || !slices.Equal(f.Index, w.Index) || f.AsString != w.AsString || f.Pos != w.Pos ||
				len(f.Path) != len(w.Path) || mustJSON(t, f.Schema) != mustJSON(t, w.Schema) || string(f.Schema.Default) != string(w.Schema.Default) {
				t.Errorf("%s: field %d %+v, ObjectFields %+v", rt, i, f, w)
			}
		}
	}
}

func mustJSON(t *testing.T, s *Schema) string {
	t.Helper()
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A result's fields promoted through an embedded pointer are not required:
// encoding/json writes none of them when the pointer is nil. An input's
// are, as any other field (a call that gives them sets the pointer).
func TestEmbeddedPointerRequired(t *testing.T) {
	type result struct {
		*Inner
		Own string `json:"own"`
	}
	rt := Reflect(reflect.TypeFor[result]())
	out, err := ForOutput(rt)
	if err != nil {
		t.Fatal(err)
	}
	in, err := ForType(rt)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(result{Own: "x"})
	var written map[string]any
	_ = json.Unmarshal(b, &written)
	for _, name := range out.Required {
		if _, ok := written[name]; !ok {
			t.Errorf("the output requires %q, which encoding/json did not write: %s", name, b)
		}
	}
	if !slices.Contains(in.Required, "own") || len(in.Required) < 2 {
		t.Errorf("the input requires %v", in.Required)
	}
}

type colour string

// A result's nullable field with an enum tag can still be null:
// encoding/json writes a nil pointer as null.
func TestNarrowedEnumKeepsNull(t *testing.T) {
	type result struct {
		C *colour `json:"c" jsonschema:"enum=red,enum=green"`
	}
	s, err := ForOutput(Reflect(reflect.TypeFor[result]()))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	if !strings.Contains(string(b), `"enum":["red","green",null]`) {
		t.Errorf("the schema: %s", b)
	}
}
