package gen

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	basic "github.com/toolgen-go/toolgen/testdata/golden/basic_types"
	clientcase "github.com/toolgen-go/toolgen/testdata/golden/client"
	"github.com/toolgen-go/toolgen/testdata/golden/codecs"
	"github.com/toolgen-go/toolgen/testdata/golden/collections"
	paint "github.com/toolgen-go/toolgen/testdata/golden/cross_package"
	"github.com/toolgen-go/toolgen/testdata/golden/defaults"
	directivecase "github.com/toolgen-go/toolgen/testdata/golden/directives"
	"github.com/toolgen-go/toolgen/testdata/golden/docs"
	"github.com/toolgen-go/toolgen/testdata/golden/enums"
	"github.com/toolgen-go/toolgen/testdata/golden/forms"
	"github.com/toolgen-go/toolgen/testdata/golden/guards"
	names "github.com/toolgen-go/toolgen/testdata/golden/import_names"
	"github.com/toolgen-go/toolgen/testdata/golden/many"
	"github.com/toolgen-go/toolgen/testdata/golden/methods"
	"github.com/toolgen-go/toolgen/testdata/golden/params"
	policycase "github.com/toolgen-go/toolgen/testdata/golden/policy"
	"github.com/toolgen-go/toolgen/testdata/golden/recursive"
	"github.com/toolgen-go/toolgen/testdata/golden/results"
	override "github.com/toolgen-go/toolgen/testdata/golden/schema_override"
	"github.com/toolgen-go/toolgen/testdata/golden/secrets"
	"github.com/toolgen-go/toolgen/testdata/golden/signatures"
	stdlibdocs "github.com/toolgen-go/toolgen/testdata/golden/stdlib_docs"
	"github.com/toolgen-go/toolgen/testdata/golden/structs"
	"github.com/toolgen-go/toolgen/testdata/golden/tags"
)

// An independent oracle for the type rules: invopop/jsonschema, whose tag
// syntax toolgen follows, reflects the input type of every tool of every
// code-first golden case, configured to toolgen's rules, and the two
// schemas must agree but for the differences listed in oracleDifferences,
// each with its reason. The oracle is a test dependency only: it never
// reaches the generator's or a server's build.

