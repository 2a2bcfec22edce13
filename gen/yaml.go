package gen

import (
	"go/token"

	"github.com/dave/jennifer/jen"
)

// yamlUnit is what a tools.yaml adds to a unit.
type yamlUnit struct{}

func tokenPosition(file string) token.Position { return token.Position{Filename: file} }

func (g *generator) loadYAML(path string) *unit {
	g.errs.add(tokenPosition(path), "tools.yaml is not supported yet")
	return nil
}

func emitYAML(f *jen.File, u *unit) {}
