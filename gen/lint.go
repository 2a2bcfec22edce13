package gen

import (
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolgen-go/toolgen/internal/toolsyaml"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// Linting schemas for model providers (toolgen -lint claude,openai,gemini).
//
// A tool is only useful if the model behind a client accepts its input
// schema, and the providers' tool-calling APIs each take a different part
// of JSON Schema. With Config.Lint, every tool's input schema is walked
// once per profile, and each schema feature the provider rejects or drops
// is a warning ("lint(PROFILE): ...") at the Go field or tools.yaml key it
// comes from (else at the tool), naming the feature and the fix. The rules
// are one table, lintRules; the README lists them with their sources.
//
// Only input schemas are linted: they are what a client sends a provider
// as the tool's parameters. Output schemas stay between the server and the
// client (MCP's outputSchema), and no provider validates them.

// The lint profiles, as -lint names them.
const (
	LintClaude = "claude"
	LintOpenAI = "openai"
	LintGemini = "gemini"
)

// LintProfiles are the profiles -lint knows, in the order they report.
var LintProfiles = []string{LintClaude, LintOpenAI, LintGemini}

// ParseLintProfiles reads -lint's comma-separated list of profiles: each
// once, in LintProfiles' order. An unknown or empty name is an error that
// lists the known ones.
func ParseLintProfiles(s string) ([]string, error) {
	want := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		p = strings.ToLower(strings.TrimSpace(p))
		if !knownLintProfile(p) {
			if p == "" {
				return nil, fmt.Errorf("-lint %q: an empty profile name (known: %s)", s, strings.Join(LintProfiles, ", "))
			}
			return nil, fmt.Errorf("-lint: unknown profile %q (known: %s)", p, strings.Join(LintProfiles, ", "))
		}
		want[p] = true
	}
	var out []string
	for _, p := range LintProfiles {
		if want[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

func knownLintProfile(p string) bool {
	for _, k := range LintProfiles {
		if p == k {
			return true
		}
	}
	return false
}

// lintRule is one thing a provider rejects or drops.
type lintRule struct {
	profile string
	// feature names what is wrong, as the warning says it ("format", "$ref").
	feature string
	// check reports whether the rule applies at a node, and the detail to
	// name (the keyword or value found), "" for none.
	check func(n *lintNode) (string, bool)
	// why is what the provider does with it; fix is what to change.
	why, fix string
}

// lintNode is one schema in a tool's input schema, with where it is.
type lintNode struct {
	s    map[string]any
	ptr  string // JSON Pointer from the input schema's root; "" for the root
	root bool
	// property is the name of the property this schema is, when it is the
	// value of a "properties" entry; optional says it is not required.
	property string
	optional bool
}

// has reports whether the node has a keyword.
func (n *lintNode) has(k string) bool { _, ok := n.s[k]; return ok }

// isObject reports whether the node describes objects.
func (n *lintNode) isObject() bool {
	switch t := n.s["type"].(type) {
	case string:
		return t == "object"
	case []any:
		for _, x := range t {
			if x == "object" {
				return true
			}
		}
		return false
	}
	return n.has("properties")
}

// keywords returns which of ks the node has, in ks' order.
func (n *lintNode) keywords(ks ...string) []string {
	var out []string
	for _, k := range ks {
		if n.has(k) {
			out = append(out, k)
		}
	}
	return out
}

// openAIFormats are the string formats OpenAI's strict mode accepts.
var openAIFormats = map[string]bool{
	"date-time": true, "time": true, "date": true, "duration": true, "email": true,
	"hostname": true, "ipv4": true, "ipv6": true, "uuid": true,
}

// geminiKeywords are the fields of Gemini's Schema (the OpenAPI 3.0
// subset of FunctionDeclaration.parameters); any other key is refused as
// an unknown name. $ref, $defs, const, additionalProperties and type are
// rules of their own. $schema is refused too, but only names the dialect
// (MCP's default, draft 2020-12), which a client for Gemini drops without
// loss; the README says why it is not a finding.
var geminiKeywords = map[string]bool{
	"type": true, "format": true, "title": true, "description": true, "nullable": true, "enum": true,
	"maxItems": true, "minItems": true, "properties": true, "required": true, "minProperties": true,
	"maxProperties": true, "minLength": true, "maxLength": true, "pattern": true, "example": true,
	"anyOf": true, "propertyOrdering": true, "default": true, "items": true, "minimum": true, "maximum": true,
	"$ref": true, "$defs": true, "const": true, "additionalProperties": true, "$schema": true,
}

// draft7Keywords are keywords of earlier JSON Schema drafts that draft
// 2020-12 replaced.
var draft7Keywords = []string{"definitions", "dependencies", "additionalItems"}

const refFix = "inline the referenced schema (toolgen inlines every named Go type but a recursive one: break the recursion, or in a tools.yaml write the schema in place of the $ref)"

// lintRules is the table of rules, by profile. The README's table lists
// them with their sources: keep the two in step.
var lintRules = []lintRule{
	{
		profile: LintClaude, feature: "top-level combinator",
		check: func(n *lintNode) (string, bool) {
			ks := n.keywords("oneOf", "anyOf", "allOf")
			return strings.Join(ks, ", "), n.root && len(ks) > 0
		},
		why: "the Messages API refuses the whole request: input_schema does not support oneOf, allOf, or anyOf at the top level",
		fix: "make the input one object schema and check the combination in the tool (the alternatives can be properties, or a property's anyOf)",
	},
	{
		profile: LintClaude, feature: "$ref",
		check: func(n *lintNode) (string, bool) {
			ref, ok := n.s["$ref"].(string)
			return ref, ok
		},
		why: "Claude clients that do not resolve references fail to list the tool, or send the model a reference without its definition",
		fix: refFix,
	},
	{
		profile: LintClaude, feature: "not draft 2020-12",
		check: func(n *lintNode) (string, bool) {
			if s, ok := n.s["$schema"].(string); ok && !strings.Contains(s, "2020-12") {
				return "$schema " + s, true
			}
			if ks := n.keywords(draft7Keywords...); len(ks) > 0 {
				return strings.Join(ks, ", "), true
			}
			if _, ok := n.s["items"].([]any); ok {
				return "items as an array", true
			}
			return "", false
		},
		why: "tool schemas are read as JSON Schema draft 2020-12, where these keywords mean nothing",
		fix: "write draft 2020-12: $defs for definitions, prefixItems for an items array, dependentRequired/dependentSchemas for dependencies",
	},
	{
		profile: LintOpenAI, feature: "optional property",
		check: func(n *lintNode) (string, bool) { return n.property, n.property != "" && n.optional },
		why:   "strict mode needs every property listed in required",
		fix:   "make it required, and nullable when it may be left out (Go: jsonschema:\"required,nullable\", without omitempty; tools.yaml: list it in required and add \"null\" to its type)",
	},
	{
		profile: LintOpenAI, feature: "additionalProperties not false",
		check: func(n *lintNode) (string, bool) {
			if !n.isObject() {
				return "", false
			}
			if b, ok := n.s["additionalProperties"].(bool); ok && !b {
				return "", false
			}
			return "", true
		},
		why: "strict mode needs additionalProperties: false on every object, so an open object or a map cannot be described",
		fix: "give the object fixed properties (Go: a struct instead of a map or any; tools.yaml: properties and additionalProperties: false), or a list of key/value objects for a map",
	},
	{
		profile: LintOpenAI, feature: "format",
		check: func(n *lintNode) (string, bool) {
			f, ok := n.s["format"].(string)
			return f, ok && !openAIFormats[f]
		},
		why: "strict mode refuses formats other than date-time, time, date, duration, email, hostname, ipv4, ipv6 and uuid",
		fix: "drop the format and say it in the description, or use pattern",
	},
	{
		profile: LintOpenAI, feature: "unsupported keyword",
		check: func(n *lintNode) (string, bool) {
			ks := n.keywords("allOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "propertyNames")
			return strings.Join(ks, ", "), len(ks) > 0
		},
		why: "strict mode supports anyOf but not these keywords, and refuses the schema",
		fix: "express the alternatives with anyOf, and check the rest in the tool (a map with integer keys has propertyNames: use string keys)",
	},
	{
		profile: LintOpenAI, feature: "schema without a type",
		check: func(n *lintNode) (string, bool) {
			if n.root {
				return "", false
			}
			// allOf and oneOf are findings of their own.
			return "", len(n.keywords("type", "$ref", "anyOf", "enum", "const", "allOf", "oneOf")) == 0 && !n.isObject()
		},
		why: "strict mode needs a type (or anyOf, enum or $ref) on every schema; {} for any value is refused",
		fix: "give it a concrete type (Go: a concrete type instead of any or json.RawMessage, or //toolgen:schema on a named type)",
	},
	{
		profile: LintOpenAI, feature: "top-level anyOf",
		check: func(n *lintNode) (string, bool) { return "", n.root && n.has("anyOf") },
		why:   "strict mode needs the root to be an object, not anyOf",
		fix:   "make the input one object schema",
	},
	{
		profile: LintGemini, feature: "const",
		check: func(n *lintNode) (string, bool) {
			c, ok := n.s["const"]
			if !ok {
				return "", false
			}
			b, _ := json.Marshal(c)
			return string(b), true
		},
		why: "Gemini's function declaration Schema has no const and refuses the request (Unknown name \"const\")",
		fix: "use an enum of the one value (Go: enum= instead of const=; tools.yaml: enum: [value])",
	},
	{
		profile: LintGemini, feature: "type array",
		check: func(n *lintNode) (string, bool) {
			t, ok := n.s["type"].([]any)
			if !ok {
				return "", false
			}
			b, _ := json.Marshal(t)
			return string(b), true
		},
		why: "Gemini's Schema takes one type, and refuses a list (Proto field is not repeating)",
		fix: "use one type; for null, leave the property optional instead (Go: drop nullable; tools.yaml: drop \"null\" from type)",
	},
	{
		profile: LintGemini, feature: "$ref",
		check: func(n *lintNode) (string, bool) {
			ref, ok := n.s["$ref"].(string)
			return ref, ok
		},
		why: "Gemini's Schema has no references: the request is refused, or the client sends an unresolved property",
		fix: refFix,
	},
	{
		profile: LintGemini, feature: "open object",
		check: func(n *lintNode) (string, bool) {
			ap, ok := n.s["additionalProperties"]
			if !ok {
				return "", false
			}
			if b, isBool := ap.(bool); isBool && !b {
				return "", false
			}
			return "", true
		},
		why: "Gemini's Schema has no additionalProperties: the properties a map or an open object allows cannot be described, and the client drops them or the request is refused",
		fix: "give the object fixed properties (Go: a struct instead of a map), or a list of key/value objects for a map",
	},
	{
		profile: LintGemini, feature: "unsupported keyword",
		check: func(n *lintNode) (string, bool) {
			var ks []string
			for k := range n.s {
				if !geminiKeywords[k] {
					ks = append(ks, k)
				}
			}
			sort.Strings(ks)
			return strings.Join(ks, ", "), len(ks) > 0
		},
		why: "Gemini's Schema is a subset of OpenAPI 3.0 and refuses other keys (Unknown name ... Cannot find field)",
		fix: "drop the keyword and say it in the description; oneOf becomes anyOf, exclusiveMinimum/exclusiveMaximum become minimum/maximum",
	},
}

// lint runs the rules of cfg.Lint's profiles over every tool's input
// schema, as warnings.
func (g *generator) lint(units []*unit) {
	if len(g.cfg.Lint) == 0 {
		return
	}
	for _, p := range g.cfg.Lint {
		if !knownLintProfile(p) {
			g.errs.add(tokenPosition(""), "lint: unknown profile %q (known: %s)", p, strings.Join(LintProfiles, ", "))
			return
		}
	}
	l := &linter{g: g, fields: map[any][]typeschema.ObjectField{}}
	for _, u := range units {
		var yf *toolsyaml.File
		if u.handlers && len(u.tools) > 0 {
			yf = l.yamlFile(u.tools[0].pos.Filename)
		}
		for _, t := range u.tools {
			var locate func(ptr string) (token.Position, bool)
			if yf != nil {
				locate = yamlLocator(yf, t)
			} else {
				locate = l.goLocator(u, t)
			}
			for _, w := range lintSchema(t.name, t.input, g.cfg.Lint) {
				pos, ok := token.Position{}, false
				if locate != nil {
					pos, ok = locate(w.ptr)
				}
				if !ok {
					pos = t.pos
				}
				g.warns.list = append(g.warns.list, &Error{Pos: g.warns.rel(pos), Msg: w.msg})
			}
		}
	}
	if g.env != nil {
		g.env.structsRead() // what the locators read is not the package's
	}
}

// lintWarning is one rule that applies, at a JSON Pointer.
type lintWarning struct {
	ptr, msg string
}

// lintSchema applies the rules of the profiles to a tool's input schema:
// to its root and the schemas of values under it (properties, items, a
// map's values, anyOf and oneOf alternatives, definitions). The schemas
// in conditions (allOf, not, if/then/else, propertyNames, ...) are not
// walked: where a provider refuses the condition, its keyword is the
// finding.
func lintSchema(tool string, schema json.RawMessage, profiles []string) []lintWarning {
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil
	}
	var nodes []*lintNode
	var walk func(v any, ptr string, root bool, property string, optional bool)
	walk = func(v any, ptr string, root bool, property string, optional bool) {
		s, ok := v.(map[string]any)
		if !ok {
			return
		}
		nodes = append(nodes, &lintNode{s: s, ptr: ptr, root: root, property: property, optional: optional})
		required := map[string]bool{}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		}
		for _, k := range sortedKeys(s) {
			sub := s[k]
			p := ptr + "/" + escapePointer(k)
			switch k {
			case "properties":
				if m, ok := sub.(map[string]any); ok {
					for _, name := range sortedKeys(m) {
						walk(m[name], p+"/"+escapePointer(name), false, name, !required[name])
					}
				}
			case "$defs", "definitions":
				if m, ok := sub.(map[string]any); ok {
					for _, name := range sortedKeys(m) {
						walk(m[name], p+"/"+escapePointer(name), false, "", false)
					}
				}
			case "anyOf", "oneOf", "prefixItems":
				if list, ok := sub.([]any); ok {
					for i, x := range list {
						walk(x, p+"/"+strconv.Itoa(i), false, "", false)
					}
				}
			case "items":
				if list, ok := sub.([]any); ok {
					for i, x := range list {
						walk(x, p+"/"+strconv.Itoa(i), false, "", false)
					}
				} else {
					walk(sub, p, false, "", false)
				}
			case "additionalProperties":
				walk(sub, p, false, "", false)
			}
		}
	}
	walk(root, "", true, "", false)
	var out []lintWarning
	for _, profile := range profiles {
		for _, n := range nodes {
			for _, r := range lintRules {
				if r.profile != profile {
					continue
				}
				detail, ok := r.check(n)
				if !ok {
					continue
				}
				feature := r.feature
				if detail != "" {
					feature += " " + detail
				}
				where := "the input schema"
				if n.ptr != "" {
					where = "#" + n.ptr
				}
				out = append(out, lintWarning{ptr: n.ptr, msg: fmt.Sprintf("lint(%s): tool %s: %s at %s: %s; fix: %s", profile, tool, feature, where, r.why, r.fix)})
			}
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func unescapePointer(s string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

// linter maps JSON Pointers back to source positions.
type linter struct {
	g *generator
	// pkgs are the go/types packages the schemas were read from, by path.
	pkgs map[string]*types.Package
	// fields caches typeschema.ObjectFields by type.
	fields map[any][]typeschema.ObjectField
	yamls  map[string]*toolsyaml.File
}

// yamlFile parses a tools.yaml again, for the positions of its nodes.
func (l *linter) yamlFile(path string) *toolsyaml.File {
	if f, ok := l.yamls[path]; ok {
		return f
	}
	if l.yamls == nil {
		l.yamls = map[string]*toolsyaml.File{}
	}
	var f *toolsyaml.File
	if data, err := os.ReadFile(path); err == nil {
		f, _ = toolsyaml.Parse(path, data)
	}
	l.yamls[path] = f
	return f
}

// yamlLocator finds the key a JSON Pointer of t's input schema leads to
// in its tools.yaml: as far as the pointer goes, through the file's $defs
// for those the schema takes from the file.
func yamlLocator(f *toolsyaml.File, t *tool) func(string) (token.Position, bool) {
	return yamlSchemaLocator(f, t, false)
}

// yamlSchemaLocator is yamlLocator for t's input schema, or with output
// its output schema.
func yamlSchemaLocator(f *toolsyaml.File, t *tool, output bool) func(string) (token.Position, bool) {
	var input *yaml.Node
	for _, yt := range f.Tools {
		s := yt.Input
		if output {
			s = yt.Output
		}
		if yt.Name == t.name && s != nil {
			input = s.Node
		}
	}
	if input == nil {
		return nil
	}
	at := func(n *yaml.Node) token.Position {
		return token.Position{Filename: t.pos.Filename, Line: n.Line, Column: n.Column}
	}
	return func(ptr string) (token.Position, bool) {
		toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
		if ptr == "" {
			toks = nil
		}
		cur := input
		var found *yaml.Node
		if len(toks) >= 2 && toks[0] == "$defs" && yamlChild(input, "$defs", unescapePointer(toks[1])) == nil {
			// One of the file's $defs, which the schema took in.
			name := unescapePointer(toks[1])
			for _, d := range f.Defs {
				if d.Name == name {
					cur, found, toks = d.Node, d.Key, toks[2:]
					break
				}
			}
		}
		for _, tok := range toks {
			tok = unescapePointer(tok)
			cur = yamlResolve(cur)
			next := (*yaml.Node)(nil)
			switch cur.Kind {
			case yaml.MappingNode:
				for i := 0; i+1 < len(cur.Content); i += 2 {
					if cur.Content[i].Value == tok {
						found, next = cur.Content[i], cur.Content[i+1]
						break
					}
				}
			case yaml.SequenceNode:
				if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(cur.Content) {
					found, next = cur.Content[i], cur.Content[i]
				}
			}
			if next == nil {
				break
			}
			cur = next
		}
		if found == nil {
			return token.Position{}, false
		}
		return at(found), true
	}
}

func yamlResolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		return yamlResolve(n.Content[0])
	}
	return n
}

// yamlChild follows keys from a mapping node, or returns nil.
func yamlChild(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = yamlResolve(n)
		var next *yaml.Node
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					next = n.Content[i+1]
				}
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// goLocator maps the JSON Pointers of a code-first tool's input schema to
// the Go fields (or flat parameters) they come from, by walking the
// schema beside the Go types it was built from. It returns nil when the
// types cannot be found, and the tool's position is used.
func (l *linter) goLocator(u *unit, t *tool) func(string) (token.Position, bool) {
	g := l.g
	if g.env == nil || t.call == nil || t.call.in == nil {
		return nil
	}
	var root map[string]any
	if json.Unmarshal(t.input, &root) != nil {
		return nil
	}
	positions := map[string]token.Position{}
	w := &goWalk{l: l, defs: map[string]any{}, seen: map[string]bool{}, out: positions}
	if d, ok := root["$defs"].(map[string]any); ok {
		w.defs = d
	}
	in := t.call.in
	switch {
	case in.kind == exprNamed && len(in.args) == 0:
		path := in.path
		if path == "" {
			path = u.pkgPath
		}
		obj, ok := l.lookup(path, in.name).(*types.TypeName)
		if !ok {
			return nil
		}
		w.walk(g.env.of(obj.Type()), root, "", token.Position{})
	case in.kind == exprStruct:
		fn := l.function(u, t)
		if fn == nil {
			return nil
		}
		props, _ := root["properties"].(map[string]any)
		params := fn.Type().(*types.Signature).Params()
		for i := range params.Len() {
			p := params.At(i)
			sub, ok := props[p.Name()]
			if !ok {
				continue
			}
			w.walk(g.env.of(p.Type()), sub, "/properties/"+escapePointer(p.Name()), parsePos(g.env.position(p.Pos())))
		}
	default:
		return nil
	}
	return func(ptr string) (token.Position, bool) {
		for {
			if pos, ok := positions[ptr]; ok && pos.IsValid() {
				return pos, true
			}
			i := strings.LastIndexByte(ptr, '/')
			if i < 0 {
				return token.Position{}, false
			}
			ptr = ptr[:i]
		}
	}
}

// lookup finds a package-level object of a package the schemas were read
// from.
func (l *linter) lookup(path, name string) types.Object {
	if l.pkgs == nil {
		l.pkgs = map[string]*types.Package{}
		for obj := range l.g.env.decls {
			if p := obj.Pkg(); p != nil {
				l.pkgs[p.Path()] = p
			}
		}
	}
	p := l.pkgs[path]
	if p == nil {
		return nil
	}
	return p.Scope().Lookup(name)
}

// function finds a flat-parameter tool's function or method.
func (l *linter) function(u *unit, t *tool) *types.Func {
	if t.recv != nil {
		obj, ok := l.lookup(u.pkgPath, t.recv.name).(*types.TypeName)
		if !ok {
			return nil
		}
		m, _, _ := types.LookupFieldOrMethod(types.NewPointer(obj.Type()), true, obj.Pkg(), t.call.fn)
		fn, _ := m.(*types.Func)
		return fn
	}
	fn, _ := l.lookup(u.pkgPath, t.call.fn).(*types.Func)
	return fn
}

// goWalk walks a schema beside the Go type it describes, recording the
// position of the Go field behind each JSON Pointer.
type goWalk struct {
	l    *linter
	defs map[string]any
	seen map[string]bool
	out  map[string]token.Position
}

func (w *goWalk) walk(t typeschema.Type, v any, ptr string, pos token.Position) {
	node, ok := v.(map[string]any)
	if !ok {
		return
	}
	if _, done := w.out[ptr]; !done {
		w.out[ptr] = pos
	}
	for t.Kind() == typeschema.Pointer {
		t = t.Elem()
	}
	if ref, ok := node["$ref"].(string); ok {
		if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok && !w.seen[name] {
			w.seen[name] = true
			w.walk(t, w.defs[unescapePointer(name)], "/$defs/"+name, pos)
		}
		return
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if list, ok := node[k].([]any); ok {
			for i, x := range list {
				w.walk(t, x, ptr+"/"+k+"/"+strconv.Itoa(i), pos)
			}
		}
	}
	switch t.Kind() {
	case typeschema.Struct:
		props, ok := node["properties"].(map[string]any)
		if !ok {
			return
		}
		for _, f := range w.l.objectFields(t) {
			sub, ok := props[f.Name]
			if !ok || len(f.Path) == 0 {
				continue
			}
			field := f.Path[len(f.Path)-1]
			fpos := parsePos(field.Pos)
			if !fpos.IsValid() {
				fpos = pos
			}
			w.walk(field.Type, sub, ptr+"/properties/"+escapePointer(f.Name), fpos)
		}
	case typeschema.Slice, typeschema.Array:
		w.walk(t.Elem(), node["items"], ptr+"/items", pos)
	case typeschema.Map:
		w.walk(t.Elem(), node["additionalProperties"], ptr+"/additionalProperties", pos)
	}
}

func (l *linter) objectFields(t typeschema.Type) []typeschema.ObjectField {
	if fs, ok := l.fields[t.ID()]; ok {
		return fs
	}
	fs, _ := typeschema.ObjectFields(t)
	l.fields[t.ID()] = fs
	return fs
}
