package contract

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Class is how a change affects the tool's callers.
type Class string

const (
	// Breaking: a caller that worked may now fail (or misread a result).
	Breaking Class = "breaking"
	// Compatible: every caller that worked still works.
	Compatible Class = "compatible"
	// Other: a change of policy a caller may notice (a timeout, a task
	// mode, a rate limit), listed and allowed.
	Other Class = "other"
)

// Part is what of a tool a change is in.
type Part string

const (
	PartTool        Part = "tool" // the tool itself: added, removed
	PartInput       Part = "input"
	PartOutput      Part = "output"
	PartAnnotations Part = "annotations"
	PartPolicy      Part = "policy"
)

// The rules, as a change names them. Each is one of the list
// (#43), and each has a golden case in testdata/contracts.
const (
	// Breaking.
	RuleToolRemoved          = "tool-removed"              // a tool removed, or renamed
	RuleInputRequired        = "input-property-required"   // made required, or added as required
	RuleInputRemoved         = "input-property-removed"    // removed while the schema refuses unknown properties (else compatible)
	RuleTypeNarrowed         = "type-narrowed"             // an input's type narrowed (a type, nullable, const, enum set)
	RuleInputEnumRemoved     = "input-enum-value-removed"  // a value an input's enum allowed is gone
	RuleBoundTightened       = "bound-tightened"           // minimum, maximum, lengths, items, pattern added, multipleOf
	RuleOutputRemoved        = "output-property-removed"   // removed or renamed
	RuleOutputRetyped        = "output-property-retyped"   // its type changed
	RuleOutputEnumAdded      = "output-enum-value-added"   // a caller may get a value it does not know
	RuleReadOnlyDestructive  = "readonly-made-destructive" // readOnlyHint true, now destructive
	RuleScopeAdded           = "scope-added"               // a caller needs a scope it may lack
	RuleApprovalRequired     = "approval-required"         // a call waits on a person now
	RuleOutputOther          = "output-narrowed"           // any other change of the output oasdiff calls breaking
	RuleInputOtherBreaking   = "input-narrowed"            // any other change of the input oasdiff calls breaking
	RuleInputOtherCompatible = "input-widened"             // any other change of the input oasdiff calls compatible

	// Compatible.
	RuleToolAdded        = "tool-added"
	RuleInputOptional    = "input-property-added-optional"
	RuleBoundLoosened    = "bound-loosened"
	RuleTypeWidened      = "type-widened"
	RuleInputEnumAdded   = "input-enum-value-added"
	RuleOutputAdded      = "output-property-added"
	RuleOutputCompatible = "output-compatible" // any other change of the output oasdiff calls compatible
	RuleDocs             = "docs-changed"      // descriptions, titles, examples
	RuleAnnotations      = "annotations-changed"

	// Other.
	RulePolicy = "policy-changed" // timeout, task, rate limit, a scope or an approval dropped
)

// Change is one difference between two locks.
type Change struct {
	Tool string `json:"tool"`
	Part Part   `json:"part"`
	// Pointer is a JSON Pointer into the input or output schema ("" for
	// its root, and for the other parts).
	Pointer string `json:"pointer"`
	Rule    string `json:"rule"`
	Class   Class  `json:"class"`
	Message string `json:"message"`
	// Allowed says the versions allow the change: always for compatible
	// and other changes; for a breaking one, when the tool's major version
	// was raised (at 0.x, its minor), or for a removed tool the toolkit's.
	Allowed bool `json:"allowed"`
	// Version says what the versions are and, when they do not allow the
	// change (or a compatible change left the version as it was), what to
	// raise: "1.0.0 → 2.0.0: major raised", "1.0.0: raise the major
	// version (2.0.0) for this breaking change".
	Version string `json:"version"`
}

// Where says where a change is, for a message: "input #/properties/city".
func (c *Change) Where() string {
	switch c.Part {
	case PartInput, PartOutput:
		return fmt.Sprintf("%s #%s", c.Part, c.Pointer)
	}
	return string(c.Part)
}

