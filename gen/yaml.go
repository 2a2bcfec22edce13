package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strconv"

	"github.com/toolgen-go/toolgen/internal/toolsyaml"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

func tokenPosition(file string) token.Position { return token.Position{Filename: file} }

// loadYAML reads a schema-first tools.yaml into a unit. Parsing is strict
// and every schema is compiled (internal/toolsyaml); errors carry the
// file's line and column. The unit's tools are served by the methods of a
// Handlers value, h, and its decls are the Go types of the schemas.
func (g *generator) loadYAML(path string) *unit {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(g.cfg.Dir, path)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		g.errs.add(tokenPosition(path), "%v", err)
		return nil
	}
	f, err := toolsyaml.Parse(abs, data)
	if err != nil {
		g.yamlErrors(err)
		return nil
	}
	ts, err := toolsyaml.GoTypes(f)
	if err != nil {
		g.yamlErrors(err)
		return nil
	}
	u := &unit{
		path:    filepath.Join(filepath.Dir(abs), g.cfg.output()),
		pkgName: f.Package,
		// The file's name, not its path: the output must not depend on
		// the directory toolgen runs in (-check compares bytes).
		source:   filepath.Base(abs),
		handlers: true,
		kit:      toolkit{name: f.Toolkit, version: f.Version, pos: token.Position{Filename: abs, Line: 1, Column: 1}},
		pkgPos:   token.Position{Filename: abs, Line: 1, Column: 1},
	}
	if f.PackagePos.Line > 0 {
		u.pkgPos.Line, u.pkgPos.Column = f.PackagePos.Line, f.PackagePos.Col
	}
	for _, d := range ts.Decls {
		u.decls = append(u.decls, yamlDecl(d))
	}
	defaults := newYAMLDefaults(ts.Decls)
	at := func(p toolsyaml.Pos) token.Position {
		return token.Position{Filename: abs, Line: p.Line, Column: p.Col}
	}
	for _, yt := range f.Tools {
		t := &tool{
			name:        yt.Name,
			title:       yt.Title,
			description: yt.Description,
			version:     yt.Version,
			toolkit:     yt.Toolkit,
			input:       yt.Input.JSON,
			examples:    yt.Examples,
			secrets:     yt.Secrets,
			scopes:      yt.Scopes,
			rate:        rateLimit{n: yt.RateLimit.N, per: yt.RateLimit.Per},
			timeout:     yt.Timeout,
			approval:    yt.Approval,
			task:        yt.Task,
			pos:         at(yt.Pos),
			idents:      toolIdents(yt.GoName, yt.Output != nil),
			call: &call{recv: "h", recvType: named("", "Handlers"), bound: true, fn: yt.GoName, ctx: true, err: true,
				in: yamlType(ts.Input[yt.Name]), result: resultResult},
		}
		if a := yt.Annotations; a != nil {
			t.annotations = annotations{readOnly: a.ReadOnlyHint, destructive: a.DestructiveHint, idempotent: a.IdempotentHint, openWorld: a.OpenWorldHint}
		}
		hint := "content"
		if yt.Output != nil {
			t.output = yt.Output.JSON
			t.call.result, t.call.res = resultStructured, yamlType(ts.Output[yt.Name])
			hint = ""
		}
		t.signature = typeschema.Signature(t.name, t.input, t.output, hint)
		t.call.defaults = defaults.input(ts.Input[yt.Name])
		if t.description == "" {
			g.warn(t.pos, "tool %s has no description: add a description", t.name)
		}
		for _, p := range yt.Input.Undocumented() {
			g.warn(at(p.Pos), "property %s of tool %s has no description: add a description", p.Name, t.name)
		}
		u.tools = append(u.tools, t)
	}
	for _, msg := range defaults.bad {
		g.errs.add(tokenPosition(abs), "%s", msg)
	}
	u.nameDefaultFuncs()
	for _, yp := range f.Prompts {
		p := &prompt{name: yp.Name, title: yp.Title, description: yp.Description, template: yp.Template, pos: at(yp.Pos)}
		for _, a := range yp.Arguments {
			p.args = append(p.args, promptArg{name: a.Name, description: a.Description, required: a.Required})
		}
		u.prompts = append(u.prompts, p)
	}
	return u
}

func (g *generator) yamlErrors(err error) {
	var list toolsyaml.ErrorList
	if !errors.As(err, &list) {
		g.errs.add(token.Position{}, "%v", err)
		return
	}
	for _, e := range list {
		g.errs.add(token.Position{Filename: e.File, Line: e.Pos.Line, Column: e.Pos.Col}, "%s", e.Msg)
	}
}

// yamlType is a Go type of the schema-first mapping as a typeExpr.
func yamlType(t *toolsyaml.Type) *typeExpr {
	switch t.Kind {
	case toolsyaml.KindString:
		return named("", "string")
	case toolsyaml.KindInt:
		return named("", "int64")
	case toolsyaml.KindFloat:
		return named("", "float64")
	case toolsyaml.KindBool:
		return named("", "bool")
	case toolsyaml.KindTime:
		return named("time", "Time")
	case toolsyaml.KindNamed:
		return named("", t.Name)
	case toolsyaml.KindSlice:
		return &typeExpr{kind: exprSlice, elem: yamlType(t.Elem)}
	case toolsyaml.KindMap:
		return &typeExpr{kind: exprMap, key: named("", "string"), elem: yamlType(t.Elem)}
	case toolsyaml.KindPointer:
		return &typeExpr{kind: exprPointer, elem: yamlType(t.Elem)}
	}
	return named("encoding/json", "RawMessage")
}

// yamlDecl is a named type of the schema-first mapping as a typeDecl.
func yamlDecl(d *toolsyaml.Decl) *declaredType {
	td := &declaredType{name: d.Name, doc: d.Comment, alias: d.Alias}
	switch d.Kind {
	case toolsyaml.DeclStruct:
		for _, fd := range d.Fields {
			tag := fd.JSONName
			if fd.Optional {
				if fd.Type.ZeroOmit() {
					tag += ",omitzero"
				} else {
					tag += ",omitempty"
				}
			}
			td.fields = append(td.fields, field{name: fd.Name, typ: yamlType(fd.Type), tag: fmt.Sprintf("json:%q", tag), doc: fd.Doc})
		}
	case toolsyaml.DeclEnum, toolsyaml.DeclDefined:
		td.underlying = yamlType(d.Underlying)
		for _, v := range d.Values {
			lit := string(v.Value) // a JSON integer is a Go integer literal
			if d.Underlying.Kind != toolsyaml.KindInt {
				var s string
				_ = json.Unmarshal(v.Value, &s) // a JSON string, checked by the parser
				lit = strconv.Quote(s)
			}
			td.consts = append(td.consts, enumConst{name: v.Name, literal: lit, doc: v.Comment})
		}
	}
	return td
}
