// Package parity is the fixture of the parity test: the same Go types read
// by the generator from source and by runtime.NewTool through reflection
// must give identical schemas, descriptions from doc comments aside.
//
// Enums and verbatim schemas carry both forms: the directive for the
// generator, and the method for reflection.
package parity

import (
	"context"
	"encoding/json"
	"net/netip"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// Level is an enum.
//
//toolgen:enum
type Level string

const (
	Low  Level = "low"
	High Level = "high"
)

func (Level) ToolgenEnum() []any { return []any{Low, High} }

// Code is an integer enum.
//
//toolgen:enum
type Code uint8

const (
	OK      Code = 0
	Warning Code = 4
	Failure Code = 8
)

func (Code) ToolgenEnum() []any { return []any{OK, Warning, Failure} }

// Version has custom JSON.
//
//toolgen:schema {"type":"string","pattern":"^v[0-9]+$"}
type Version struct{ N int }

func (Version) ToolgenSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","pattern":"^v[0-9]+$"}`)
}
func (v Version) MarshalJSON() ([]byte, error) { return json.Marshal(v.N) }

// Meta is embedded.
type Meta struct {
	// Who asked.
	Owner string `json:"owner"`
	Trace string `json:"trace,omitempty"`
}

type Point struct {
	X, Y float64
}

// Tree is recursive.
type Tree struct {
	Label string  `json:"label"`
	Kids  []*Tree `json:"kids,omitempty"`
}

// Everything has a field for each rule.
type Everything struct {
	Meta
	// A documented field.
	Name     string          `json:"name" jsonschema:"minLength=1,maxLength=64,pattern=^[a-z]+$"`
	Level    Level           `json:"level,omitempty" jsonschema:"default=low"`
	Code     Code            `json:"code"`
	Count    int16           `json:"count"`
	Big      uint64          `json:"big,omitempty"`
	Ratio    float32         `json:"ratio" jsonschema:"exclusiveMinimum=0,maximum=1"`
	On       bool            `json:"on" jsonschema:"default=true"`
	Blob     []byte          `json:"blob,omitempty"`
	When     time.Time       `json:"when"`
	Timeout  time.Duration   `json:"timeout,omitempty"`
	Tags     []string        `json:"tags" jsonschema:"enum=a,enum=b,uniqueItems"`
	Grid     [2][2]int       `json:"grid"`
	Scores   map[string]int  `json:"scores"`
	ByID     map[int64]Point `json:"by_id"`
	Extra    map[string]any  `json:"extra,omitempty"`
	Raw      json.RawMessage `json:"raw,omitempty"`
	Version  Version         `json:"version"`
	Addr     netip.Addr      `json:"addr"`
	Tree     Tree            `json:"tree"`
	Ptr      *Point          `json:"ptr" jsonschema:"nullable"`
	Quoted   int             `json:"quoted,string"`
	Skip     string          `json:"-"`
	Hidden   string          `json:"hidden" jsonschema:"-"`
	Forced   string          `json:"forced,omitempty" jsonschema:"required,title=Forced,description=From the tag"`
	Examples string          `json:"examples,omitempty" jsonschema:"example=x,example=y,deprecated"`
	unexport int
}

var _ = Everything{}.unexport

// Summary is a structured result.
type Summary struct {
	Fields int      `json:"fields"`
	Levels []Level  `json:"levels"`
	Tree   *Tree    `json:"tree,omitempty"`
	Meta   Meta     `json:"meta"`
	Notes  []string `json:"notes"`
}

// Describe summarises everything.
//
//toolgen:tool
func Describe(ctx context.Context, in Everything) (Summary, error) { return Summary{}, nil }

// Grow returns a tree: a recursive root.
//
//toolgen:tool
func Grow(ctx context.Context, in Tree) (*Tree, error) { return &in, nil }

// Text returns text.
//
//toolgen:tool
func Text(ctx context.Context, in *Point) (string, error) { return "", nil }

// Picture returns content.
//
//toolgen:tool
func Picture(ctx context.Context, in Meta) (runtime.Content, error) { return runtime.Text(""), nil }

// Whole returns a result.
//
//toolgen:tool
func Whole(ctx context.Context, in Meta) (*runtime.Result, error) { return nil, nil }

// List returns an array.
//
//toolgen:tool
func List(ctx context.Context, in Meta) ([]Point, error) { return nil, nil }

// Numbers returns a map.
//
//toolgen:tool
func Numbers(ctx context.Context, in Meta) (map[string]float64, error) { return nil, nil }

// RuntimeTools are the fixture's functions made at run time (Tools would
// be the generated file's name).
func RuntimeTools() []runtime.Tool {
	return []runtime.Tool{
		runtime.MustNewTool("describe", "", Describe),
		runtime.MustNewTool("grow", "", Grow),
		runtime.MustNewTool("text", "", Text),
		runtime.MustNewTool("picture", "", Picture),
		runtime.MustNewTool("whole", "", Whole),
		runtime.MustNewTool("list", "", List),
		runtime.MustNewTool("numbers", "", Numbers),
	}
}
