package gen

import (
	"go/types"
	"reflect"
	"strconv"
	"strings"
)

// A tool's decoder reads its arguments into its Go input without
// reflection, with runtime/jsonread, when they are the plain JSON nearly
// every call sends; for anything else it reports false, its value as it
// was, and the handler decodes with runtime.DecodeArgs (encoding/json) as
// it always did. So it never changes what a call decodes to, only what it
// costs: encoding/json's reflection is most of a handler's own work.
//
// A decoder is written for the code-first tools whose input is made only
// of what it reads exactly as encoding/json does: strings, booleans,
// integers, floats, slices, pointers and structs of them, with no method
// of their own for JSON or text, no embedded field and no ",string"
// option. Any other input keeps DecodeArgs alone, as do tools.yaml's.

// jsonreadPath is the package generated decoders read with.
const jsonreadPath = "github.com/toolgen-go/toolgen/runtime/jsonread"

// readPlan is how a decoder reads one Go type.
type readPlan struct {
	kind   readKind
	bits   int       // readInt, readUint, readFloat: the size; 0 for int and uint
	typ    *typeExpr // the type as the file writes it
	elem   *readPlan // readSlice, readPointer
	fields []readField
}

// readField is a struct field a decoder reads: its JSON name and its Go
// name.
type readField struct {
	key, name string
	plan      *readPlan
}

type readKind int

const (
	readString readKind = iota
	readBool
	readInt
	readUint
	readFloat
	readSlice
	readPointer
	readStruct
)

// maxReadDepth bounds how deep a decoder reads; a deeper input keeps
// DecodeArgs alone.
const maxReadDepth = 8

// readPlanner makes the plans of one file's decoders.
type readPlanner struct{ w *exprWriter }

