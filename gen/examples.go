package gen

import (
	"encoding/json"
	"go/token"
)

// exampleCheck is a //toolgen:example to check against its tool's input
// schema.
type exampleCheck struct {
	tool    string
	schema  json.RawMessage
	example json.RawMessage
	pos     token.Position
}

// checkExamples checks every example against its tool's input schema, so
// that a wrong example fails at generation instead of in a client's hands.
//
// The schemas come from the type rules, which only write valid ones (the
// golden tests compile every one), so a schema is compiled only for its
// examples: once per distinct schema, and on every CPU, because compiling
// is most of what generation costs beyond loading the package.
func (g *generator) checkExamples() {
	checks := g.exampleChecks
	g.exampleChecks = nil
	if len(checks) == 0 {
		return
	}
	bySchema := map[string][]int{}
	var order []string
	for i, c := range checks {
		k := string(c.schema)
		if _, ok := bySchema[k]; !ok {
			order = append(order, k)
		}
		bySchema[k] = append(bySchema[k], i)
	}
	problems := make([]string, len(checks))
	forEach(len(order), func(j int) {
		k := order[j]
		s, err := compileSchema([]byte(k))
		for _, i := range bySchema[k] {
			if err != nil {
				problems[i] = "the input schema does not compile: " + err.Error()
			} else if err := validateExample(s, checks[i].example); err != nil {
				problems[i] = "does not match the input schema of " + checks[i].tool + ": " + err.Error()
			}
		}
	})
	for i, p := range problems {
		if p != "" {
			g.errs.add(checks[i].pos, "//toolgen:example %s", p)
		}
	}
}
