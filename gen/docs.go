package gen

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// docIndex finds the declarations behind types.Objects: their doc comments
// and directives. The loaded packages' files are used as parsed; files of
// other packages (loaded from export data, without syntax) are parsed on
// first use, comments included, so that a type imported from elsewhere in
// the module still has its docs and directives.
type docIndex struct {
	fset  *token.FileSet          // of the loaded packages
	files map[string]*indexedFile // by file name
}

type indexedFile struct {
	fset   *token.FileSet
	fields map[lineName]*ast.Field
	types  map[lineName]typeDecl
}

// lineName keys a declaration by the line and name of its identifier:
// export data keeps lines exactly, columns not always.
type lineName struct {
	line int
	name string
}

type typeDecl struct {
	spec *ast.TypeSpec
	doc  *ast.CommentGroup
}

func newDocIndex(fset *token.FileSet) *docIndex {
	return &docIndex{fset: fset, files: map[string]*indexedFile{}}
}

// addFile indexes a file that was loaded with syntax.
func (d *docIndex) addFile(f *ast.File) {
	name := d.fset.Position(f.Package).Filename
	d.files[name] = indexFile(d.fset, f)
}

func (d *docIndex) file(name string) *indexedFile {
	if f, ok := d.files[name]; ok {
		return f
	}
	var idx *indexedFile
	fset := token.NewFileSet()
	if f, err := parser.ParseFile(fset, expandGOROOT(name), nil, parser.ParseComments|parser.SkipObjectResolution); err == nil {
		idx = indexFile(fset, f)
	}
	d.files[name] = idx
	return idx
}

// expandGOROOT is name with the "$GOROOT" that export data writes in
// place of the standard library's root made the root itself, so that the
// standard library's types are read (and named in messages) from their
// files.
func expandGOROOT(name string) string {
	if rest, ok := strings.CutPrefix(name, "$GOROOT"); ok && (rest == "" || rest[0] == '/' || rest[0] == filepath.Separator) && goroot() != "" {
		return filepath.Join(goroot(), filepath.FromSlash(rest))
	}
	return name
}

// goroot is the root of the standard library the go command loads
// packages from (go env GOROOT): with GOTOOLCHAIN it need not be the one
// toolgen was built with, whose root build.Default has. Asked once, and
// only when a message or a doc needs it.
var goroot = sync.OnceValue(func() string {
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if root := strings.TrimSpace(string(out)); root != "" {
			return root
		}
	}
	return build.Default.GOROOT
})

func indexFile(fset *token.FileSet, f *ast.File) *indexedFile {
	idx := &indexedFile{fset: fset, fields: map[lineName]*ast.Field{}, types: map[lineName]typeDecl{}}
	key := func(id *ast.Ident) lineName { return lineName{fset.Position(id.Pos()).Line, id.Name} }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok != token.TYPE {
				return true
			}
			for _, s := range n.Specs {
				ts := s.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(n.Specs) == 1 {
					doc = n.Doc
				}
				idx.types[key(ts.Name)] = typeDecl{ts, doc}
			}
		case *ast.Field:
			if len(n.Names) == 0 {
				// Embedded: keyed by the type's name.
				if id := embeddedIdent(n.Type); id != nil {
					idx.fields[key(id)] = n
				}
			}
			for _, id := range n.Names {
				idx.fields[key(id)] = n
			}
		}
		return true
	})
	return idx
}

func embeddedIdent(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			return t
		case *ast.StarExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return nil
		}
	}
}

// field returns the declaration of the struct field at pos.
func (d *docIndex) field(pos token.Pos, name string) (*ast.Field, *token.FileSet) {
	p := d.fset.Position(pos)
	f := d.file(p.Filename)
	if f == nil {
		return nil, nil
	}
	return f.fields[lineName{p.Line, name}], f.fset
}

// typeDecl returns the declaration of the named type at pos.
func (d *docIndex) typeDecl(pos token.Pos, name string) (typeDecl, *token.FileSet, bool) {
	p := d.fset.Position(pos)
	f := d.file(p.Filename)
	if f == nil {
		return typeDecl{}, nil, false
	}
	td, ok := f.types[lineName{p.Line, name}]
	return td, f.fset, ok
}

// fieldDoc is a field's doc comment, else its line comment.
func fieldDoc(f *ast.Field) string {
	if f == nil {
		return ""
	}
	if t := docText(f.Doc); t != "" {
		return t
	}
	return docText(f.Comment)
}

// docText is a comment's text for a description: directives dropped, the
// lines of each paragraph joined, paragraphs separated by a blank line.
// Indented lines (code blocks, lists) keep their line breaks.
func docText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return reflow(g.Text())
}

func reflow(text string) string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimRight(line, " \t")
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"):
			cur = append(cur, line)
		case len(cur) > 0 && !strings.HasPrefix(cur[len(cur)-1], " ") && !strings.HasPrefix(cur[len(cur)-1], "\t"):
			cur[len(cur)-1] += " " + line
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return strings.Join(paras, "\n\n")
}
