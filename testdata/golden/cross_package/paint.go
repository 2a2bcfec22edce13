// Package paint uses types of another package of the module: their doc
// comments and enum directives still count.
package paint

import (
	"context"

	"github.com/toolgen-go/toolgen/testdata/golden/cross_package/kinds"
)

type Input struct {
	Swatch kinds.Swatch `json:"swatch"`
	Accent kinds.Color  `json:"accent"`
}

// Paint paints with a color.
//
//toolgen:tool
func Paint(ctx context.Context, in Input) (kinds.Swatch, error) {
	return in.Swatch, nil
}
