package gen

import (
	"go/types"
	"strings"

	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// A code-first tool's input gets a decoder (decode.go) and its structured
// result an encoder (encode.go) that do without reflection what
// encoding/json does, for the types whose JSON they can write out in
// full: strings, booleans, integers, floats, and slices, pointers and
// structs of them, with no method of their own for JSON or text, no
// embedded field, no ",string" or ",omitzero" option and member names
// that need no escaping. A plan says how one such type is read or
// written; any other type has none, and keeps encoding/json alone.

// jsonPlan is how a decoder reads, or an encoder writes, one Go type.
type jsonPlan struct {
	kind   planKind
	bits   int       // planInt, planUint, planFloat: the size; 0 for int and uint
	typ    *typeExpr // the type as the file writes it
	elem   *jsonPlan // planSlice, planPointer
	fields []jsonField
}

// jsonField is a struct field of a plan: its JSON name, its Go name, and
// whether encoding/json leaves it out when empty (",omitempty").
type jsonField struct {
	key, name string
	omitEmpty bool
	plan      *jsonPlan
}

type planKind int

const (
	planString planKind = iota
	planBool
	planInt
	planUint
	planFloat
	planSlice
	planPointer
	planStruct
)

// maxPlanDepth bounds how deep a plan goes, and maxPlanNodes how many
// types it writes out (a struct met twice is written twice): a type past
// either has none, so that a decoder or an encoder stays a few hundred
// lines at most.
const (
	maxPlanDepth = 8
	maxPlanNodes = 64
)

// jsonPlanner makes the plans of one file's decoders (encode false) or
// encoders (encode true).
type jsonPlanner struct {
	w      *exprWriter
	encode bool
	nodes  *int // the plan's types so far
}

// planOf is t's plan for a decoder (encode false) or an encoder, or nil.
func planOf(w *exprWriter, t types.Type, encode bool) *jsonPlan {
	pl := jsonPlanner{w: w, encode: encode, nodes: new(int)}.plan(t, 0)
	if pl != nil {
		// Imported under another name where the package declares this one.
		if encode {
			w.use(jsonwritePath, "jsonwrite")
		} else {
			w.use(jsonreadPath, "jsonread")
		}
	}
	return pl
}

// plan is t's plan, or nil when a decoder cannot read t (an encoder
// write it) exactly as encoding/json does.
func (p jsonPlanner) plan(t types.Type, depth int) *jsonPlan {
	if *p.nodes++; depth > maxPlanDepth || *p.nodes > maxPlanNodes || ownJSON(t, p.encode) {
		return nil
	}
	e, ok := p.w.expr(t)
	if !ok {
		return nil
	}
	pl := &jsonPlan{typ: e}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		k := u.Kind()
		switch {
		case k == types.String:
			pl.kind = planString
		case k == types.Bool:
			pl.kind = planBool
		case k >= types.Int && k <= types.Int64:
			pl.kind, pl.bits = planInt, []int{0, 8, 16, 32, 64}[k-types.Int]
		case k >= types.Uint && k <= types.Uint64:
			pl.kind, pl.bits = planUint, []int{0, 8, 16, 32, 64}[k-types.Uint]
		case k == types.Float32:
			pl.kind, pl.bits = planFloat, 32
		case k == types.Float64:
			pl.kind, pl.bits = planFloat, 64
		default:
			return nil
		}
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Uint8 {
			return nil // base64, left to encoding/json
		}
		pl.kind, pl.elem = planSlice, p.plan(u.Elem(), depth+1)
		if !p.element(pl.elem) {
			return nil
		}
	case *types.Pointer:
		if _, named := types.Unalias(t).(*types.Named); named {
			return nil
		}
		pl.kind, pl.elem = planPointer, p.plan(u.Elem(), depth+1)
		if !p.element(pl.elem) || pl.elem.kind == planPointer {
			return nil
		}
	case *types.Struct:
		if depth > 0 && e.kind == exprStruct {
			return nil // an unnamed struct type within: not worth spelling out
		}
		pl.kind = planStruct
		seen := map[string]bool{}
		for i := range u.NumFields() {
			f := u.Field(i)
			key, omitEmpty, ok := jsonKey(f, u.Tag(i))
			switch {
			case !ok:
				return nil
			case key == "":
				continue // not read by encoding/json either
			case seen[key]:
				return nil // encoding/json's rules for a name given twice
			}
			seen[key] = true
			fp := p.plan(f.Type(), depth+1)
			if fp == nil {
				return nil
			}
			pl.fields = append(pl.fields, jsonField{key: key, name: f.Name(), omitEmpty: omitEmpty, plan: fp})
		}
		if len(pl.fields) > 64 { // the decoder's bit set of members seen
			return nil
		}
	default:
		return nil
	}
	return pl
}

