package toolsyaml

import (
	"strings"

	"github.com/toolgen-go/toolgen/internal/toolname"
)

// GoName turns a tool, property or type name into an exported Go
// identifier; see [toolname.GoName].
func GoName(s string) string { return toolname.GoName(s) }

// sanitizePackage makes a directory name into a package name.
func sanitizePackage(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(dir) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0, r == '_' && b.Len() > 0:
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "tools"
	}
	return b.String()
}