// String is the change in one line, without its position:
// "tool get_weather: input #/properties/days: input-property-required
// (breaking): ...; version ...".
func (c *Change) String() string {
	return fmt.Sprintf("tool %s: %s: %s (%s): %s; %s", c.Tool, c.Where(), c.Rule, c.Class, c.Message, c.Version)
}

// Compare lists the changes from old to new, sorted by tool, part and
// pointer. An error means a schema could not be read.
func Compare(old, new *Lock) ([]Change, error) {
	var out []Change
	kitVerdict := func() (bool, string) { return allows("toolkit version", old.Toolkit.Version, new.Toolkit.Version) }
	var both []string
	for _, ot := range old.Tools {
		if new.Tool(ot.Name) != nil {
			both = append(both, ot.Name)
			continue
		}
		ok, why := kitVerdict()
		out = append(out, Change{Tool: ot.Name, Part: PartTool, Rule: RuleToolRemoved, Class: Breaking,
			Message: "the tool is gone (removed, or renamed): its callers get an unknown tool", Allowed: ok, Version: why})
	}
	for _, nt := range new.Tools {
		if old.Tool(nt.Name) == nil {
			out = append(out, Change{Tool: nt.Name, Part: PartTool, Rule: RuleToolAdded, Class: Compatible,
				Message: "a new tool", Allowed: true, Version: "version " + nt.Version})
		}
	}
	schema, err := schemaChanges(old, new, both)
	if err != nil {
		return nil, err
	}
	out = append(out, schema...)
	for _, name := range both {
		ot, nt := old.Tool(name), new.Tool(name)
		out = append(out, annotationChanges(ot, nt)...)
		out = append(out, policyChanges(ot, nt)...)
		out = append(out, docChanges(ot, nt)...)
	}
	for i := range out {
		c := &out[i]
		if c.Part == PartTool {
			continue
		}
		ot, nt := old.Tool(c.Tool), new.Tool(c.Tool)
		ok, why := allows("version", ot.Version, nt.Version)
		switch c.Class {
		case Breaking:
			c.Allowed, c.Version = ok, why
		default:
			c.Allowed, c.Version = true, suggestMinor(ot.Version, nt.Version)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		if a.Part != b.Part {
			return partOrder(a.Part) < partOrder(b.Part)
		}
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.Rule < b.Rule
	})
	return out, nil
}

func partOrder(p Part) int {
	return slices.Index([]Part{PartTool, PartInput, PartOutput, PartAnnotations, PartPolicy}, p)
}

// Refused returns the breaking changes the versions do not allow.
func Refused(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if c.Class == Breaking && !c.Allowed {
			out = append(out, c)
		}
	}
	return out
}

// The annotations and the policy are MCP's and toolgen's, with no
// counterpart in an OpenAPI document: oasdiff cannot see them, and these
// rules are toolgen's own.

var hintNames = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// destructive is MCP's reading of the hints: a tool that is not read-only
// is destructive unless it says destructiveHint: false.
func destructive(a map[string]bool) bool {
	if a["readOnlyHint"] {
		return false
	}
	d, ok := a["destructiveHint"]
	return !ok || d
}

func annotationChanges(ot, nt *Tool) []Change {
	if reflect.DeepEqual(normHints(ot.Annotations), normHints(nt.Annotations)) {
		return nil
	}
	c := Change{Tool: nt.Name, Part: PartAnnotations, Rule: RuleAnnotations, Class: Compatible,
		Message: fmt.Sprintf("the hints changed from %s to %s", hints(ot.Annotations), hints(nt.Annotations))}
	if ot.Annotations["readOnlyHint"] && destructive(nt.Annotations) {
		c.Rule, c.Class = RuleReadOnlyDestructive, Breaking
		c.Message = fmt.Sprintf("the tool was read-only and is now destructive (%s → %s): a client that ran it unasked as read-only must now ask", hints(ot.Annotations), hints(nt.Annotations))
	}
	return []Change{c}
}

func normHints(a map[string]bool) map[string]bool {
	if len(a) == 0 {
		return nil
	}
	return a
}

