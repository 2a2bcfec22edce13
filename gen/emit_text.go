package gen

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Text pieces are the parts of a generated file written as gofmt-ready
// text instead of built with jennifer and laid out by format.Source: the
// schema constants, the bodies of the Tools functions and the handlers
// (emit_handler.go). They are most of a large file (2.2 of the 2.4 MB of
// 1,000 tools) and were most of jennifer's and format.Source's time on it
// (BENCHMARKS.md, "Generator"), and their layout is simple enough to write
// exactly as gofmt would: doc comments, raw strings, statements one to a
// line, and keyed composite literals whose one-line values gofmt aligns in
// runs (a struct type's aligned fields go through format.Source alone).
// Every golden file, compared byte for byte and checked gofmt-clean,
// holds the text to gofmt's layout.
//
// render leaves a placeholder comment where each piece goes, and
// [textPieces.fill] puts the pieces in after format.Source. A piece that
// refers to another package needs the name jennifer gives that package in
// the import block, known only once jennifer has rendered: render ends the
// file with a probe that refers to each such package, reads the names
// from what jennifer wrote, and cuts the probe off before formatting.
type textPieces struct {
	// mark starts every placeholder comment: random for each file, so
	// that no comment of the user's (a description) can be taken for one.
	mark   string
	pieces []func(q qualifiers) string
	uses   []string // import paths the pieces refer to
	texts  []string // the pieces written, once jennifer has rendered
}

// qualifiers maps an import path to the name the file refers to it by
// ("" for the generating package itself).
type qualifiers map[string]string

// qual is the qualified identifier path.name as the file writes it.
func (q qualifiers) qual(path, name string) string {
	if n := q[path]; n != "" {
		return n + "." + name
	}
	return name
}

func newTextPieces() *textPieces {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return &textPieces{mark: "toolgen:text:" + hex.EncodeToString(b[:]) + ":"}
}

// add returns the placeholder of a piece whose text text writes, given the
// names of the packages in uses: a line of its own in the file.
func (p *textPieces) add(text func(q qualifiers) string, uses ...string) jen.Code {
	for _, u := range uses {
		if !slices.Contains(p.uses, u) {
			p.uses = append(p.uses, u)
		}
	}
	p.pieces = append(p.pieces, text)
	return jen.Comment(p.mark + strconv.Itoa(len(p.pieces)-1))
}

// probe ends f with the declaration that makes jennifer import and name
// every package the pieces refer to.
func (p *textPieces) probe(f *jen.File) {
	if len(p.uses) == 0 {
		return
	}
	refs := make([]jen.Code, len(p.uses))
	for i, path := range p.uses {
		refs[i] = jen.Qual(path, "X")
	}
	f.Comment(p.mark + "names")
	f.Var().Id("_").Op("=").Index().Id("any").Values(refs...)
}

// write cuts the probe off src, as jennifer rendered it, and writes the
// pieces with the names it read there.
func (p *textPieces) write(src []byte) (_ []byte, err error) {
	q := qualifiers{}
	if len(p.uses) > 0 {
		i := bytes.LastIndex(src, []byte("// "+p.mark+"names\n"))
		if i < 0 {
			return nil, fmt.Errorf("the names probe is missing")
		}
		probe := string(src[i:])
		src = src[:i]
		_, list, _ := strings.Cut(probe, "{")
		list, _, _ = strings.Cut(list, "}")
		refs := strings.Split(list, ",")
		if len(refs) != len(p.uses) {
			return nil, fmt.Errorf("the names probe reads %q", probe)
		}
		for i, r := range refs {
			name, _, _ := strings.Cut(strings.TrimSpace(r), ".X")
			if name == "X" {
				name = "" // the generating package's own
			}
			q[p.uses[i]] = name
		}
	}
	p.texts = make([]string, len(p.pieces))
	defer func() {
		// A piece that cannot be written (typeText's struct that does
		// not format) is toolgen's bug, reported as one.
		if e := recover(); e != nil {
			src, err = nil, fmt.Errorf("%v", e)
		}
	}()
	for i, text := range p.pieces {
		p.texts[i] = text(q)
	}
	return src, nil
}

