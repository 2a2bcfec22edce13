// Package params covers //toolgen:param: descriptions and schema keywords
// for the parameters of flat-form tools, checked like jsonschema tags.
package params

import (
	"context"
	"fmt"
	"strings"
)

// Unit is a temperature scale.
//
//toolgen:enum
type Unit string

const (
	Celsius    Unit = "celsius"
	Fahrenheit Unit = "fahrenheit"
)

// Convert converts a temperature.
//
//toolgen:tool
//toolgen:param value description="The temperature to convert, in from's unit." minimum=-459.67
//toolgen:param from description="The scale value is in." default=celsius
//toolgen:param to description="The scale to convert to."
//toolgen:example {"value":21.5,"to":"fahrenheit"}
func Convert(value float64, from, to Unit) (string, error) {
	return fmt.Sprintf("%g %s to %s", value, from, to), nil
}

// Repeat repeats a word.
//
//toolgen:tool
//toolgen:param word description="The word, with a comma, even." minLength=1 pattern=^[a-z]+$
//toolgen:param times description="How often." minimum=1 maximum=10 default=2
//toolgen:param sep description="What goes between." enum=- enum=+ enum=" " default=-
//toolgen:param upper description="Upper-case it." default=false
//toolgen:param tags description="Tags, up to three." maxItems=3 default=["x"] required
func Repeat(ctx context.Context, word string, times int, sep string, upper bool, tags []string) (string, error) {
	s := strings.Repeat(word+sep, times)
	if upper {
		s = strings.ToUpper(s)
	}
	return s + strings.Join(tags, ","), nil
}

// Box is a receiver with a flat-parameter tool method.
type Box struct{ Prefix string }

// Label labels a box.
//
//toolgen:tool
//toolgen:param text description="The label." default=fragile
func (b *Box) Label(text string) string { return b.Prefix + text }
