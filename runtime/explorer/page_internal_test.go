package explorer

import (
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// The page's CSP allows exactly its inline blocks: the hashes blockHashes
// finds are those of every <script> and <style> block, as a regular
// expression (the reference, slow on the real page) finds them.
func TestBlockHashes(t *testing.T) {
	reference := func(body, tag string) string {
		re := regexp.MustCompile(`(?is)<` + tag + `>(.*?)</` + tag + `>`)
		var b strings.Builder
		for _, m := range re.FindAllStringSubmatch(body, -1) {
			sum := sha256.Sum256([]byte(m[1]))
			b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
		}
		return b.String()
	}
	page := string(renderPage(&runtime.Options{Title: "T"}, &Options{}, nil).body)
	for _, body := range []string{
		page,
		"",
		"<script>a</script><SCRIPT>B</Script>x<script></script>",
		"<style>p{}</style><style>unclosed",
		"<script>one<script>two</script>",
		"İ<script>after a letter that lowers to more bytes</script>",
	} {
		for _, tag := range []string{"script", "style"} {
			if got, want := blockHashes(body, tag), reference(body, tag); got != want {
				t.Errorf("%s in %.40q:\n got %s\nwant %s", tag, body, got, want)
			}
		}
	}
	if n := strings.Count(blockHashes(page, "script"), "sha256-"); n < 2 {
		t.Errorf("the page has %d inline scripts; expected its theme and explorer scripts", n)
	}
}
