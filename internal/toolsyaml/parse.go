package toolsyaml

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"
	"text/template/parse"
	"time"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.yaml.in/yaml/v3"

	"github.com/toolgen-go/toolgen/internal/compile"
	"github.com/toolgen-go/toolgen/internal/policy"
	"github.com/toolgen-go/toolgen/internal/toolname"
)

// Pos is a 1-based line and column in the file.
type Pos struct{ Line, Col int }

func posOf(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

// File is a parsed, checked tools.yaml.
type File struct {
	Path    string
	Package string // default: the directory's name
	// PackagePos is where the file sets package:, zero when it does not.
	PackagePos Pos
	Toolkit    string // default: Package, capitalised
	Version    string
	// Defs are the file's $defs: schemas that every tool's schemas refer
	// to as "#/$defs/NAME", each a Go type of its own.
	Defs    []*Def
	Tools   []*Tool
	Prompts []*Prompt
}

// Def is one of the file's $defs.
type Def struct {
	Name string
	Key  *yaml.Node // the name's node, for positions
	Node *yaml.Node // the schema
}

// Tool is one entry of tools:.
type Tool struct {
	Pos         Pos
	Name        string
	GoName      string // Name in Go case: get_weather → GetWeather
	Title       string
	Description string
	Version     string // the tool's own, else the file's
	Toolkit     string // the tool's own, else the file's
	Annotations *Annotations
	Secrets     []string // ids of the secrets the tool needs
	// Policy: the scopes a caller needs, a rate limit per caller (N calls
	// per Per; zero for none), a timeout (zero for the server's).
	Scopes    []string
	RateLimit struct {
		N   int
		Per time.Duration
	}
	Timeout time.Duration
	// Approval is who approves each call: policy.ApprovalOperator or
	// policy.ApprovalClient, "" for nobody.
	Approval string
	// Task is whether its MCP calls run as MCP tasks:
	// policy.TaskOptional or policy.TaskRequired, "" never.
	Task     string
	Input    *Schema
	Output   *Schema // nil when the tool declares no output
	Examples []json.RawMessage
}

// Annotations are MCP's behaviour hints; nil pointers were not written.
type Annotations struct {
	ReadOnlyHint, DestructiveHint, IdempotentHint, OpenWorldHint *bool
}

// Schema is a JSON Schema kept as written.
type Schema struct {
	// JSON is the schema with the keys in the file's order.
	JSON json.RawMessage
	// Node is the schema's YAML node, for positions.
	Node *yaml.Node

	compiled *jsonschema.Schema
}

// Prompt is one entry of prompts:.
type Prompt struct {
	Pos         Pos
	Name        string
	GoName      string
	Title       string
	Description string
	Arguments   []PromptArgument
	// Template is a text/template body over the arguments ({{.value}}).
	Template string
}

// PromptArgument is one argument of a prompt. Values are strings.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// Error is one problem, at its position in the file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is every problem found in a file, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// validName is what a tool or prompt name may be: a valid tool name
// (internal/toolname) that starts with a letter, so that it has a Go name.
func validName(s string) bool {
	return toolname.Valid(s) && unicode.IsLetter(rune(s[0]))
}

// Parse reads and checks a tools.yaml. name is the path used in errors; the
// default package name is its directory's name. On failure the error is an
// ErrorList with every problem found.
func Parse(name string, data []byte) (*File, error) {
	p := &parser{file: name}
	f := p.parse(data)
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			a, b := p.errs[i].Pos, p.errs[j].Pos
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, p.errs
	}
	return f, nil
}

type parser struct {
	file string
	errs ErrorList
	defs map[string]*Def // the file's $defs, by name
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Pos: posOf(n), Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) addPosError(err error, fallback *yaml.Node) {
	var pe *posError
	if errors.As(err, &pe) {
		p.errs = append(p.errs, &Error{File: p.file, Pos: Pos{pe.Line, pe.Col}, Msg: pe.Msg})
		return
	}
	p.errorf(fallback, "%v", err)
}

