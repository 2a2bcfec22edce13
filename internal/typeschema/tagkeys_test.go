package typeschema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A misspelt jsonschema tag key gets the closest known key, as a misspelt
// directive does (internal/suggest); a key near none gets no suggestion,
// and every key applyTags knows is in the list suggestions come from.
func TestUnknownTagKeySuggests(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[struct {
			N int `json:"n" jsonschema:"minimun=1"`
		}](), `jsonschema tag: unknown key "minimun": did you mean minimum?`},
		{reflect.TypeFor[struct {
			S string `json:"s" jsonschema:"maxlength=3"`
		}](), `jsonschema tag: unknown key "maxlength": did you mean maxLength?`},
		{reflect.TypeFor[struct {
			S []string `json:"s" jsonschema:"uniqueitem"`
		}](), `jsonschema tag: unknown key "uniqueitem": did you mean uniqueItems?`},
		{reflect.TypeFor[struct {
			S string `json:"s" jsonschema:"colour=red"`
		}](), `jsonschema tag: unknown key "colour"`},
	} {
		_, err := ForType(Reflect(c.typ))
		if err == nil {
			t.Errorf("%v: no error", c.typ)
			continue
		}
		if got := err.Error(); !strings.HasSuffix(got, c.want) {
			t.Errorf("%v:\n got %s\nwant …%s", c.typ, got, c.want)
		}
		if strings.Contains(c.want, "colour") && strings.Contains(err.Error(), "did you mean") {
			t.Errorf("a key near no known key got a suggestion: %v", err)
		}
	}
	for _, k := range tagKeys {
		var s Schema
		if _, err := applyTags(&s, []tagItem{{key: k, value: "1", hasValue: true}}, "x", ""); err != nil && strings.Contains(err.Error(), "unknown key") {
			t.Errorf("tagKeys lists %q, which applyTags does not know", k)
		}
	}
}

// tagKeys is exactly the keys of applyTags's switch, read from its source,
// so that a key added there is suggested too.
func TestTagKeysMatchApplyTags(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "apply.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "applyTags" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			if sel, ok := sw.Tag.(*ast.SelectorExpr); !ok || sel.Sel.Name != "key" {
				return true
			}
			for _, st := range sw.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok {
						k, _ := strconv.Unquote(lit.Value)
						cases = append(cases, k)
					}
				}
			}
			return false
		})
	}
	if len(cases) == 0 {
		t.Fatal("found no switch on the tag key in applyTags")
	}
	slices.Sort(cases)
	keys := slices.Sorted(slices.Values(tagKeys))
	if !slices.Equal(cases, keys) {
		t.Errorf("applyTags knows %v\ntagKeys lists %v", cases, keys)
	}
}