// plan is t's plan, or nil when a decoder cannot read t exactly as
// encoding/json does.
func (p readPlanner) plan(t types.Type, depth int) *readPlan {
	if depth > maxReadDepth || decodesItself(t) {
		return nil
	}
	e, ok := p.w.expr(t)
	if !ok {
		return nil
	}
	pl := &readPlan{typ: e}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		k := u.Kind()
		switch {
		case k == types.String:
			pl.kind = readString
		case k == types.Bool:
			pl.kind = readBool
		case k >= types.Int && k <= types.Int64:
			pl.kind, pl.bits = readInt, []int{0, 8, 16, 32, 64}[k-types.Int]
		case k >= types.Uint && k <= types.Uint64:
			pl.kind, pl.bits = readUint, []int{0, 8, 16, 32, 64}[k-types.Uint]
		case k == types.Float32:
			pl.kind, pl.bits = readFloat, 32
		case k == types.Float64:
			pl.kind, pl.bits = readFloat, 64
		default:
			return nil
		}
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Uint8 {
			return nil // base64, to encoding/json
		}
		pl.kind, pl.elem = readSlice, p.plan(u.Elem(), depth+1)
		if !p.element(pl.elem) {
			return nil
		}
	case *types.Pointer:
		if _, named := types.Unalias(t).(*types.Named); named {
			return nil
		}
		pl.kind, pl.elem = readPointer, p.plan(u.Elem(), depth+1)
		if !p.element(pl.elem) || pl.elem.kind == readPointer {
			return nil
		}
	case *types.Struct:
		if depth > 0 && e.kind == exprStruct {
			return nil // an unnamed struct type within: not worth spelling out
		}
		pl.kind = readStruct
		seen := map[string]bool{}
		for i := range u.NumFields() {
			f := u.Field(i)
			key, ok := jsonKey(f, u.Tag(i))
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
			pl.fields = append(pl.fields, readField{key: key, name: f.Name(), plan: fp})
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
func (readPlanner) element(pl *readPlan) bool {
	return pl != nil && !(pl.kind == readStruct && pl.typ.kind == exprStruct)
}

// flatPlan is the plan of a flat-parameter tool's input: a struct of one
// field a parameter, named by fields.
func (p readPlanner) flatPlan(params []*types.Var, fields []string, in *typeExpr) *readPlan {
	pl := &readPlan{kind: readStruct, typ: in}
	if len(params) > 64 {
		return nil
	}
	for i, v := range params {
		fp := p.plan(v.Type(), 1)
		if fp == nil || !plainKey(v.Name()) {
			return nil
		}
		pl.fields = append(pl.fields, readField{key: v.Name(), name: fields[i], plan: fp})
	}
	return pl
}

// decodesItself reports whether t or *t has a method encoding/json would
// call to decode it (or one of the same name: a decoder leaves it alone).
func decodesItself(t types.Type) bool {
	for _, name := range []string{"UnmarshalJSON", "UnmarshalText"} {
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name); obj != nil {
			return true
		}
	}
	return false
}

// jsonKey is the name encoding/json gives a struct field's member, "" for
// a field it does not read; ok is false for a field a decoder does not
// read as encoding/json does (embedded, ",string", a name with characters
// encoding/json may treat otherwise).
func jsonKey(f *types.Var, tag string) (key string, ok bool) {
	if f.Embedded() {
		return "", false
	}
	if !f.Exported() {
		return "", true
	}
	value := reflect.StructTag(tag).Get("json")
	if value == "-" {
		return "", true
	}
	name, opts, _ := strings.Cut(value, ",")
	for opt := range strings.SplitSeq(opts, ",") {
		if opt == "string" {
			return "", false
		}
	}
	if name == "" {
		return f.Name(), true
	}
	return name, plainKey(name)
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

// readPaths adds the packages a plan's types come from to uses.
func readPaths(pl *readPlan, uses []string) []string {
	uses = typePaths(pl.typ, uses)
	if pl.elem != nil {
		uses = readPaths(pl.elem, uses)
	}
	for _, f := range pl.fields {
		uses = readPaths(f.plan, uses)
	}
	return uses
}

// decoderText is a tool's decoder as gofmt lays it out.
func decoderText(q qualifiers, name, what string, c *call) string {
	var b strings.Builder
	for _, l := range wrapComment(name + " reads the arguments of " + what + " into v without reflection when they are plain JSON; false, v as it was, leaves them to runtime.DecodeArgs.") {
		b.WriteString("// " + l + "\n")
	}
	b.WriteString("func " + name + "(args []byte, v *" + typeText(q, c.in) + ") bool {\n")
	b.WriteString("\td, r := *v, " + q.qual(jsonreadPath, "New") + "(args)\n")
	dw := &decodeWriter{b: &b, q: q, names: map[string]int{}}
	dw.object(1, "d", c.read)
	b.WriteString("\tif !r.End() {\n\t\treturn false\n\t}\n\t*v = d\n\treturn true\n}\n")
	return b.String()
}

// decodeWriter writes a decoder's statements.
type decodeWriter struct {
	b     *strings.Builder
	q     qualifiers
	names map[string]int // the variables of each prefix declared so far
}

func (w *decodeWriter) line(depth int, s string) {
	w.b.WriteString(strings.Repeat("\t", depth) + s + "\n")
}

// name is a new variable's name: prefix, then prefix1, prefix2...
func (w *decodeWriter) name(prefix string) string {
	n := w.names[prefix]
	w.names[prefix]++
	if n == 0 {
		return prefix
	}
	return prefix + strconv.Itoa(n)
}

// object reads a JSON object into target's fields.
func (w *decodeWriter) object(depth int, target string, pl *readPlan) {
	w.line(depth, "r.Object()")
	if len(pl.fields) == 0 {
		w.line(depth, "for r.Member() {")
		w.line(depth+1, "r.Fail()")
		w.line(depth, "}")
		return
	}
	seen := w.name("seen")
	w.line(depth, "var "+seen+" uint64")
	w.line(depth, "for r.Member() {")
	w.line(depth+1, "switch string(r.Key()) {")
	for i, f := range pl.fields {
		w.line(depth+1, "case "+strconv.Quote(f.key)+":")
		w.line(depth+2, "r.Once(&"+seen+", "+strconv.Itoa(i)+")")
		w.value(depth+2, target+"."+f.name, f.plan, false)
	}
	w.line(depth+1, "default:")
	w.line(depth+2, "r.Fail()")
	w.line(depth+1, "}")
	w.line(depth, "}")
}

// value reads one value into target; fresh: target is a new variable
// (nil), so it need not be checked.
func (w *decodeWriter) value(depth int, target string, pl *readPlan, fresh bool) {
	switch pl.kind {
	case readStruct:
		w.object(depth, target, pl)
	case readSlice:
		w.unset(depth, target, fresh)
		s := w.name("s")
		w.line(depth, s+" := "+typeText(w.q, pl.typ)+"{}")
		w.line(depth, "r.Array()")
		w.line(depth, "for r.Item() {")
		if read := w.scalar(pl.elem); read != "" {
			w.line(depth+1, s+" = append("+s+", "+read+")")
		} else {
			e := w.name("e")
			w.line(depth+1, "var "+e+" "+typeText(w.q, pl.elem.typ))
			w.value(depth+1, e, pl.elem, true)
			w.line(depth+1, s+" = append("+s+", "+e+")")
		}
		w.line(depth, "}")
		w.line(depth, target+" = "+s)
	case readPointer:
		w.unset(depth, target, fresh)
		p := w.name("p")
		w.line(depth, p+" := new("+typeText(w.q, pl.elem.typ)+")")
		if pl.elem.kind == readStruct {
			w.value(depth, p, pl.elem, true)
		} else {
			w.value(depth, "*"+p, pl.elem, true)
		}
		w.line(depth, target+" = "+p)
	default:
		w.line(depth, target+" = "+w.scalar(pl))
	}
}

// unset makes the read fail when target (a slice or a pointer) is set
// already, by a default: encoding/json decodes into what it points at,
// which a decoder does not repeat.
func (w *decodeWriter) unset(depth int, target string, fresh bool) {
	if fresh {
		return
	}
	w.line(depth, "if "+target+" != nil {")
	w.line(depth+1, "r.Fail()")
	w.line(depth, "}")
}

// scalar is the expression that reads a scalar of pl's type, "" for a
// plan that is not a scalar.
func (w *decodeWriter) scalar(pl *readPlan) string {
	var read, as string
	switch pl.kind {
	case readString:
		read, as = "r.String()", "string"
	case readBool:
		read, as = "r.Bool()", "bool"
	case readInt:
		read, as = "r.Int("+strconv.Itoa(pl.bits)+")", "int64"
	case readUint:
		read, as = "r.Uint("+strconv.Itoa(pl.bits)+")", "uint64"
	case readFloat:
		read, as = "r.Float("+strconv.Itoa(pl.bits)+")", "float64"
	default:
		return ""
	}
	if t := pl.typ; t.kind == exprNamed && t.path == "" && t.name == as {
		return read
	}
	return typeText(w.q, pl.typ) + "(" + read + ")"
}
