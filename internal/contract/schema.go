package contract

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"

	"github.com/toolgen-go/toolgen/internal/openapi"
)

// The schemas' rules are oasdiff's: both locks' tools become the OpenAPI
// document toolgen emits for them (internal/openapi, the explorer's call
// path of each tool, its input schema the request body, its output schema
// the result's structuredContent), oasdiff diffs the two, and its checker
// classifies each change. Each finding then becomes one of toolgen's
// rules (ruleOf), by the direction (request: the input; response: the
// output) and what the finding's id says changed.
//
// Where toolgen's rule is its own, and why:
//   - request-property-removed is a warning for oasdiff whatever the
//     schema; for toolgen it breaks a caller only when the schema refuses
//     unknown properties (additionalProperties: false, as every Go struct's
//     schema does), since a caller that still sends it is then refused;
//     otherwise it is compatible (inputRemovedBreaks).
//   - response-optional-property-removed is information for oasdiff (an
//     optional property may be absent anyway); toolgen's rule is that a
//     result property removed or renamed breaks a caller that reads it.
//   - oasdiff states where a change is only in its message's arguments
//     (the structured path is unexported), in an order that depends on the
//     message: propertyOf finds the argument that is a property path of
//     the schema, and pointerOf turns oasdiff's "a/items/b" into the JSON
//     Pointer "/properties/a/items/properties/b" by walking the schema, so
//     that a property named "items" is still a property.
//   - The document has one response per status that carries a result
//     (200, 400, 500, 504): oasdiff reports an output change once for each,
//     and toolgen once.

// schemaChanges lists the changes of the schemas of the tools named in
// both locks.
func schemaChanges(old, new *Lock, names []string) ([]Change, error) {
	if len(names) == 0 {
		return nil, nil
	}
	build := func(l *Lock) (*load.SpecInfo, error) {
		var tools []openapi.Tool
		for _, name := range names {
			t := l.Tool(name)
			tools = append(tools, openapi.Tool{Name: t.Name, Input: t.Input, Output: t.Output})
		}
		doc, err := openapi.Build(tools, openapi.Options{Title: "tools.lock", Version: "0.0.0", Explorer: true})
		if err != nil {
			return nil, err
		}
		loader := openapi3.NewLoader()
		spec, err := loader.LoadFromData(doc)
		if err != nil {
			return nil, fmt.Errorf("reading the tools' OpenAPI document: %w", err)
		}
		return &load.SpecInfo{Spec: spec, Url: "tools.lock"}, nil
	}
	od, err := build(old)
	if err != nil {
		return nil, err
	}
	nd, err := build(new)
	if err != nil {
		return nil, err
	}
	d, sources, err := diff.GetPathsDiff(diff.NewConfig(), []*load.SpecInfo{od}, []*load.SpecInfo{nd})
	if err != nil {
		return nil, fmt.Errorf("comparing the schemas: %w", err)
	}
	found := checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), d, sources, checker.INFO)
	byPath := map[string]string{}
	for _, name := range names {
		byPath["/tools/"+name+"/call"] = name
	}
	loc := checker.NewDefaultLocalizer()
	seen := map[string]bool{}
	var out []Change
	for _, f := range found {
		ac, ok := f.(checker.ApiChange)
		if !ok {
			continue
		}
		name, ok := byPath[ac.Path]
		if !ok {
			continue
		}
		ot, nt := old.Tool(name), new.Tool(name)
		part := PartInput
		o, n := ot.Input, nt.Input
		if strings.HasPrefix(ac.Id, "response-") {
			part, o, n = PartOutput, ot.Output, nt.Output
		} else if !strings.Contains(ac.Id, "request-") {
			continue // the operation's own (its summary, its id): not the tool's schemas
		}
		var os, ns any
		_ = json.Unmarshal(o, &os)
		_ = json.Unmarshal(n, &ns)
		prop := propertyOf(ac, part, os, ns)
		ptr := pointerOf(prop, ns)
		if ptr == "" && prop != "" {
			ptr = pointerOf(prop, os)
		}
		rule, class := ruleOf(ac.Id, ac.Level, part)
		if rule == RuleInputRemoved && !inputRemovedBreaks(os, ptr) {
			class = Compatible
		}
		msg := message(ac.GetUncolorizedText(loc))
		key := strings.Join([]string{name, string(part), ptr, rule, msg}, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Change{Tool: name, Part: part, Pointer: ptr, Rule: rule, Class: class, Message: msg + " [oasdiff: " + ac.Id + "]"})
	}
	return out, nil
}