// oracleFuncs are the tool functions of each code-first golden case (a
// method as its method expression). The test checks that it lists every
// tool the generator finds, so that a new case or tool cannot skip it.
var oracleFuncs = map[string][]any{
	"basic_types": {basic.Echo},
	"client": {clientcase.Measure, clientcase.Scale, clientcase.Words, clientcase.Count, clientcase.Echo, clientcase.Pick,
		clientcase.Banner, clientcase.Reset, clientcase.Raw, (*clientcase.Store).Add, (*clientcase.Bag).Add, clientcase.Convert, clientcase.Greeting},
	"codecs":          {codecs.Shadow, codecs.Number, codecs.Shout, codecs.Wide, codecs.Narrow, codecs.Confirm, codecs.ConfirmAll},
	"collections":     {collections.Summarize, collections.Corners},
	"cross_package":   {paint.Paint},
	"defaults":        {defaults.Search, defaults.Order, defaults.Tree, defaults.Thread, (*defaults.Store).Get},
	"directives":      {directivecase.ReadFile, directivecase.RemoveFile, directivecase.HTTPGet, directivecase.ParseV2Data},
	"docs":            {docs.AddTask, docs.Describe, docs.Undocumented},
	"enums":           {enums.Greet, enums.Schedule},
	"forms":           {forms.Ship, forms.Reship, forms.Confirm},
	"guards":          {guards.Save, guards.Resize},
	"import_names":    {names.Area, names.Plan},
	"many":            {many.F1, many.F2, many.F3, many.F4, many.F5, many.F6, many.F7, many.F8, many.F9, many.F10, many.F11, many.F12, many.F13, many.F14, many.F15, many.F16, many.F17, many.F18, many.F19, many.F20, many.F21, many.F22, many.F23, many.F24, many.F25, many.F26, many.F27, many.F28, many.F29, many.F30, many.F31, many.F32, many.F33, many.F34, many.F35, many.F36, many.F37, many.F38, many.F39, many.F40, many.F41, many.F42, many.F43, many.F44, many.F45, many.F46, many.F47, many.F48, many.F49, many.F50, many.F51, many.F52, many.F53, many.F54, many.F55, many.F56, many.F57, many.F58, many.F59, many.F60, (*many.Counter).M1, (*many.Counter).M2, (*many.Counter).M3, (*many.Counter).M4, (*many.Counter).M5, (*many.Counter).M6, (*many.Counter).M7, (*many.Counter).M8, (*many.Counter).M9, (*many.Counter).M10, (*many.Counter).M11, (*many.Counter).M12, (*many.Counter).M13, (*many.Counter).M14, (*many.Counter).M15, (*many.Counter).M16, (*many.Counter).M17, (*many.Counter).M18, (*many.Counter).M19, (*many.Counter).M20, (*many.Counter).M21, (*many.Counter).M22, (*many.Counter).M23, (*many.Counter).M24, (*many.Counter).M25, (*many.Counter).M26, (*many.Counter).M27, (*many.Counter).M28, (*many.Counter).M29, (*many.Counter).M30, (*many.Counter).M31, (*many.Counter).M32, (*many.Counter).M33, (*many.Counter).M34, (*many.Counter).M35, (*many.Counter).M36, (*many.Counter).M37, (*many.Counter).M38, (*many.Counter).M39, (*many.Counter).M40, (*many.Counter).M41, (*many.Counter).M42, (*many.Counter).M43, (*many.Counter).M44, (*many.Counter).M45, (*many.Counter).M46, (*many.Counter).M47, (*many.Counter).M48, (*many.Counter).M49, (*many.Counter).M50, (*many.Counter).M51, (*many.Counter).M52, (*many.Counter).M53, (*many.Counter).M54, (*many.Counter).M55, (*many.Counter).M56, (*many.Counter).M57, (*many.Counter).M58, (*many.Counter).M59, (*many.Counter).M60},
	"methods":         {(*methods.Store).Get, (*methods.Store).Put, methods.Store.Count, methods.Greeter.Greet, methods.Shout},
	"params":          {params.Convert, params.Repeat, (*params.Box).Label},
	"prompts":         {},
	"recursive":       {recursive.Walk, recursive.Depth, recursive.Grow},
	"stdlib_docs":     {stdlibdocs.Mail},
	"results":         {results.Text, results.Named, results.Image, results.Blocks, results.Whole, results.Struct, results.Pointer, results.Number, results.Map, results.Anything},
	"schema_override": {override.Pin},
	"secrets":         {secrets.Forecast, secrets.Sync, secrets.Local},
	"policy":          {policycase.ReadIssue, policycase.CloseIssue, policycase.Export, policycase.Delete, policycase.Ping},
	"signatures": {signatures.Full, signatures.Pointer, signatures.Flat, signatures.Clash, signatures.Nothing, signatures.OnlyError,
		signatures.NoResult, signatures.Anonymous, signatures.Single, signatures.Fallback},
	"structs": {structs.Inspect, structs.Empty},
	"tags":    {tags.Tagged},
}