func (p *parser) parse(data []byte) *File {
	if len(data) > MaxFileBytes {
		p.errs = append(p.errs, &Error{File: p.file, Pos: Pos{1, 1}, Msg: tooLarge(len(data))})
		return nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.errs = append(p.errs, &Error{File: p.file, Pos: Pos{1, 1}, Msg: "empty file: expected a mapping with tools:"})
			return nil
		}
		pos, msg := syntaxError(data, err)
		p.errs = append(p.errs, &Error{File: p.file, Pos: pos, Msg: msg})
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.errorf(&extra, "only one YAML document is allowed")
	}
	if err := checkLimits(&doc); err != nil {
		p.addPosError(err, &doc)
		return nil
	}
	root := doc.Content[0]
	f := &File{Path: p.file}
	if defs := child(root, "$defs"); defs != nil {
		// Read first: the tools' schemas refer to them.
		f.Defs = p.fileDefs(defs)
	}
	if !p.mapping(root, "the file", map[string]func(k, v *yaml.Node){
		"$defs":   func(_, _ *yaml.Node) {},
		"package": func(_, v *yaml.Node) { f.Package, f.PackagePos = p.identifier(v), posOf(v) },
		"toolkit": func(_, v *yaml.Node) { f.Toolkit = p.str(v) },
		"version": func(_, v *yaml.Node) { f.Version = p.str(v) },
		"tools": func(_, v *yaml.Node) {
			for _, n := range p.seq(v) {
				if t := p.tool(n); t != nil {
					f.Tools = append(f.Tools, t)
				}
			}
		},
		"prompts": func(_, v *yaml.Node) {
			for _, n := range p.seq(v) {
				if pr := p.prompt(n); pr != nil {
					f.Prompts = append(f.Prompts, pr)
				}
			}
		},
	}, "tools") {
		return nil
	}
	if f.Package == "" {
		abs, err := filepath.Abs(p.file)
		if err == nil {
			f.Package = sanitizePackage(filepath.Base(filepath.Dir(abs)))
		}
	}
	if f.Toolkit == "" {
		f.Toolkit = GoName(f.Package)
	}
	for _, t := range f.Tools {
		if t.Version == "" {
			t.Version = f.Version
		}
		if t.Toolkit == "" {
			t.Toolkit = f.Toolkit
		}
	}
	checkUnique(p, "tool", f.Tools, func(t *Tool) (string, *string, Pos) { return t.Name, &t.GoName, t.Pos })
	checkUnique(p, "prompt", f.Prompts, func(t *Prompt) (string, *string, Pos) { return t.Name, &t.GoName, t.Pos })
	return f
}

// checkUnique reports duplicate names, and numbers apart distinct names
// that would share a Go name: get_weather and get-weather both make
// GetWeather, so the second is GetWeather2 (its Handlers method, and the
// prefix of its types).
func checkUnique[T any](p *parser, kind string, items []T, key func(T) (name string, goName *string, pos Pos)) {
	byName := map[string]Pos{}
	byGo := map[string]bool{}
	for _, it := range items {
		name, goName, pos := key(it)
		if f, dup := byName[name]; dup {
			p.errs = append(p.errs, &Error{File: p.file, Pos: pos, Msg: fmt.Sprintf("duplicate %s name %q (first defined at %d:%d)", kind, name, f.Line, f.Col)})
			continue
		}
		byName[name] = pos
		*goName = freeName(*goName, func(n string) bool { return byGo[n] })
		byGo[*goName] = true
	}
}

// mapping walks a mapping node strictly: every key must be one of fields,
// none twice, and the required ones present. It reports false when n is not
// a mapping at all.
func (p *parser) mapping(n *yaml.Node, what string, fields map[string]func(k, v *yaml.Node), required ...string) bool {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping, not %s", what, describe(n))
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "keys of %s must be strings", what)
			continue
		}
		if seen[k.Value] {
			p.errorf(k, "duplicate key %q in %s", k.Value, what)
			continue
		}
		seen[k.Value] = true
		f, ok := fields[k.Value]
		if !ok {
			p.errorf(k, "unknown key %q in %s (known: %s)", k.Value, what, knownKeys(fields))
			continue
		}
		f(k, v)
	}
	for _, r := range required {
		if !seen[r] {
			p.errorf(n, "%s is missing the required key %q", what, r)
		}
	}
	return true
}

// fileDefs reads the file's $defs: a mapping of schemas, compiled together
// so that an error in one is reported at it, once.
func (p *parser) fileDefs(n *yaml.Node) []*Def {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "$defs must be a mapping of schemas, not %s", describe(n))
		return nil
	}
	p.defs = map[string]*Def{}
	var defs []*Def
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if resolve(v).Kind != yaml.MappingNode {
			p.errorf(v, "$defs %s must be a schema (a mapping), not %s", k.Value, describe(resolve(v)))
			continue
		}
		d := &Def{Name: k.Value, Key: k, Node: resolve(v)}
		p.defs[d.Name] = d
		defs = append(defs, d)
	}
	good := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	for _, d := range defs {
		good.Content = append(good.Content, d.Key, d.Node)
	}
	wrapper := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column,
		Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "$defs"}, good}}
	js, err := nodeJSON(wrapper)
	if err != nil {
		p.addPosError(err, n)
		return nil
	}
	if _, err := compile.Schema(js); err != nil {
		at, msg := schemaErrorAt(wrapper, err)
		p.errorf(at, "invalid schema: %s", msg)
		return nil
	}
	return defs
}

func knownKeys(fields map[string]func(k, v *yaml.Node)) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "this"
}

func (p *parser) seq(n *yaml.Node) []*yaml.Node {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "expected a list, not %s", describe(n))
		return nil
	}
	return n.Content
}

func (p *parser) str(n *yaml.Node) string {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" && n.ShortTag() != "!!int" && n.ShortTag() != "!!float" {
		p.errorf(n, "expected a string, not %s", describe(n))
		return ""
	}
	return n.Value
}

func (p *parser) boolean(n *yaml.Node) *bool {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		p.errorf(n, "expected true or false, not %s", describe(n))
		return nil
	}
	b := n.Value == "true"
	return &b
}

var goIdent = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

func (p *parser) identifier(n *yaml.Node) string {
	s := p.str(n)
	if s != "" && !goIdent.MatchString(s) {
		p.errorf(n, "package %q is not a valid Go package name (lower case letters, digits and _)", s)
	}
	return s
}

func (p *parser) name(n *yaml.Node, kind string) string {
	s := p.str(n)
	if s != "" && !validName(s) {
		p.errorf(n, "invalid %s name %q: it must start with a letter and have at most 128 letters, digits, '_', '-' or '.'", kind, s)
		return ""
	}
	return s
}

func (p *parser) tool(n *yaml.Node) *Tool {
	t := &Tool{Pos: posOf(n)}
	var exampleNodes []*yaml.Node
	ok := p.mapping(n, "a tool", map[string]func(k, v *yaml.Node){
		"name":        func(_, v *yaml.Node) { t.Name = p.name(v, "tool"); t.Pos = posOf(v) },
		"title":       func(_, v *yaml.Node) { t.Title = p.str(v) },
		"description": func(_, v *yaml.Node) { t.Description = p.str(v) },
		"version":     func(_, v *yaml.Node) { t.Version = p.str(v) },
		"toolkit":     func(_, v *yaml.Node) { t.Toolkit = p.str(v) },
		"annotations": func(_, v *yaml.Node) { t.Annotations = p.annotations(v) },
		"secrets":     func(_, v *yaml.Node) { t.Secrets = p.secrets(v) },
		"scopes":      func(_, v *yaml.Node) { t.Scopes = p.scopes(v) },
		"ratelimit": func(_, v *yaml.Node) {
			if s := p.str(v); s != "" {
				n, per, err := policy.ParseRate(s)
				if err != nil {
					p.errorf(v, "%v", err)
				}
				t.RateLimit.N, t.RateLimit.Per = n, per
			}
		},
		"timeout": func(_, v *yaml.Node) {
			if s := p.str(v); s != "" {
				d, err := policy.ParseTimeout(s)
				if err != nil {
					p.errorf(v, "%v", err)
				}
				t.Timeout = d
			}
		},
		"approval": func(_, v *yaml.Node) {
			// Unlike ratelimit and timeout, an empty approval is an
			// error, not "none": leave the key out for none.
			before := len(p.errs)
			if s := p.str(v); len(p.errs) == before {
				a, err := policy.ParseApproval(s)
				if err != nil {
					p.errorf(v, "%v", err)
				}
				t.Approval = a
			}
		},
		"task": func(_, v *yaml.Node) {
			// As approval: an empty task is an error; leave the key out.
			before := len(p.errs)
			if s := p.str(v); len(p.errs) == before {
				ts, err := policy.ParseTask(s)
				if err != nil {
					p.errorf(v, "%v", err)
				}
				t.Task = ts
			}
		},
		"input":  func(_, v *yaml.Node) { t.Input = p.schema(v, true) },
		"output": func(_, v *yaml.Node) { t.Output = p.schema(v, false) },
		"examples": func(_, v *yaml.Node) {
			for _, e := range p.seq(v) {
				if resolve(e).Kind != yaml.MappingNode {
					p.errorf(e, "an example must be a mapping of arguments, not %s", describe(resolve(e)))
					continue
				}
				js, err := nodeJSON(e)
				if err != nil {
					p.addPosError(err, e)
					continue
				}
				t.Examples = append(t.Examples, js)
				exampleNodes = append(exampleNodes, e)
			}
		},
	}, "name", "input")
	if !ok || t.Name == "" {
		return nil
	}
	t.GoName = GoName(t.Name)
	if t.Input != nil && t.Input.compiled != nil {
		for i, ex := range t.Examples {
			p.checkExample(t.Input, exampleNodes[i], ex)
		}
	}
	return t
}

