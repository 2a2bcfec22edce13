package toolsyaml

import (
	"fmt"
	"strings"
	"testing"
)

// render prints the declarations compactly, one a line, for comparison.
func render(ts *Types) string {
	var b strings.Builder
	for _, d := range ts.Decls {
		switch d.Kind {
		case DeclStruct:
			fmt.Fprintf(&b, "struct %s //%s\n", d.Name, d.Doc)
			for _, f := range d.Fields {
				opt := ""
				if f.Optional {
					opt = ",optional"
				}
				fmt.Fprintf(&b, "  %s %s `%s%s` //%s\n", f.Name, f.Type, f.JSONName, opt, f.Doc)
			}
		case DeclEnum:
			var vals []string
			for _, v := range d.Values {
				vals = append(vals, v.Name+"="+string(v.Value))
			}
			fmt.Fprintf(&b, "enum %s %s {%s} //%s\n", d.Name, d.Underlying, strings.Join(vals, " "), d.Doc)
		case DeclDefined:
			fmt.Fprintf(&b, "type %s %s //%s\n", d.Name, d.Underlying, d.Doc)
		}
	}
	return b.String()
}

func TestGoTypes(t *testing.T) {
	src := `tools:
  - name: plan_trip
    input:
      type: object
      description: A trip to plan.
      properties:
        destination: {type: string, description: Where to.}
        user_id: {type: integer}
        budget: {type: number}
        flexible: {type: boolean}
        start: {type: string, format: date-time}
        mode: {type: string, enum: [train, plane, self-drive], description: How to travel.}
        stops:
          type: array
          items:
            type: object
            properties:
              city: {type: string}
              nights: {type: integer, minimum: 1}
            required: [city]
        tags: {type: object, additionalProperties: {type: string}}
        extra: {type: object}
        home: {$ref: "#/$defs/place"}
        choice: {oneOf: [{type: string}, {type: integer}]}
        note: {type: [string, "null"]}
        anything: {}
        level: {enum: [1, 2, 3]}
        mixed: {enum: [1, "a"]}
      required: [destination, start]
      $defs:
        place:
          type: object
          description: A place.
          properties:
            name: {type: string}
            near: {$ref: "#/$defs/place"}
          required: [name]
    output: {type: number, description: The cost.}
  - name: ring
    input:
      type: object
      properties:
        id: {type: string}
      required: [id]
`
	f, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := GoTypes(f)
	if err != nil {
		t.Fatal(err)
	}
	want := "struct PlanTripInput //A trip to plan.\n" +
		"  Destination string `destination` //Where to.\n" +
		"  UserID int64 `user_id,optional` //\n" +
		"  Budget float64 `budget,optional` //\n" +
		"  Flexible bool `flexible,optional` //\n" +
		"  Start time.Time `start` //\n" +
		"  Mode PlanTripInputMode `mode,optional` //How to travel.\n" +
		"  Stops []PlanTripInputStopsItem `stops,optional` //\n" +
		"  Tags map[string]string `tags,optional` //\n" +
		"  Extra map[string]json.RawMessage `extra,optional` //\n" +
		"  Home *PlanTripPlace `home,optional` //\n" +
		"  Choice json.RawMessage `choice,optional` //\n" +
		"  Note *string `note,optional` //\n" +
		"  Anything json.RawMessage `anything,optional` //\n" +
		"  Level PlanTripInputLevel `level,optional` //\n" +
		"  Mixed json.RawMessage `mixed,optional` //\n" +
		"enum PlanTripInputMode string {PlanTripInputModeTrain=\"train\" PlanTripInputModePlane=\"plane\" PlanTripInputModeSelfDrive=\"self-drive\"} //How to travel.\n" +
		"struct PlanTripInputStopsItem //\n" +
		"  City string `city` //\n" +
		"  Nights int64 `nights,optional` //\n" +
		"enum PlanTripInputLevel int64 {PlanTripInputLevel1=1 PlanTripInputLevel2=2 PlanTripInputLevel3=3} //\n" +
		"type PlanTripOutput float64 //The cost.\n" +
		"struct PlanTripPlace //A place.\n" +
		"  Name string `name` //\n" +
		"  Near *PlanTripPlace `near,optional` //\n" +
		"struct RingInput //\n" +
		"  ID string `id` //\n"
	if got := render(ts); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if ts.Input["plan_trip"].Name != "PlanTripInput" || ts.Output["plan_trip"].Name != "PlanTripOutput" || ts.Output["ring"] != nil {
		t.Errorf("tool types: %v %v %v", ts.Input, ts.Output["plan_trip"], ts.Output["ring"])
	}
}