// element reports whether a plan can be a slice's element or a pointer's
// target: it exists, and its type is spelled on one line.
func (jsonPlanner) element(pl *jsonPlan) bool {
	return pl != nil && !(pl.kind == planStruct && pl.typ.kind == exprStruct)
}

// flatPlanOf is the plan of a flat-parameter tool's input: a struct of one
// field a parameter, named by fields.
func flatPlanOf(w *exprWriter, params []*types.Var, fields []string, in *typeExpr) *jsonPlan {
	p := jsonPlanner{w: w, nodes: new(int)}
	pl := &jsonPlan{kind: planStruct, typ: in}
	if len(params) > 64 {
		return nil
	}
	for i, v := range params {
		fp := p.plan(v.Type(), 1)
		if fp == nil || !plainKey(v.Name()) {
			return nil
		}
		pl.fields = append(pl.fields, jsonField{key: v.Name(), name: fields[i], plan: fp})
	}
	w.use(jsonreadPath, "jsonread")
	return pl
}

// ownJSON reports whether encoding/json decodes t (encodes it, with
// encode) otherwise than by its kind: json.Number (a string that must be
// a number literal, written unquoted), or a type where t or *t has a
// method encoding/json would call, or one of the same name. The
// generator leaves such a type to encoding/json: no plan, no default
// written as a Go literal.
func ownJSON(t types.Type, encode bool) bool {
	if _, named := types.Unalias(t).(*types.Named); !named {
		return false // no methods: embedded fields, which promote them, have no plan
	}
	if isNamed(t, "encoding/json", "Number") {
		return true
	}
	// UnmarshalJSONFrom, MarshalJSONTo and AppendText are
	// encoding/json/v2's, which v1 calls too under GOEXPERIMENT=jsonv2.
	names := []string{"UnmarshalJSON", "UnmarshalText", "UnmarshalJSONFrom"}
	if encode {
		names = []string{"MarshalJSON", "MarshalText", "MarshalJSONTo", "AppendText"}
	}
	for _, name := range names {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name); obj != nil {
			return true
		}
	}
	return false
}

// jsonKey is the name encoding/json gives a struct field's member, "" for
// a field it neither reads nor writes, and whether it is left out when
// empty; ok is false for a field a plan does not handle as encoding/json
// does (embedded, ",string", ",omitzero", a name with characters
// encoding/json may treat otherwise).
func jsonKey(f *types.Var, tag string) (key string, omitEmpty, ok bool) {
	if f.Embedded() {
		return "", false, false
	}
	t := typeschema.ParseJSONTag(tag)
	switch {
	case !f.Exported() || t.Skip:
		return "", false, true
	case t.AsString || t.OmitZero:
		return "", false, false
	case t.Name == "":
		t.Name = f.Name()
	}
	return t.Name, t.OmitEmpty, plainKey(t.Name)
}

// plainKey reports whether a member name is made of letters, digits and
// "_-.$" only: encoding/json takes any such tag as it is, and a reader
// compares it byte for byte.
func plainKey(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-.$", c) >= 0) {
			return false
		}
	}
	return s != ""
}