// fill puts each piece in place of its placeholder's line in the
// formatted file.
func (p *textPieces) fill(src []byte) ([]byte, error) {
	pieces := p.texts
	if len(pieces) == 0 {
		return src, nil
	}
	size := len(src)
	for _, t := range pieces {
		size += len(t)
	}
	out := make([]byte, 0, size)
	mark := []byte("// " + p.mark)
	for n := range pieces {
		i := bytes.Index(src, mark)
		if i < 0 {
			return nil, fmt.Errorf("text piece %d has no place", n)
		}
		line := bytes.LastIndexByte(src[:i], '\n') + 1
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 || string(src[i+len(mark):i+end]) != strconv.Itoa(n) {
			return nil, fmt.Errorf("text piece %d is out of place", n)
		}
		out = append(out, src[:line]...)
		out = append(out, pieces[n]...)
		src = src[i+end+1:]
	}
	return append(out, src...), nil
}

// schemaText is a schema's named constant, as emitSchema's placeholder
// stands for it.
func schemaText(name, what string, schema json.RawMessage) string {
	var b strings.Builder
	for _, l := range wrapComment(name + " is " + what + ".") {
		b.WriteString("// " + l + "\n")
	}
	b.WriteString("const " + name + " = " + stringText(jsonText(schema, true)) + "\n")
	return b.String()
}

// toolsBody is the body of a Tools function: the return of the tools'
// descriptors, each with its handler.
func toolsBody(q qualifiers, tools []*tool) string {
	var b strings.Builder
	b.WriteString("\treturn " + q.qual(runtimePath, "ToolList") + "{")
	if len(tools) == 0 {
		b.WriteString("}\n")
		return b.String()
	}
	for i, t := range tools {
		if i == 0 {
			b.WriteString("{\n")
		} else {
			b.WriteString("\t}, {\n")
		}
		writeKeyed(&b, 2, toolFields(q, t))
	}
	b.WriteString("\t}}\n")
	return b.String()
}

// appendToolsBody is the body of a function that appends tools to its
// parameter tools, in the layout of toolsBody.
func appendToolsBody(q qualifiers, tools []*tool) string {
	body := toolsBody(q, tools)
	body = "\treturn append(tools, " + strings.TrimPrefix(body, "\treturn ")
	return strings.TrimSuffix(body, "\n") + "...)\n"
}

// keyValue is one element of a keyed composite literal; a value that
// spans lines carries its own indentation.
type keyValue struct{ key, value string }

// writeKeyed writes the elements of a keyed composite literal, each on a
// line of its own at depth tabs, as gofmt lays them out: the values of a
// run of one-line elements aligned one space past the longest key's
// colon, an element that does not fit on one line (its value spans lines,
// or it is longer than gofmt's limit of 1e6 bytes for a line it measures)
// standing alone with its value one space after the colon. (gofmt breaks
// the alignment also where one key is far longer than the ones before it;
// the keys here are short field names, which never do.)
func writeKeyed(b *strings.Builder, depth int, elems []keyValue) {
	indent := strings.Repeat("\t", depth)
	alone := func(e keyValue) bool {
		const maxLine = 1e6 // go/printer's "infinity" for nodeSize
		return strings.Contains(e.value, "\n") || len(e.key)+2+len(e.value) > maxLine
	}
	for i := 0; i < len(elems); {
		if alone(elems[i]) {
			b.WriteString(indent + elems[i].key + ": " + elems[i].value + ",\n")
			i++
			continue
		}
		j, width := i, 0
		for ; j < len(elems) && !alone(elems[j]); j++ {
			width = max(width, len(elems[j].key))
		}
		for _, e := range elems[i:j] {
			b.WriteString(indent + e.key + ":" + strings.Repeat(" ", width-len(e.key)+1) + e.value + ",\n")
		}
		i = j
	}
}

