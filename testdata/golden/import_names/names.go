// Package names imports shapes as s and declares shapes itself: the
// generated file, which refers to shapes.Circle in a guard, imports it
// under a name of its own. It also imports a package named time, as the
// standard library's time that a tool's timeout needs is named, and
// declares json and runtime, the names of packages every generated file
// imports: those get names of their own too.
package names

import (
	"context"

	s "github.com/toolgen-go/toolgen/testdata/golden/import_names/shapes"
	"github.com/toolgen-go/toolgen/testdata/golden/import_names/time"
)

var shapes = []string{"circle"}

// json and runtime stand for what a program may call so (a jsoniter
// config, a runtime of its own).
var json, runtime = "jsoniter", "own"

type Input struct {
	Shape s.Circle `json:"shape"`
}

// Area computes an area.
//
//toolgen:tool
func Area(ctx context.Context, in Input) (float64, error) {
	_, _, _ = shapes, json, runtime
	return 3.14159 * in.Shape.Radius * in.Shape.Radius, nil
}

// Plan plans a trip of a span of days.
//
//toolgen:tool timeout=1500ns
func Plan(ctx context.Context, span time.Span) (string, error) {
	return "planned", nil
}