// oracleDifferences are where toolgen's rules deliberately differ from
// invopop/jsonschema's. Each is a rewrite applied to both schemas before
// they are compared, and says why.
var oracleDifferences = []struct {
	why string
	// rewrite brings the two schemas of a value of Go type t (nil where
	// the test does not know it) together.
	rewrite func(toolgen, oracle map[string]any, t reflect.Type)
}{
	{"nullable: toolgen adds null to the type (and to an enum), or uses anyOf [schema, {type: null}] for a schema without one type (one given verbatim); invopop writes oneOf [schema, {type: null}]. Both are brought to toolgen's first form where it applies", func(tg, or map[string]any, _ reflect.Type) {
		canonicalNull(tg, "anyOf")
		canonicalNull(or, "oneOf")
	}},
	{"descriptions come from doc comments, which only source has (invopop reads Go comments only from a source tree given at run time)", func(tg, or map[string]any, _ reflect.Type) {
		delete(tg, "description")
		delete(or, "description")
	}},
	{"toolgen writes every bound a Go type imposes (int8's, uint's 0, float32's), so that arguments the schema accepts always decode, and keeps it beside a tag's wider one; invopop writes none, and a tag's as it is", func(tg, or map[string]any, _ reflect.Type) {
		for _, k := range []string{"minimum", "maximum"} {
			o, tagged := or[k].(float64)
			if !isTypeBound(tg[k]) {
				continue
			}
			switch t := tg[k].(float64); {
			case !tagged:
				delete(tg, k)
			case k == "minimum" && o < t, k == "maximum" && o > t:
				or[k] = t // the tag's wider bound, left for the type's
			}
		}
	}},
	{"enums come from //toolgen:enum constants, which reflection cannot see", func(tg, or map[string]any, _ reflect.Type) {
		if _, tagged := or["enum"]; !tagged {
			delete(tg, "enum")
		}
	}},
	{"a field is optional in toolgen when it is a pointer (a pointer says the value may be absent) or tagged omitzero (Go 1.24); invopop requires both unless omitempty", func(tg, or map[string]any, t reflect.Type) {
		if t == nil || t.Kind() != reflect.Struct {
			return
		}
		for name, f := range jsonFieldsOf(t) {
			tag := f.Tag.Get("json")
			if (f.Type.Kind() == reflect.Pointer || strings.Contains(tag, ",omitzero")) && !strings.Contains(f.Tag.Get("jsonschema"), "required") {
				or["required"] = without(or["required"], name)
				if len(or["required"].([]any)) == 0 {
					delete(or, "required")
				}
			}
		}
	}},
	{"the root carries $schema in toolgen; invopop also writes an $id and a root $ref into $defs unless told not to", func(tg, or map[string]any, _ reflect.Type) {
		for _, k := range []string{"$schema", "$id"} {
			delete(tg, k)
			delete(or, k)
		}
	}},
	{"a map of anything: toolgen writes additionalProperties {}, invopop leaves it out, which says the same", func(tg, or map[string]any, _ reflect.Type) {
		if m, ok := tg["additionalProperties"].(map[string]any); ok && len(m) == 0 && or["additionalProperties"] == nil && or["type"] == "object" {
			delete(tg, "additionalProperties")
		}
	}},
	{"a field with json's ,string option is a string in JSON, as encoding/json reads and writes it; invopop describes the value inside", func(tg, or map[string]any, _ reflect.Type) {
		if tg["type"] == "string" && (or["type"] == "integer" || or["type"] == "number" || or["type"] == "boolean") {
			or["type"] = "string"
			if d, ok := or["default"]; ok {
				or["default"] = fmt.Sprint(d)
			}
		}
	}},
	{"maps with integer keys: toolgen states the keys' pattern in propertyNames as encoding/json reads keys (^-?[0-9]+$ for signed types, ^[0-9]+$ for unsigned ones) and the values in additionalProperties; invopop puts the values under patternProperties ^[0-9]+$ for signed keys (refusing the negative ones encoding/json takes) and says nothing of unsigned ones", func(tg, or map[string]any, _ reflect.Type) {
		if tg["propertyNames"] == nil {
			return
		}
		if pp, ok := or["patternProperties"].(map[string]any); ok && len(pp) == 1 {
			for _, v := range pp {
				or["additionalProperties"] = v
			}
			delete(or, "patternProperties")
		}
		delete(tg, "propertyNames")
	}},
	{"a default that is not a scalar is JSON typed by the field in toolgen (default=[\"new\"] is a list); invopop keeps it as a string, or drops it on a field of any type", func(tg, or map[string]any, _ reflect.Type) {
		switch d := tg["default"].(type) {
		case map[string]any, []any:
			od := or["default"]
			if l, ok := od.([]any); ok && len(l) == 1 {
				od = l[0] // invopop splits an array default at commas, as strings
			}
			if str, ok := od.(string); od == nil || ok && sameJSON(str, d) {
				or["default"] = d
			}
		}
	}},
	{"keys of the jsonschema tag that invopop does not read: const, deprecated, a bare uniqueItems, a second examples=", func(tg, or map[string]any, _ reflect.Type) {
		for _, k := range []string{"const", "deprecated", "uniqueItems", "examples"} {
			if or[k] == nil || k == "examples" {
				if v, ok := tg[k]; ok {
					or[k] = v
				}
			}
		}
	}},
	{"names as encoding/json gives them (golden case structs): json:\"-,\" names a field \"-\", which invopop skips; two untagged fields Dup promoted at the same depth both drop, where invopop keeps one", func(tg, or map[string]any, _ reflect.Type) {
		props, _ := tg["properties"].(map[string]any)
		oprops, _ := or["properties"].(map[string]any)
		if props == nil || oprops == nil {
			return
		}
		if _, ok := props["-"]; ok && oprops["-"] == nil {
			delete(props, "-")
			tg["required"] = without(tg["required"], "-")
		}
		if _, ok := oprops["Dup"]; ok && props["Dup"] == nil {
			delete(oprops, "Dup")
			or["required"] = without(or["required"], "Dup")
		}
	}},
	{"jsonschema:\"optional\" (and optional=false) decides whether a field is required in toolgen; invopop does not read it", func(tg, or map[string]any, t reflect.Type) {
		if t == nil || t.Kind() != reflect.Struct {
			return
		}
		treq, _ := tg["required"].([]any)
		for name, f := range jsonFieldsOf(t) {
			if !slices.Contains(strings.Split(f.Tag.Get("jsonschema"), ","), "optional") && !strings.Contains(f.Tag.Get("jsonschema"), "optional=") {
				continue
			}
			oreq, _ := or["required"].([]any)
			switch in := slices.Contains(treq, any(name)); {
			case in && !slices.Contains(oreq, any(name)):
				// toolgen's order: the field's place among the required.
				or["required"] = treq
			case !in:
				or["required"] = without(oreq, name)
			}
		}
	}},
}

func TestOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every golden package")
	}
	root := moduleRoot(t)
	funcs := map[string]any{}
	for _, fs := range oracleFuncs {
		for _, f := range fs {
			funcs[funcName(f)] = f
		}
	}
	for _, name := range goldenCases(t) {
		dir := filepath.Join(root, goldenDir, name)
		if _, err := os.Stat(filepath.Join(dir, DefaultOutput)); err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "tools.yaml")); err == nil {
			continue
		}
		if _, ok := oracleFuncs[name]; !ok {
			t.Errorf("code-first golden case %s is not in oracleFuncs", name)
			continue
		}
		g := testGenerator(t, root)
		units := g.loadGo([]string{"./" + goldenDir + "/" + name})
		if err := g.errs.err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, u := range units {
			for _, tl := range u.tools {
				key := u.pkgPath + "." + tl.call.fn
				if tl.recv != nil {
					key = u.pkgPath + "." + tl.recv.name + "." + tl.call.fn
				}
				fn, ok := funcs[key]
				if !ok {
					t.Errorf("%s: tool %s (%s) is not in oracleFuncs", name, tl.name, key)
					continue
				}
				t.Run(name+"/"+tl.name, func(t *testing.T) { compareWithOracle(t, tl, fn, overrides(g)) })
			}
		}
	}
}

// funcName is a function's package path and name, or its receiver type's
// name and the method's for a method expression.
func funcName(f any) string {
	n := goruntime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	n = strings.NewReplacer("(*", "", ")", "", "-fm", "").Replace(n)
	return n
}

// overrides are the schemas that //toolgen:schema gives named types, by
// package path and name: the oracle's mapper returns them for the types,
// as invopop would a type's own JSONSchema method, so that the rest of the
// schema is still compared.
func overrides(g *generator) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for obj, info := range g.env.decls {
		if info.override != nil {
			out[obj.Pkg().Path()+"."+obj.Name()] = json.RawMessage(info.override.args)
		}
	}
	return out
}

