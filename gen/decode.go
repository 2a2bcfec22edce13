package gen

import (
	"strconv"
	"strings"
)

// A tool's decoder reads its arguments into its Go input without
// reflection, with runtime/jsonread, when they are the plain JSON nearly
// every call sends; for anything else it reports false, its value as it
// was, and the handler decodes with runtime.DecodeArgs (encoding/json) as
// it always did. So it never changes what a call decodes to, only what it
// costs: encoding/json's reflection was most of a handler's own work.
// tools.yaml tools keep DecodeArgs alone.

// jsonreadPath is the package generated decoders read with.
const jsonreadPath = "github.com/toolgen-go/toolgen/runtime/jsonread"

// planPaths adds the packages a plan's types come from to uses.
func planPaths(pl *jsonPlan, uses []string) []string {
	uses = typePaths(pl.typ, uses)
	if pl.elem != nil {
		uses = planPaths(pl.elem, uses)
	}
	for _, f := range pl.fields {
		uses = planPaths(f.plan, uses)
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
	dw := &codeWriter{b: &b, q: q, names: map[string]int{}}
	dw.object(1, "d", c.read)
	b.WriteString("\tif !r.End() {\n\t\treturn false\n\t}\n\t*v = d\n\treturn true\n}\n")
	return b.String()
}

// codeWriter writes a decoder's or an encoder's statements.
type codeWriter struct {
	b     *strings.Builder
	q     qualifiers
	names map[string]int // the variables of each prefix declared so far
}

func (w *codeWriter) line(depth int, s string) {
	w.b.WriteString(strings.Repeat("\t", depth) + s + "\n")
}

// name is a new variable's name: prefix, then prefix1, prefix2...
func (w *codeWriter) name(prefix string) string {
	n := w.names[prefix]
	w.names[prefix]++
	if n == 0 {
		return prefix
	}
	return prefix + strconv.Itoa(n)
}

// object reads a JSON object into target's fields.
func (w *codeWriter) object(depth int, target string, pl *jsonPlan) {
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
func (w *codeWriter) value(depth int, target string, pl *jsonPlan, fresh bool) {
	switch pl.kind {
	case planStruct:
		w.object(depth, target, pl)
	case planSlice:
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
	case planPointer:
		w.unset(depth, target, fresh)
		p := w.name("p")
		w.line(depth, p+" := new("+typeText(w.q, pl.elem.typ)+")")
		if pl.elem.kind == planStruct {
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
func (w *codeWriter) unset(depth int, target string, fresh bool) {
	if fresh {
		return
	}
	w.line(depth, "if "+target+" != nil {")
	w.line(depth+1, "r.Fail()")
	w.line(depth, "}")
}

// scalar is the expression that reads a scalar of pl's type, "" for a
// plan that is not a scalar.
func (w *codeWriter) scalar(pl *jsonPlan) string {
	var read, as string
	switch pl.kind {
	case planString:
		read, as = "r.String()", "string"
	case planBool:
		read, as = "r.Bool()", "bool"
	case planInt:
		read, as = "r.Int("+strconv.Itoa(pl.bits)+")", "int64"
	case planUint:
		read, as = "r.Uint("+strconv.Itoa(pl.bits)+")", "uint64"
	case planFloat:
		read, as = "r.Float("+strconv.Itoa(pl.bits)+")", "float64"
	default:
		return ""
	}
	if t := pl.typ; t.kind == exprNamed && t.path == "" && t.name == as {
		return read
	}
	return typeText(w.q, pl.typ) + "(" + read + ")"
}