// toolFields are the fields of t's runtime.Tool literal, at depth 2 (the
// elements of the ToolList a Tools function returns).
func toolFields(q qualifiers, t *tool) []keyValue {
	var kv []keyValue
	add := func(key, value string) { kv = append(kv, keyValue{key, value}) }
	add("Name", fmt.Sprintf("%#v", t.name))
	if t.title != "" {
		add("Title", stringText(t.title))
	}
	if t.description != "" {
		add("Description", stringText(t.description))
	}
	if t.version != "" {
		add("Version", fmt.Sprintf("%#v", t.version))
	}
	if t.toolkit != "" {
		add("Toolkit", fmt.Sprintf("%#v", t.toolkit))
	}
	if !t.annotations.empty() {
		var hints []keyValue
		hint := func(name string, v *bool) {
			if v != nil {
				hints = append(hints, keyValue{name, q.qual(runtimePath, "Bool") + "(" + strconv.FormatBool(*v) + ")"})
			}
		}
		hint("ReadOnlyHint", t.annotations.readOnly)
		hint("DestructiveHint", t.annotations.destructive)
		hint("IdempotentHint", t.annotations.idempotent)
		hint("OpenWorldHint", t.annotations.openWorld)
		var b strings.Builder
		b.WriteString("&" + q.qual(runtimePath, "Annotations") + "{\n")
		writeKeyed(&b, 3, hints)
		b.WriteString("\t\t}")
		add("Annotations", b.String())
	}
	raw := q.qual("encoding/json", "RawMessage")
	add("InputSchema", raw+"("+t.idents.input+")")
	if t.idents.output != "" {
		add("OutputSchema", raw+"("+t.idents.output+")")
	}
	if len(t.examples) > 0 {
		var b strings.Builder
		b.WriteString("[]" + raw + "{\n")
		for _, e := range t.examples {
			b.WriteString("\t\t\t" + raw + "(" + stringText(jsonText(e, false)) + "),\n")
		}
		b.WriteString("\t\t}")
		add("Examples", b.String())
	}
	if len(t.secrets) > 0 {
		add("Secrets", stringsText(t.secrets))
	}
	if len(t.scopes) > 0 {
		add("Scopes", stringsText(t.scopes))
	}
	if t.rate.n > 0 {
		add("RateLimit", q.qual(runtimePath, "Rate")+"{N: "+strconv.Itoa(t.rate.n)+", Per: "+durationText(q, t.rate.per)+"}")
	}
	if t.timeout > 0 {
		add("Timeout", durationText(q, t.timeout))
	}
	if t.approval != "" {
		add("Approval", q.qual(runtimePath, approvalConst[t.approval]))
	}
	if t.task != "" {
		add("Task", q.qual(runtimePath, taskConst[t.task]))
	}
	if t.signature != "" {
		add("Signature", stringText(t.signature))
	}
	handler := t.idents.handler
	switch {
	case t.call.bound:
		handler = bindIdent + "(" + t.call.recv + ", " + handler + ")"
	case t.call.recv != "":
		handler += "(" + t.call.recv + ")"
	}
	add("Handler", handler)
	return kv
}

// toolUses are the packages toolsBody refers to for tools.
func toolUses(tools []*tool) []string {
	if len(tools) == 0 {
		return []string{runtimePath}
	}
	uses := []string{runtimePath, "encoding/json"}
	for _, t := range tools {
		if t.rate.n > 0 || t.timeout > 0 {
			return append(uses, "time")
		}
	}
	return uses
}

// stringsText is a []string literal on one line.
func stringsText(ss []string) string {
	quoted := make([]string, len(ss))
	for i, s := range ss {
		quoted[i] = fmt.Sprintf("%#v", s)
	}
	return "[]string{" + strings.Join(quoted, ", ") + "}"
}
