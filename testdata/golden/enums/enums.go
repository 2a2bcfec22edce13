// Package enums covers //toolgen:enum on string and integer types, enums
// in flat parameters, and enum and tag combinations.
package enums

import "context"

// Level says how loud.
//
//toolgen:enum
type Level string

const (
	Quiet  Level = "quiet"
	Normal Level = "normal"
	Loud   Level = "loud"
	// Shout is an alias of Loud: listed once.
	Shout = Loud
)

// Weekday is an integer enum, in declaration order (not sorted).
//
//toolgen:enum
type Weekday int

const (
	Sunday Weekday = iota + 1
	Saturday
	Monday
)

// Unrelated has constants but no directive: no enum.
type Unrelated string

const Something Unrelated = "x"

type GreetInput struct {
	Name  string    `json:"name"`
	Level Level     `json:"level,omitempty" jsonschema:"default=normal"`
	Times int       `json:"times,omitempty" jsonschema:"default=1,minimum=1"`
	Days  []Weekday `json:"days,omitempty"`
	Other Unrelated `json:"other,omitempty"`
	// Rest is a day sent as a string ("3"): its values too.
	Rest Weekday `json:"rest,omitempty,string"`
	// Mood takes some of Level's values: the tag narrows the type's.
	Mood Level `json:"mood,omitempty" jsonschema:"enum=quiet,enum=loud"`
}

type Greeting struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

// Greet greets someone.
//
//toolgen:tool
func Greet(ctx context.Context, in GreetInput) (Greeting, error) {
	return Greeting{Text: "hi " + in.Name, Count: in.Times}, nil
}

// Schedule takes enums as flat parameters.
//
//toolgen:tool
func Schedule(day Weekday, level Level) string {
	return string(level)
}
