package gen

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/gen/internal/parity"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// The generator (go/types, from source) and runtime.NewTool (reflect) apply
// one rule set: for the same functions they give identical input and output
// schemas and signatures, except for descriptions that come from doc
// comments, which reflection cannot see.
func TestParity(t *testing.T) {
	g := testGenerator(t, moduleRoot(t))
	units := g.loadGo([]string{"./gen/internal/parity"})
	if err := g.errs.err(); err != nil {
		t.Fatal(err)
	}
	generated := map[string]*tool{}
	for _, tl := range units[0].tools {
		generated[tl.name] = tl
	}
	runtimeTools := parity.RuntimeTools()
	if len(runtimeTools) != len(generated) {
		t.Fatalf("%d run-time tools, %d generated", len(runtimeTools), len(generated))
	}
	for _, rt := range runtimeTools {
		gt := generated[rt.Name]
		if gt == nil {
			t.Errorf("%s: not generated", rt.Name)
			continue
		}
		for _, side := range []struct {
			what     string
			gen, run json.RawMessage
		}{{"input", gt.input, rt.InputSchema}, {"output", gt.output, rt.OutputSchema}} {
			if (side.gen == nil) != (side.run == nil) {
				t.Errorf("%s %s schema: generated %s, run time %s", rt.Name, side.what, side.gen, side.run)
				continue
			}
			if side.gen == nil {
				continue
			}
			got := withoutDocDescriptions(t, side.gen, side.run)
			if !bytes.Equal(got, side.run) {
				t.Errorf("%s %s schema differs\ngenerated: %s\nrun time:  %s", rt.Name, side.what, got, side.run)
			}
		}
		if gt.signature != rt.Signature {
			t.Errorf("%s signature:\ngenerated: %s\nrun time:  %s", rt.Name, gt.signature, rt.Signature)
		}
	}
	// The fixture does have doc-comment descriptions, so the comparison
	// above did remove something.
	if bytes.Equal(withoutDocDescriptions(t, generated["describe"].input, runtimeTools[0].InputSchema), generated["describe"].input) {
		t.Error("the generated schema has no doc-comment descriptions: the fixture lost its docs")
	}
}

// withoutDocDescriptions removes from gen each "description" that run
// lacks at the same place: those came from doc comments.
func withoutDocDescriptions(t *testing.T, gen, run json.RawMessage) json.RawMessage {
	t.Helper()
	out, err := stripDescriptions(gen, run)
	if err != nil {
		t.Fatalf("%v\n%s", err, gen)
	}
	return out
}

func stripDescriptions(gen, run json.RawMessage) (json.RawMessage, error) {
	g, err := typeschema.ParseObject(gen)
	if err != nil {
		// Not an object: arrays are walked element by element.
		var ga, ra []json.RawMessage
		if json.Unmarshal(gen, &ga) == nil && json.Unmarshal(run, &ra) == nil && len(ga) == len(ra) {
			for i := range ga {
				if ga[i], err = stripDescriptions(ga[i], ra[i]); err != nil {
					return nil, err
				}
			}
			return json.Marshal(ga)
		}
		return gen, nil
	}
	r, rerr := typeschema.ParseObject(run)
	if rerr != nil {
		return gen, nil
	}
	kept := g.Members[:0]
	for _, m := range g.Members {
		rv := r.Get(m.Key)
		if m.Key == "description" && rv == nil {
			continue
		}
		if rv != nil {
			v, err := stripDescriptions(m.Value, rv)
			if err != nil {
				return nil, err
			}
			m.Value = v
		}
		kept = append(kept, m)
	}
	g.Members = kept
	return g.MarshalJSON()
}
