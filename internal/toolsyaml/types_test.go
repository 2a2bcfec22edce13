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

func TestGoTypesErrors(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"type clash", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        x: {type: string}\n      $defs:\n        input: {type: string}\n", "t.yaml:8:16: the Go type AInput would be declared twice (first for 4:7); rename one of them"},
		{"field clash", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        user_id: {type: string}\n        userId: {type: string}\n", `t.yaml:7:9: properties "user_id" and "userId" of AInput have the same Go name UserID`},
		{"enum clash", "tools:\n  - name: a\n    input:\n      type: object\n      properties:\n        m: {enum: [a-b, a_b]}\n", "t.yaml:6:25: enum values of AInputM collide as the Go constant AInputMAB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("t.yaml", []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			_, err = GoTypes(f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}