func hints(a map[string]bool) string {
	var parts []string
	for _, k := range hintNames {
		if v, ok := a[k]; ok {
			parts = append(parts, fmt.Sprintf("%s: %v", k, v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func policyChanges(ot, nt *Tool) []Change {
	var out []Change
	add := func(rule string, class Class, format string, args ...any) {
		out = append(out, Change{Tool: nt.Name, Part: PartPolicy, Rule: rule, Class: class, Message: fmt.Sprintf(format, args...)})
	}
	op, np := ot.Policy, nt.Policy
	var added, dropped []string
	for _, s := range np.Scopes {
		if !slices.Contains(op.Scopes, s) {
			added = append(added, s)
		}
	}
	for _, s := range op.Scopes {
		if !slices.Contains(np.Scopes, s) {
			dropped = append(dropped, s)
		}
	}
	if len(added) > 0 {
		add(RuleScopeAdded, Breaking, "a caller now needs the scope %s: one without it no longer sees or calls the tool", strings.Join(added, ", "))
	}
	if len(dropped) > 0 {
		add(RulePolicy, Other, "the scope %s is no longer needed", strings.Join(dropped, ", "))
	}
	switch {
	case op.Approval == np.Approval:
	case op.Approval == "":
		add(RuleApprovalRequired, Breaking, "every call now waits for approval=%s: a caller that cannot wait, or whose client cannot ask, fails", np.Approval)
	default:
		add(RulePolicy, Other, "approval %s → %s", or(op.Approval, "none"), or(np.Approval, "none"))
	}
	for _, p := range []struct{ name, o, n string }{
		{"task", op.Task, np.Task},
		{"ratelimit", op.RateLimit, np.RateLimit},
		{"timeout", op.Timeout, np.Timeout},
	} {
		if p.o != p.n {
			add(RulePolicy, Other, "%s %s → %s", p.name, or(p.o, "none"), or(p.n, "none"))
		}
	}
	return out
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// docKeys are the keywords that document a schema and constrain nothing.
var docKeys = []string{"description", "title", "examples", "example", "$comment"}

// docChanges lists the schemas whose description, title or examples
// changed (compatible). oasdiff's checker does not report them: they are
// no change of the contract, but a release note lists them.
func docChanges(ot, nt *Tool) []Change {
	var out []Change
	for _, side := range []struct {
		part Part
		o, n json.RawMessage
	}{{PartInput, ot.Input, nt.Input}, {PartOutput, ot.Output, nt.Output}} {
		var o, n any
		if json.Unmarshal(side.o, &o) != nil || json.Unmarshal(side.n, &n) != nil {
			continue
		}
		walkDocs(o, n, "", func(ptr string, keys []string) {
			out = append(out, Change{Tool: nt.Name, Part: side.part, Pointer: ptr, Rule: RuleDocs, Class: Compatible,
				Message: "its " + strings.Join(keys, ", ") + " changed"})
		})
	}
	return out
}

// walkDocs calls f at each schema of both o and n (through properties,
// items, additionalProperties, $defs and the combinators) whose
// documenting keywords differ.
func walkDocs(o, n any, ptr string, f func(ptr string, keys []string)) {
	om, ok1 := o.(map[string]any)
	nm, ok2 := n.(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	var keys []string
	for _, k := range docKeys {
		if !reflect.DeepEqual(om[k], nm[k]) {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		f(ptr, keys)
	}
	for _, k := range []string{"items", "additionalProperties", "not", "if", "then", "else", "contains"} {
		walkDocs(om[k], nm[k], ptr+"/"+k, f)
	}
	for _, k := range []string{"properties", "$defs", "patternProperties"} {
		op, _ := om[k].(map[string]any)
		np, _ := nm[k].(map[string]any)
		for _, name := range sortedKeys(np) {
			if _, ok := op[name]; ok {
				walkDocs(op[name], np[name], ptr+"/"+k+"/"+escape(name), f)
			}
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		ol, _ := om[k].([]any)
		nl, _ := nm[k].([]any)
		for i := 0; i < len(ol) && i < len(nl); i++ {
			walkDocs(ol[i], nl[i], fmt.Sprintf("%s/%s/%d", ptr, k, i), f)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func escape(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }
