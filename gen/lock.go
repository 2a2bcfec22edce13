package gen

import (
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/internal/contract"
	"github.com/toolgen-go/toolgen/internal/typeschema"
)

// The tools' contract (toolgen -lock, -check, -diff): each generated file
// has a Contract, the lock of its tools (internal/contract) and the way
// back from a change to the Go field or tools.yaml key it is in. With
// Config.Lock, or whenever a tools.lock stands beside the generated file,
// the lock is one of the files Generate returns, so that it is written,
// and checked by -check, like the generated code. Comparing it with the
// lock on disk (the breaking changes a version does not allow) is
// [CheckLocks]'s, which the command runs before writing anything.

// Contract is one generated file's tools' contract.
type Contract struct {
	// Path is the lock's path: contract.FileName beside the generated file.
	Path string
	// Lock is the contract of the tools now.
	Lock *contract.Lock
	// Written says the lock is one of the files generated (Config.Lock,
	// or a lock that was already there).
	Written bool

	g *generator
	u *unit
	l *linter
}

// LockChange is a change from a lock to the tools now, at the position of
// what changed (the tool's, when nothing nearer is known; for a removed
// tool, its toolkit's version).
type LockChange struct {
	contract.Change
	Pos token.Position
}

// Error formats the change as file:line:col: tool T: WHERE: RULE (CLASS): message; version.
func (c *LockChange) Error() string {
	e := &Error{Pos: c.Pos, Msg: c.Change.String()}
	return e.Error()
}

// contract builds u's contract, and adds its lock to files when it is
// kept (Config.Lock, or a lock on disk).
func (g *generator) contract(u *unit, f *File, files *[]*File) {
	kitVersion := u.kit.version
	if kitVersion == "" {
		kitVersion = contract.DefaultVersion
	}
	lock := &contract.Lock{Toolkit: contract.Toolkit{Name: u.kit.name, Version: kitVersion}}
	for _, t := range u.tools {
		v := t.version
		if v == "" {
			v = kitVersion
		}
		out, _ := typeschema.ObjectOutput(t.output)
		ct := contract.Tool{Name: t.name, Version: v, Input: t.input, Output: out, Annotations: lockHints(t.annotations),
			Policy: contract.Policy{Scopes: t.scopes, Approval: t.approval, Task: t.task}}
		if t.rate.n > 0 {
			ct.Policy.RateLimit = fmt.Sprintf("%d/%s", t.rate.n, ratePeriod(t.rate.per))
		}
		if t.timeout > 0 {
			ct.Policy.Timeout = t.timeout.String()
		}
		lock.Tools = append(lock.Tools, ct)
	}
	c := &Contract{Path: filepath.Join(filepath.Dir(u.path), contract.FileName), Lock: lock, g: g, u: u}
	f.Contract = c
	if _, err := os.Stat(c.Path); err != nil && !g.cfg.Lock {
		return
	}
	data, err := lock.Marshal()
	if err != nil {
		g.errs.add(tokenPosition(c.Path), "writing %s: %v", c.Path, err)
		return
	}
	c.Written = true
	*files = append(*files, &File{Path: c.Path, Content: data})
}

func lockHints(a annotations) map[string]bool {
	m := map[string]bool{}
	for name, v := range map[string]*bool{"readOnlyHint": a.readOnly, "destructiveHint": a.destructive, "idempotentHint": a.idempotent, "openWorldHint": a.openWorld} {
		if v != nil {
			m[name] = *v
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

func ratePeriod(d time.Duration) string {
	switch d {
	case time.Second:
		return "s"
	case time.Minute:
		return "m"
	case time.Hour:
		return "h"
	}
	return d.String()
}

// Compare lists the changes from old to the tools now, each at its
// position.
func (c *Contract) Compare(old *contract.Lock) ([]*LockChange, error) {
	changes, err := contract.Compare(old, c.Lock)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.Path, err)
	}
	out := make([]*LockChange, len(changes))
	for i, ch := range changes {
		out[i] = &LockChange{Change: ch, Pos: c.g.errs.rel(c.position(ch))}
	}
	return out, nil
}

// position finds where a change is in the source.
func (c *Contract) position(ch contract.Change) token.Position {
	var t *tool
	for _, x := range c.u.tools {
		if x.name == ch.Tool {
			t = x
		}
	}
	if t == nil {
		return c.u.kit.pos // a removed tool: the toolkit's version is the one to raise
	}
	if ch.Part != contract.PartInput && ch.Part != contract.PartOutput {
		return t.pos
	}
	if c.l == nil {
		c.l = &linter{g: c.g, fields: map[any][]typeschema.ObjectField{}}
	}
	var locate func(string) (token.Position, bool)
	ptr := ch.Pointer
	if c.u.handlers {
		if yf := c.l.yamlFile(t.pos.Filename); yf != nil {
			locate = yamlSchemaLocator(yf, t, ch.Part == contract.PartOutput)
		}
	} else if ch.Part == contract.PartInput {
		locate = c.l.goLocator(c.u, t)
	} else if t.call != nil && t.call.res != nil {
		if _, wrapped := typeschema.ObjectOutput(t.output); wrapped {
			if rest, ok := strings.CutPrefix(ptr, "/properties/result"); ok {
				ptr = rest
			}
		}
		locate = c.l.goTypeLocator(c.u, t.call.res, t.output)
	}
	if locate != nil {
		if pos, ok := locate(ptr); ok {
			return pos
		}
	}
	return t.pos
}

// goTypeLocator maps the JSON Pointers of schema, built from the Go type
// typ (a named type, or a pointer to one), to the Go fields they come
// from; nil when the type cannot be found.
func (l *linter) goTypeLocator(u *unit, typ *typeExpr, schema json.RawMessage) func(string) (token.Position, bool) {
	g := l.g
	for typ.kind == exprPointer {
		typ = typ.elem
	}
	if g.env == nil || typ.kind != exprNamed || len(typ.args) > 0 {
		return nil
	}
	var root map[string]any
	if json.Unmarshal(schema, &root) != nil {
		return nil
	}
	path := typ.path
	if path == "" {
		path = u.pkgPath
	}
	obj := l.lookup(path, typ.name)
	if obj == nil {
		return nil
	}
	positions := map[string]token.Position{}
	w := &goWalk{l: l, defs: map[string]any{}, seen: map[string]bool{}, out: positions}
	if d, ok := root["$defs"].(map[string]any); ok {
		w.defs = d
	}
	w.walk(g.env.of(obj.Type()), root, "", parsePos(g.env.position(obj.Pos())))
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

// LockCheck is the comparison of a generated file's tools with the lock
// beside it.
type LockCheck struct {
	Contract *Contract
	// Changes are every change from the lock on disk, each at its
	// position; Refused those of them that break a caller and that the
	// versions do not allow.
	Changes, Refused []*LockChange
}

// CheckLocks compares the tools of each generated file with the
// tools.lock beside it, where there is one. A lock that cannot be read is
// an error at its position.
func CheckLocks(files []*File) ([]*LockCheck, error) {
	var out []*LockCheck
	var errs ErrorList
	for _, f := range files {
		c := f.Contract
		if c == nil {
			continue
		}
		data, err := os.ReadFile(c.Path)
		if os.IsNotExist(err) {
			continue
		}
		name := c.g.errs.rel(token.Position{Filename: c.Path}).Filename
		if err != nil {
			errs = append(errs, &Error{Pos: token.Position{Filename: name}, Msg: err.Error()})
			continue
		}
		old, err := contract.Parse(name, data)
		if err != nil {
			errs = append(errs, &Error{Msg: err.Error()})
			continue
		}
		changes, err := c.Compare(old)
		if err != nil {
			errs = append(errs, &Error{Pos: token.Position{Filename: name}, Msg: err.Error()})
			continue
		}
		lc := &LockCheck{Contract: c, Changes: changes}
		for _, ch := range changes {
			if ch.Class == contract.Breaking && !ch.Allowed {
				lc.Refused = append(lc.Refused, ch)
			}
		}
		out = append(out, lc)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}