func compareWithOracle(t *testing.T, tl *tool, fn any, overrides map[string]json.RawMessage) {
	in := oracleInput(reflect.TypeOf(fn), tl.call)
	r := &jsonschema.Reflector{
		ExpandedStruct: true, // the root is the object itself
		// Named types are referred to ($defs), and inlined below where
		// they do not recur, as toolgen does (invopop's DoNotReference
		// recurses without end on a recursive type).
		AllowAdditionalProperties: false,
		Anonymous:                 true,
		// invopop has no rule for uintptr (it panics): toolgen's is an
		// unsigned integer, and the comparison takes it as given.
		// json.Number is a number in JSON (encoding/json reads and writes
		// it as one); invopop describes it as a string.
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			switch {
			case t.Kind() == reflect.Uintptr:
				return &jsonschema.Schema{Type: "integer"}
			case t.Implements(reflect.TypeFor[encoding.TextMarshaler]()) && !t.Implements(reflect.TypeFor[json.Marshaler]()) && overrides[t.PkgPath()+"."+t.Name()] == nil:
				// A type with MarshalText is a string, as encoding/json
				// writes it; invopop would reflect its fields.
				return &jsonschema.Schema{Type: "string"}
			case t == reflect.TypeFor[json.Number]():
				return &jsonschema.Schema{Type: "number"}
			case overrides[t.PkgPath()+"."+t.Name()] != nil:
				var s jsonschema.Schema
				if err := json.Unmarshal(overrides[t.PkgPath()+"."+t.Name()], &s); err != nil {
					panic(fmt.Sprintf("the schema of %s: %v", t, err))
				}
				return &s
			}
			return nil
		},
	}
	var oracle map[string]any
	if in == nil {
		oracle = map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
	} else {
		r.ExpandedStruct = in.Name() != "" // an unnamed struct is inline already
		raw, err := json.Marshal(r.ReflectFromType(in))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &oracle); err != nil {
			t.Fatal(err)
		}
		defs, _ := oracle["$defs"].(map[string]any)
		delete(oracle, "$defs")
		oracle = inline(oracle, defs, nil).(map[string]any)
	}
	var ours map[string]any
	if err := json.Unmarshal(tl.input, &ours); err != nil {
		t.Fatal(err)
	}
	ourDefs, _ := ours["$defs"].(map[string]any)
	delete(ours, "$defs")
	ours = inline(ours, ourDefs, nil).(map[string]any)
	normalise(ours, oracle, in)
	a, b := flatten(ours, ""), flatten(oracle, "")
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if a[k] != b[k] {
			diffs = append(diffs, fmt.Sprintf("%s: toolgen %s, invopop %s", k, a[k], b[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: toolgen none, invopop %s", k, b[k]))
		}
	}
	if len(diffs) > 0 {
		t.Errorf("toolgen and invopop/jsonschema disagree on %s's input (after the listed differences):\n%s", tl.name, strings.Join(diffs, "\n"))
	}
}

// oracleInput is the Go type whose fields are a tool's arguments: the
// struct form's input, or for the flat form a struct of the parameters as
// the generated handler declares it (//toolgen:param keywords as tags).
func oracleInput(ft reflect.Type, c *call) reflect.Type {
	var ps []reflect.Type
	for i := range ft.NumIn() {
		ps = append(ps, ft.In(i))
	}
	if c.recvType != nil {
		ps = ps[1:]
	}
	if c.ctx {
		ps = ps[1:]
	}
	if c.in == nil {
		return nil
	}
	if len(c.spread) == 0 {
		t := ps[0]
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		return t
	}
	fields := make([]reflect.StructField, len(ps))
	for i, p := range ps {
		fields[i] = reflect.StructField{Name: c.in.fields[i].name, Type: p, Tag: reflect.StructTag(c.in.fields[i].tag)}
	}
	return reflect.StructOf(fields)
}

// normalise applies oracleDifferences to both schemas, at every depth
// where both have a schema at the same place.
func normalise(tg, or map[string]any, t reflect.Type) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, s := range []map[string]any{tg, or} {
		for _, k := range []string{"items", "additionalProperties"} {
			if s[k] == true {
				s[k] = map[string]any{}
			}
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for name, p := range props {
				if p == true {
					props[name] = map[string]any{}
				}
			}
		}
	}
	for _, d := range oracleDifferences {
		d.rewrite(tg, or, t)
	}
	sub := func(a, b any, t reflect.Type) {
		if a, ok := a.(map[string]any); ok {
			if b, ok := b.(map[string]any); ok {
				normalise(a, b, t)
			}
		}
	}
	elem := func() reflect.Type {
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			return t.Elem()
		}
		return nil
	}
	for k, v := range tg {
		switch k {
		case "properties":
			m1, _ := v.(map[string]any)
			m2, _ := or[k].(map[string]any)
			var fields map[string]reflect.StructField
			if t != nil && t.Kind() == reflect.Struct {
				fields = jsonFieldsOf(t)
			}
			for name, s := range m1 {
				sub(s, m2[name], fields[name].Type)
			}
		case "items", "additionalProperties":
			sub(v, or[k], elem())
		case "anyOf", "allOf":
			l1, _ := v.([]any)
			l2, _ := or[k].([]any)
			for i := range min(len(l1), len(l2)) {
				sub(l1[i], l2[i], t)
			}
		}
	}
}

