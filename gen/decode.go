package gen

import (
	"strconv"
	"strings"
	"unicode"
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

// decoderText is the decoder c calls (c.decode, which c declares: the
// tools of one input type share it), as gofmt lays it out.
func decoderText(q qualifiers, what string, c *call) string {
	return decoderDoc(q, c, func(name, v string) string {
		if c.decode.shared {
			what += ", and of the tools after it with the same input type,"
		}
		return name + " reads the arguments of " + what + " into " + v + " without reflection when they are plain JSON; false, " + v + " as it was, leaves them to runtime.DecodeArgs."
	})
}

// decoderDoc is a decoder of c.in, c.read's plan, with the doc comment
// doc writes for the decoder's name and its value's variable.
func decoderDoc(q qualifiers, c *call, doc func(name, v string) string) string {
	name := c.decode.name
	w := newCodeWriter(q, c.read, typeText(q, c.in), q.qual(jsonreadPath, "New"))
	v, d, args := w.name("v"), w.name("d"), w.name("args")
	w.r = w.name("r")
	for _, l := range wrapComment(doc(name, v)) {
		w.line(0, "// "+l)
	}
	w.line(0, "func "+name+"("+args+" []byte, "+v+" *"+typeText(q, c.in)+") bool {")
	w.line(1, d+", "+w.r+" := *"+v+", "+q.qual(jsonreadPath, "New")+"("+args+")")
	w.object(1, d, c.read)
	w.line(1, "if !"+w.r+".End() {")
	w.line(2, "return false")
	w.line(1, "}")
	w.line(1, "*"+v+" = "+d)
	w.line(1, "return true")
	w.line(0, "}")
	return w.b.String()
}

// codeWriter writes a decoder's or an encoder's statements.
type codeWriter struct {
	b     strings.Builder
	q     qualifiers
	r, w  string          // the jsonread.Reader's or jsonwrite.Writer's variable
	taken map[string]bool // the names the code uses, which a variable must not hide
}

// newCodeWriter returns a codeWriter whose variables hide none of the
// names that pl's types, and the other text given, are written with (a
// package p, a type r).
func newCodeWriter(q qualifiers, pl *jsonPlan, text ...string) *codeWriter {
	w := &codeWriter{q: q, taken: map[string]bool{}}
	var add func(pl *jsonPlan)
	add = func(pl *jsonPlan) {
		text = append(text, typeText(q, pl.typ))
		if pl.elem != nil {
			add(pl.elem)
		}
		for _, f := range pl.fields {
			add(f.plan)
		}
	}
	add(pl)
	for _, t := range text {
		addIdents(w.taken, t)
	}
	return w
}

// addIdents adds the identifiers in Go text t to set (and words of its
// tags and strings: more names avoided than need be, never fewer).
func addIdents(set map[string]bool, t string) {
	start := -1
	for i, c := range t {
		word := c == '_' || unicode.IsLetter(c) || start >= 0 && unicode.IsDigit(c)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			set[t[start:i]] = true
			start = -1
		}
	}
	if start >= 0 {
		set[t[start:]] = true
	}
}

func (w *codeWriter) line(depth int, s string) {
	for range depth {
		w.b.WriteByte('\t')
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// name is a new variable's name: prefix, or else prefix1, prefix2... the
// first that is neither taken nor declared already.
func (w *codeWriter) name(prefix string) string {
	n := prefix
	for i := 1; w.taken[n]; i++ {
		n = prefix + strconv.Itoa(i)
	}
	w.taken[n] = true
	return n
}

// object reads a JSON object into target's fields.
func (w *codeWriter) object(depth int, target string, pl *jsonPlan) {
	w.line(depth, w.r+".Object()")
	if len(pl.fields) == 0 {
		w.line(depth, "for "+w.r+".Member() {")
		w.line(depth+1, w.r+".Fail()")
		w.line(depth, "}")
		return
	}
	seen := w.name("seen")
	w.line(depth, "var "+seen+" uint64")
	w.line(depth, "for "+w.r+".Member() {")
	w.line(depth+1, "switch string("+w.r+".Key()) {")
	for i, f := range pl.fields {
		w.line(depth+1, "case "+strconv.Quote(f.key)+":")
		w.line(depth+2, w.r+".Once(&"+seen+", "+strconv.Itoa(i)+")")
		w.value(depth+2, target+"."+f.name, f.plan, false)
	}
	w.line(depth+1, "default:")
	w.line(depth+2, w.r+".Fail()")
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
		w.line(depth, w.r+".Array()")
		w.line(depth, "for "+w.r+".Item() {")
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
	w.line(depth+1, w.r+".Fail()")
	w.line(depth, "}")
}

// scalar is the expression that reads a scalar of pl's type, "" for a
// plan that is not a scalar.
func (w *codeWriter) scalar(pl *jsonPlan) string {
	var read, as string
	switch pl.kind {
	case planString:
		read, as = w.r+".String()", "string"
	case planBool:
		read, as = w.r+".Bool()", "bool"
	case planInt:
		read, as = w.r+".Int("+strconv.Itoa(pl.bits)+")", "int64"
	case planUint:
		read, as = w.r+".Uint("+strconv.Itoa(pl.bits)+")", "uint64"
	case planFloat:
		read, as = w.r+".Float("+strconv.Itoa(pl.bits)+")", "float64"
	default:
		return ""
	}
	if t := pl.typ; t.kind == exprNamed && t.path == "" && t.name == as {
		return read
	}
	return typeText(w.q, pl.typ) + "(" + read + ")"
}
