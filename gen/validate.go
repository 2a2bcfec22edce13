package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgen-go/toolgen/internal/compile"
	"github.com/toolgen-go/toolgen/internal/fastcheck"
)

// compileSchema compiles a schema as the runtime will (draft 2020-12, no
// external references), so that a schema that would fail at run time fails
// at generation time instead.
func compileSchema(raw []byte) (*jsonschema.Schema, error) {
	if !json.Valid(raw) {
		var v any
		err := json.Unmarshal(raw, &v)
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	s, err := compile.Schema(raw)
	if err != nil {
		return nil, schemaProblem(err)
	}
	return s, nil
}

// schemaProblem says why a schema does not compile without the compiler's
// internals: for a schema that fails the draft's meta-schema, where and how.
func schemaProblem(err error) error {
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return fmt.Errorf("not a valid JSON Schema: %s", flattenValidation(ve))
	}
	var se *jsonschema.SchemaError
	if errors.As(err, &se) && se.Err != nil {
		return errors.New(strings.TrimPrefix(se.Err.Error(), "jsonschema: "))
	}
	return err
}

func checkSchema(raw []byte) error {
	_, err := compileSchema(raw)
	return err
}

// knownValid reports whether value certainly matches schema, as the fast
// checker the runtime puts in front of its validator tells, without
// compiling the schema: most examples and defaults do, and compiling a
// schema (checking it against the draft's metaschema above all) is most of
// what checking them the full way costs. A schema the checker takes is
// one that compiles. False means only: check the full way, which says
// what is wrong.
func knownValid(fast *fastcheck.Checker, value []byte) bool {
	return fast != nil && fast.Valid(value)
}

// fastChecker is schema's fast checker, or nil where it takes the full
// way. The bounds are the runtime's (an example is an argument body); a
// value past them is simply checked the full way.
func fastChecker(schema []byte) *fastcheck.Checker {
	return fastcheck.Compile(schema, fastcheck.Limits{MaxNesting: 128, MaxMantissa: 1000, MaxExponent: 1000})
}

// validateExample checks an example against the compiled input schema.
func validateExample(s *jsonschema.Schema, example []byte) error {
	dec := json.NewDecoder(bytes.NewReader(example))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if err := s.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return errors.New(flattenValidation(ve))
		}
		return err
	}
	return nil
}

// flattenValidation lists the leaf failures of a validation error, "at
// /path: message", one after another.
func flattenValidation(ve *jsonschema.ValidationError) string {
	var parts []string
	var walk func(*jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) == 0 {
			loc := v.InstanceLocation
			if loc == "" {
				loc = "/"
			}
			parts = append(parts, "at "+loc+": "+v.Message)
			return
		}
		for _, c := range v.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; ")
}
