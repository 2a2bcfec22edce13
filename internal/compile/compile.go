// Package compile compiles tool schemas the one way toolgen does everywhere:
// the runtime before serving, the generator to check a tools.yaml and the
// examples. A schema that compiles here compiles at run time.
package compile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// URL names every compiled schema in errors; a schema's own $id may
// override it.
const URL = "toolgen:///schema.json"

// Schema compiles src as JSON Schema draft 2020-12 (the dialect of a schema
// without $schema), with formats asserted. A tool's schema is
// self-contained: a $ref to anything outside it is an error, never a fetch
// from disk or network.
//
// An integer schema also holds its values to 64 bits (see [Int64Range]).
func Schema(src []byte) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("external reference %q is not allowed: a tool's schema must be self-contained", s)
	}
	c.RegisterExtension("toolgen-int64", nil, int64Ext{})
	if err := c.AddResource(URL, bytes.NewReader(src)); err != nil {
		return nil, err
	}
	return c.Compile(URL)
}

// MinInt64 and MaxInt64 are the range of [Int64Range], exactly.
var (
	MinInt64 = new(big.Rat).SetInt64(-1 << 63)
	MaxInt64 = new(big.Rat).SetInt64(1<<63 - 1)
)

// Int64Range reports whether the schema object m holds its values to 64
// bits. It is the rule that lets schemas of Go's 64-bit integers go
// without their ±2⁶³ bounds (which clients and models read as floats and
// show wrong) and still accept only values that decode: a schema whose
// "type" asks for "integer" but not "number" accepts only integers from
// -2⁶³ to 2⁶³-1, which every Go integer of 64 bits decodes (a uint64
// takes the upper half of its range only when its schema says so with a
// larger maximum). A schema that sets a bound (minimum, maximum,
// exclusiveMinimum, exclusiveMaximum) outside that range widens it: its
// own bounds are then the only ones. The fast checker
// (internal/fastcheck) applies the same rule.
func Int64Range(m map[string]any) bool {
	integer, number := false, false
	switch t := m["type"].(type) {
	case string:
		integer, number = t == "integer", t == "number"
	case []any:
		for _, e := range t {
			integer = integer || e == "integer"
			number = number || e == "number"
		}
	}
	if !integer || number {
		return false
	}
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		r, ok := rat(v)
		if ok && (r.Cmp(MinInt64) < 0 || r.Cmp(MaxInt64) > 0) {
			return false
		}
	}
	return true
}

// OutOfRange is the message of an integer the 64-bit rule refuses.
func OutOfRange(n string) string {
	return fmt.Sprintf("integer %s is out of range: must be from -9223372036854775808 to 9223372036854775807", n)
}

// rat is a JSON number as an exact rational.
func rat(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(v))
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(v) == nil {
			return nil, false
		}
		return r, true
	case int:
		return new(big.Rat).SetInt64(int64(v)), true
	case int64:
		return new(big.Rat).SetInt64(v), true
	}
	return nil, false
}

type int64Ext struct{}

func (int64Ext) Compile(_ jsonschema.CompilerContext, m map[string]any) (jsonschema.ExtSchema, error) {
	if !Int64Range(m) {
		return nil, nil
	}
	return int64Ext{}, nil
}

// Validate refuses a whole number outside int64's range; anything else is
// left to the other keywords ("type" refuses 1.5 and "x").
func (int64Ext) Validate(ctx jsonschema.ValidationContext, v any) error {
	r, ok := rat(v)
	if !ok || !r.IsInt() {
		return nil
	}
	if r.Cmp(MinInt64) < 0 || r.Cmp(MaxInt64) > 0 {
		return ctx.Error("type", "%s", OutOfRange(fmt.Sprint(v)))
	}
	return nil
}