// jsonFieldsOf are a struct's fields by JSON name, promoted ones too
// (name clashes aside: the golden types that have them are compared by
// what the schemas say).
func jsonFieldsOf(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Tag.Get("json") == "" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && f.Tag.Get("json") == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

// inline replaces each $ref into defs by the definition, except where the
// definition is already being inlined (a recursive type), whose $ref is
// kept as "recursive": the two sides name definitions differently.
func inline(v any, defs map[string]any, stack []string) any {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			name := ref[strings.LastIndexByte(ref, '/')+1:]
			if ref == "#" || slices.Contains(stack, name) || defs[name] == nil {
				out := map[string]any{}
				for k, x := range v {
					out[k] = x
				}
				out["$ref"] = "recursive"
				return out
			}
			def := inline(defs[name], defs, append(stack, name)).(map[string]any)
			out := map[string]any{}
			for k, x := range def {
				out[k] = x
			}
			for k, x := range v {
				if k != "$ref" {
					out[k] = inline(x, defs, stack)
				}
			}
			return out
		}
		out := map[string]any{}
		for k, x := range v {
			out[k] = inline(x, defs, stack)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = inline(x, defs, stack)
		}
		return out
	}
	return v
}

// flatten lists a JSON value's leaves by path (lists in order, so that
// the order of required and enum counts).
func flatten(v any, path string) map[string]string {
	out := map[string]string{}
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			out[path] = "{}"
		}
		for k, x := range v {
			maps.Copy(out, flatten(x, path+"/"+k))
		}
	case []any:
		if len(v) == 0 {
			out[path] = "[]"
		}
		for i, x := range v {
			maps.Copy(out, flatten(x, fmt.Sprintf("%s/%d", path, i)))
		}
	default:
		b, _ := json.Marshal(v)
		out[path] = string(b)
	}
	return out
}

// isTypeBound reports whether a number is the bound of a Go numeric type.
func isTypeBound(v any) bool {
	f, ok := v.(float64)
	if !ok {
		return false
	}
	for _, k := range numBoundKinds {
		if f == k {
			return true
		}
	}
	return false
}

var numBoundKinds = []float64{
	-128, 127, -32768, 32767, -2147483648, 2147483647, -9223372036854775808, 9223372036854775807,
	0, 255, 65535, 4294967295, 18446744073709551615, -3.4028234663852886e+38, 3.4028234663852886e+38,
}

// canonicalNull writes key: [schema, {type: null}] as the schema with
// null added to its one type (and to its enum).
func canonicalNull(s map[string]any, key string) {
	alts, ok := s[key].([]any)
	if !ok || len(alts) != 2 {
		return
	}
	a, _ := alts[0].(map[string]any)
	if n, _ := alts[1].(map[string]any); a == nil || n["type"] != "null" || len(n) != 1 {
		return
	}
	typ, ok := a["type"].(string)
	if !ok || a["$ref"] != nil {
		return
	}
	delete(s, key)
	maps.Copy(s, a)
	s["type"] = []any{typ, "null"}
	if e, ok := s["enum"].([]any); ok && !slices.Contains(e, nil) {
		s["enum"] = append(e, nil)
	}
}

// without removes a name from a required list.
func without(list any, name string) any {
	l, _ := list.([]any)
	var out []any
	for _, x := range l {
		if x != name {
			out = append(out, x)
		}
	}
	return out
}

// sameJSON reports whether a string holds the JSON of v.
func sameJSON(s string, v any) bool {
	var x any
	if json.Unmarshal([]byte(s), &x) != nil {
		return false
	}
	a, _ := json.Marshal(x)
	b, _ := json.Marshal(v)
	return string(a) == string(b)
}
