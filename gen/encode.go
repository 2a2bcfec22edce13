package gen

import (
	"strconv"
	"strings"
)

// A tool's encoder writes its structured result's JSON without
// reflection, with runtime/jsonwrite, byte for byte as json.Marshal
// does; the handler passes it to runtime.StructuredJSON. For the one value
// Marshal refuses that such a type can hold (a float that is NaN or
// infinite) it reports false, and the handler calls
// runtime.StructuredResult, which fails as it always did. So it never
// changes what a call answers, only what it costs.

// jsonwritePath is the package generated encoders write with.
const jsonwritePath = "github.com/toolgen-go/toolgen/runtime/jsonwrite"

// encoderText is the encoder c calls (c.encode, which c declares: the
// tools of one result type share it), as gofmt lays it out.
func encoderText(q qualifiers, what string, c *call) string {
	name := c.encode.name
	res := strings.ReplaceAll(typeText(q, c.res), "\n", "\n\t")
	w := newCodeWriter(q, c.write, res, q.qual(jsonwritePath, "New"))
	result, v, ok := w.name("result"), w.name("v"), w.name("ok")
	w.w = w.name("w")
	if c.encode.shared {
		what += ", and of the tools after it with the same result type,"
	}
	for _, l := range wrapComment(name + " writes a result of " + what + " as json.Marshal does, without reflection; false (a NaN or an infinity) leaves it to runtime.StructuredResult. It takes any, so that a result type changed without running toolgen again fails the build at its guard alone.") {
		w.line(0, "// "+l)
	}
	w.line(0, "func "+name+"("+result+" any) ([]byte, bool) {")
	if !readsValue(c.write) {
		v = "_" // an empty struct: nothing of it is written but {}
	}
	w.line(1, v+", "+ok+" := "+result+".("+res+")")
	w.line(1, "if !"+ok+" {")
	w.line(2, "return nil, false")
	w.line(1, "}")
	w.line(1, w.w+" := "+q.qual(jsonwritePath, "New")+"("+strconv.Itoa(sizeHint(c.write))+")")
	w.write(1, v, c.write)
	w.line(1, "return "+w.w+".Bytes()")
	w.line(0, "}")
	return w.b.String()
}

// write writes the statements that write expr, a value of pl's type.
func (w *codeWriter) write(depth int, expr string, pl *jsonPlan) {
	switch pl.kind {
	case planStruct:
		w.line(depth, w.w+".Object()")
		for _, f := range pl.fields {
			field := expr + "." + f.name
			cond := ""
			if f.omitEmpty {
				cond = nonEmpty(field, f.plan)
			}
			d := depth
			if cond != "" {
				w.line(depth, "if "+cond+" {")
				d++
			}
			w.line(d, w.w+".Field("+strconv.Quote(f.key)+")")
			w.write(d, field, f.plan)
			if cond != "" {
				w.line(depth, "}")
			}
		}
		w.line(depth, w.w+".EndObject()")
	case planSlice:
		w.line(depth, "if "+expr+" == nil {")
		w.line(depth+1, w.w+".Null()")
		w.line(depth, "} else {")
		w.line(depth+1, w.w+".Array()")
		e := w.name("e")
		if readsValue(pl.elem) {
			w.line(depth+1, "for _, "+e+" := range "+expr+" {")
		} else {
			w.line(depth+1, "for range "+expr+" {")
		}
		w.line(depth+2, w.w+".Elem()")
		w.write(depth+2, e, pl.elem)
		w.line(depth+1, "}")
		w.line(depth+1, w.w+".EndArray()")
		w.line(depth, "}")
	case planPointer:
		w.line(depth, "if "+expr+" == nil {")
		w.line(depth+1, w.w+".Null()")
		w.line(depth, "} else {")
		if pl.elem.kind == planStruct {
			w.write(depth+1, expr, pl.elem) // its fields through the pointer
		} else {
			w.write(depth+1, "*"+expr, pl.elem)
		}
		w.line(depth, "}")
	default:
		w.line(depth, w.scalarWrite(expr, pl))
	}
}

// scalarWrite is the statement that writes expr, a scalar of pl's type.
func (w *codeWriter) scalarWrite(expr string, pl *jsonPlan) string {
	as := func(basic string) string {
		if t := pl.typ; t.kind == exprNamed && t.path == "" && t.name == basic {
			return expr
		}
		return basic + "(" + expr + ")"
	}
	switch pl.kind {
	case planString:
		return w.w + ".String(" + as("string") + ")"
	case planBool:
		return w.w + ".Bool(" + as("bool") + ")"
	case planInt:
		return w.w + ".Int(" + as("int64") + ")"
	case planUint:
		return w.w + ".Uint(" + as("uint64") + ")"
	}
	return w.w + ".Float(" + as("float64") + ", " + strconv.Itoa(pl.bits) + ")"
}

// nonEmpty is the condition under which encoding/json writes a field
// marked omitempty, "" for one it always writes (a struct).
func nonEmpty(expr string, pl *jsonPlan) string {
	switch pl.kind {
	case planString:
		return expr + ` != ""`
	case planBool:
		return expr
	case planInt, planUint, planFloat:
		return expr + " != 0"
	case planPointer:
		return expr + " != nil"
	case planSlice:
		return "len(" + expr + ") != 0"
	}
	return ""
}

// readsValue reports whether the code that writes a value of pl's type
// refers to the value: all but a struct with no fields do.
func readsValue(pl *jsonPlan) bool {
	return pl.kind != planStruct || len(pl.fields) > 0
}

// sizeHint is the room an encoder's buffer starts with: about 24 bytes a
// member or value of the plan, enough for most results in one allocation.
func sizeHint(pl *jsonPlan) int {
	n := 0
	var count func(pl *jsonPlan)
	count = func(pl *jsonPlan) {
		n++
		if pl.elem != nil {
			count(pl.elem)
		}
		for _, f := range pl.fields {
			count(f.plan)
		}
	}
	count(pl)
	return min(24*n+16, 1024)
}