// Generated names never collide and never stop generation: types,
// properties, enum constants and tools that would share a Go name are
// named apart, signs spelled out, else numbered.
func TestGoNamesApart(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"type clash", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        x: {type: string}\n      $defs:\n        input: {type: string}\n",
			"struct AInput //\n  X string `x,optional` //\ntype AInput2 string //\n"},
		{"field clash", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        user_id: {type: string}\n        userId: {type: string}\n        user-id: {type: string}\n",
			"struct AInput //\n  UserID string `user_id,optional` //\n  UserID2 string `userId,optional` //\n  UserID3 string `user-id,optional` //\n"},
		{"signed properties", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        '+1': {type: integer}\n        '-1': {type: integer}\n        x1: {type: integer}\n        X1: {type: integer}\n",
			"struct AInput //\n  Plus1 int64 `+1,optional` //\n  Minus1 int64 `-1,optional` //\n  X1 int64 `x1,optional` //\n  X1_2 int64 `X1,optional` //\n"},
		{"enum clash", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        m: {enum: [a-b, a_b, in-progress]}\n",
			"struct AInput //\n  M AInputM `m,optional` //\nenum AInputM string {AInputMAB=\"a-b\" AInputMAB2=\"a_b\" AInputMInProgress=\"in-progress\"} //\n"},
		{"reactions", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        content: {enum: ['+1', '-1', laugh]}\n        sort: {enum: [reactions, reactions-+1, reactions--1]}\n",
			"struct AInput //\n  Content AInputContent `content,optional` //\n  Sort AInputSort `sort,optional` //\n" +
				"enum AInputContent string {AInputContentPlus1=\"+1\" AInputContentMinus1=\"-1\" AInputContentLaugh=\"laugh\"} //\n" +
				"enum AInputSort string {AInputSortReactions=\"reactions\" AInputSortReactionsPlus1=\"reactions-+1\" AInputSortReactionsMinus1=\"reactions--1\"} //\n"},
		// A constant that would be a type's name, and the reverse: the
		// tools' Input and Output types keep theirs.
		{"constant and type", "$defs:\n  s: {enum: [input, b_input]}\ntools:\n  - name: s\n    input:\n      type: object\n      properties:\n        b: {type: object, properties: {c: {type: string}}}\n",
			"enum S string {SInput2=\"input\" SBInput=\"b_input\"} //\nstruct SInput //\n  B *SInputB `b,optional` //\nstruct SInputB //\n  C string `c,optional` //\n"},
		{"API names", "$defs:\n  handlers: {type: string}\n  tools: {type: integer}\ntools:\n  - name: a\n    input: {type: object}\n",
			"type Handlers2 string //\ntype Tools2 int64 //\ntype AInput map[string]json.RawMessage //\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("t.yaml", []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			ts, err := GoTypes(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := render(ts); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// Two tools whose names share a Go name are numbered apart, types and
// all: get_x is GetX, get-x GetX2.
func TestToolGoNamesApart(t *testing.T) {
	f, err := Parse("t.yaml", []byte("tools:\n  - name: get_x\n    input: {type: object}\n  - name: get-x\n    input: {type: object}\n    output: {type: string}\n  - name: get_x2\n    input: {type: object}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range f.Tools {
		names = append(names, tl.GoName)
	}
	if got := strings.Join(names, " "); got != "GetX GetX2 GetX2_2" {
		t.Errorf("Go names %s", got)
	}
	ts, err := GoTypes(f)
	if err != nil {
		t.Fatal(err)
	}
	if ts.Input["get-x"].Name != "GetX2Input" || ts.Output["get-x"].Name != "GetX2Output" || ts.Input["get_x2"].Name != "GetX2_2Input" {
		t.Errorf("types %v %v %v", ts.Input["get-x"], ts.Output["get-x"], ts.Input["get_x2"])
	}
}

func TestValueName(t *testing.T) {
	for in, want := range map[string]string{
		"+1": "Plus1", "-1": "Minus1", "reactions-+1": "ReactionsPlus1", "reactions--1": "ReactionsMinus1",
		"in-progress": "InProgress", "utc-5": "Utc5", "a+b": "APlusB", "x": "X", "--": "X", "-": "X", "1-2": "X12",
	} {
		if got := valueName(in); got != want {
			t.Errorf("valueName(%q) = %s, want %s", in, got, want)
		}
	}
}