// ruleOf maps an oasdiff finding to toolgen's rule and class.
func ruleOf(id string, level checker.Level, part Part) (string, Class) {
	breaks := level >= checker.WARN
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(id, w) {
				return true
			}
		}
		return false
	}
	if part == PartOutput {
		switch {
		case has("optional-property-removed", "required-property-removed", "response-property-removed"):
			return RuleOutputRemoved, Breaking
		case has("optional-property-added", "required-property-added"):
			return RuleOutputAdded, Compatible
		case has("enum-value-added", "became-not-enum"):
			return RuleOutputEnumAdded, Breaking
		case has("type-changed", "type-generalized", "list-of-types-widened", "became-nullable"):
			return RuleOutputRetyped, Breaking
		case breaks:
			return RuleOutputOther, Breaking
		}
		return RuleOutputCompatible, Compatible
	}
	switch {
	case has("became-required", "new-required-request-property"):
		return RuleInputRequired, Breaking
	case has("new-optional-request-property"):
		return RuleInputOptional, Compatible
	case has("request-property-removed"):
		return RuleInputRemoved, Breaking
	case has("enum-value-removed"):
		return RuleInputEnumRemoved, Breaking
	case has("enum-value-added", "became-not-enum"):
		return RuleInputEnumAdded, Compatible
	case has("type", "nullable", "const", "became-enum"):
		if breaks {
			return RuleTypeNarrowed, Breaking
		}
		return RuleTypeWidened, Compatible
	case has("max", "min", "pattern", "multiple-of", "unique-items"):
		if breaks {
			return RuleBoundTightened, Breaking
		}
		return RuleBoundLoosened, Compatible
	case breaks:
		return RuleInputOtherBreaking, Breaking
	}
	return RuleInputOtherCompatible, Compatible
}

// valueFirst are the findings whose message names a value before the
// property: the property is their second argument.
var valueFirst = map[string]bool{
	"request-property-enum-value-removed":              true,
	"request-property-enum-value-added":                true,
	"request-property-pattern-added":                   true,
	"request-property-pattern-removed":                 true,
	"response-property-enum-value-added":               true,
	"response-property-enum-value-removed":             true,
	"response-property-pattern-added":                  true,
	"response-property-pattern-removed":                true,
	"request-property-x-extensible-enum-value-removed": true,
}

// propertyOf is the oasdiff property path a finding is about ("a/items/b",
// output ones without their "structuredContent/"), or "" for the schema's
// root: the argument that is a property path of either schema.
func propertyOf(ac checker.ApiChange, part Part, os, ns any) string {
	args := ac.Args
	if valueFirst[ac.Id] && len(args) > 1 {
		args = args[1:]
	}
	for _, a := range args {
		s, ok := a.(string)
		if !ok {
			continue
		}
		if part == PartOutput {
			var cut bool
			if s, cut = strings.CutPrefix(s, "structuredContent/"); !cut {
				continue
			}
		}
		if pointerOf(s, ns) != "" || pointerOf(s, os) != "" {
			return s
		}
	}
	return ""
}

// pointerOf turns an oasdiff property path into a JSON Pointer of schema,
// or "" when the path is not in it.
func pointerOf(path string, schema any) string {
	if path == "" {
		return ""
	}
	var b strings.Builder
	cur := schema
	for _, seg := range strings.Split(path, "/") {
		m, _ := cur.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		if p, ok := props[seg]; ok {
			b.WriteString("/properties/" + escape(seg))
			cur = p
			continue
		}
		if seg == "items" || seg == "additionalProperties" {
			if sub, ok := m[seg]; ok {
				b.WriteString("/" + seg)
				cur = sub
				continue
			}
		}
		return ""
	}
	return b.String()
}

// inputRemovedBreaks reports whether removing the property at ptr breaks
// a caller: whether the object that had it (in the old schema) refuses
// unknown properties.
func inputRemovedBreaks(old any, ptr string) bool {
	i := strings.LastIndex(ptr, "/properties/")
	if i < 0 {
		return true
	}
	cur := old
	for _, tok := range strings.Split(strings.TrimPrefix(ptr[:i], "/"), "/") {
		if tok == "" {
			continue
		}
		m, _ := cur.(map[string]any)
		cur = m[strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)]
	}
	m, _ := cur.(map[string]any)
	return m["additionalProperties"] == false || m["unevaluatedProperties"] == false
}

var statusSuffix = regexp.MustCompile(` (for (the )?(response )?status|with the) \S+( status)?$`)

// message is oasdiff's text of a finding, without the response status
// (one finding stands for all of them) or the result's wrapper.
func message(s string) string {
	s = statusSuffix.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "`structuredContent/", "`")
	s = strings.ReplaceAll(s, " from the response", " from the result")
	s = strings.ReplaceAll(s, " to the response", " to the result")
	s = strings.ReplaceAll(s, " response property", " result property")
	s = strings.ReplaceAll(s, " response's property", " result's property")
	s = strings.ReplaceAll(s, "request property", "input property")
	return strings.ReplaceAll(s, "`", "")
}