// secrets reads a tool's list of secret ids: each valid
// (toolname.SecretRule) and listed once.
func (p *parser) secrets(n *yaml.Node) []string {
	var ids []string
	seen := map[string]bool{}
	for _, c := range p.seq(n) {
		id := resolve(c).Value
		switch {
		case resolve(c).Kind != yaml.ScalarNode || resolve(c).ShortTag() != "!!str":
			p.errorf(c, "a secret id is a string, not %s", describe(resolve(c)))
		case !toolname.ValidSecret(id):
			p.errorf(c, "invalid secret id %q: use %s", id, toolname.SecretRule)
		case seen[id]:
			p.errorf(c, "secret %s listed twice", id)
		default:
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

// scopes reads the scopes a caller needs: each valid (policy.ScopeRule)
// and listed once.
func (p *parser) scopes(n *yaml.Node) []string {
	var scopes []string
	seen := map[string]bool{}
	for _, c := range p.seq(n) {
		sc := resolve(c).Value
		switch {
		case resolve(c).Kind != yaml.ScalarNode || resolve(c).ShortTag() != "!!str":
			p.errorf(c, "a scope is a string, not %s", describe(resolve(c)))
		case !policy.ValidScope(sc):
			p.errorf(c, "invalid scope %q: use %s", sc, policy.ScopeRule)
		case seen[sc]:
			p.errorf(c, "scope %s listed twice", sc)
		default:
			seen[sc] = true
			scopes = append(scopes, sc)
		}
	}
	return scopes
}

func (p *parser) annotations(n *yaml.Node) *Annotations {
	a := &Annotations{}
	p.mapping(n, "annotations", map[string]func(k, v *yaml.Node){
		"readOnlyHint":    func(_, v *yaml.Node) { a.ReadOnlyHint = p.boolean(v) },
		"destructiveHint": func(_, v *yaml.Node) { a.DestructiveHint = p.boolean(v) },
		"idempotentHint":  func(_, v *yaml.Node) { a.IdempotentHint = p.boolean(v) },
		"openWorldHint":   func(_, v *yaml.Node) { a.OpenWorldHint = p.boolean(v) },
	})
	return a
}

func (p *parser) prompt(n *yaml.Node) *Prompt {
	pr := &Prompt{Pos: posOf(n)}
	var tmplNode *yaml.Node
	ok := p.mapping(n, "a prompt", map[string]func(k, v *yaml.Node){
		"name":        func(_, v *yaml.Node) { pr.Name = p.name(v, "prompt"); pr.Pos = posOf(v) },
		"title":       func(_, v *yaml.Node) { pr.Title = p.str(v) },
		"description": func(_, v *yaml.Node) { pr.Description = p.str(v) },
		"template":    func(_, v *yaml.Node) { pr.Template = p.str(v); tmplNode = v },
		"arguments": func(_, v *yaml.Node) {
			for _, an := range p.seq(v) {
				var a PromptArgument
				p.mapping(an, "a prompt argument", map[string]func(k, v *yaml.Node){
					"name":        func(_, v *yaml.Node) { a.Name = p.name(v, "argument") },
					"description": func(_, v *yaml.Node) { a.Description = p.str(v) },
					"required": func(_, v *yaml.Node) {
						if b := p.boolean(v); b != nil {
							a.Required = *b
						}
					},
				}, "name")
				if a.Name != "" {
					pr.Arguments = append(pr.Arguments, a)
				}
			}
		},
	}, "name", "template")
	if !ok || pr.Name == "" {
		return nil
	}
	pr.GoName = GoName(pr.Name)
	if tmplNode != nil {
		t, err := template.New(pr.Name).Option("missingkey=zero").Parse(pr.Template)
		if err != nil {
			p.errorf(tmplNode, "invalid template: %v", err)
			return pr
		}
		known := map[string]bool{}
		for _, a := range pr.Arguments {
			known[a.Name] = true
		}
		for _, name := range templateFields(t.Tree.Root) {
			if !known[name] {
				p.errorf(tmplNode, "the template uses .%s, which is not an argument of the prompt", name)
			}
		}
	}
	return pr
}

// templateFields lists the top-level fields ({{.name}}) a template reads,
// in order, each once.
func templateFields(root parse.Node) []string {
	var names []string
	seen := map[string]bool{}
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.FieldNode:
			if len(n.Ident) > 0 && !seen[n.Ident[0]] {
				seen[n.Ident[0]] = true
				names = append(names, n.Ident[0])
			}
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		}
	}
	walk(root)
	return names
}
