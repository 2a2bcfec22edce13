package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// listPage is tools/list (or another list) at 2026-07-28 from cursor.
func listPage(method, cursor string) fastReq {
	params := ""
	if cursor != "" {
		params = `"cursor":` + mustJSONText(cursor)
	}
	r := rpc2026(method, params, "")
	r.name = method + " page " + cursor
	return r
}

// Lists page at Options.PageSize with cursors, natively as through the
// SDK: every page of tools/list, then prompts/list's (the SDK's cursors),
// the same answers both ways; a cursor this server did not give is
// refused.
func TestMCPPages(t *testing.T) {
	for _, o := range []Options{{PageSize: 3, JSONResponse: true}, {PageSize: 3, Stateless: true}} {
		t.Run(fmt.Sprintf("JSONResponse=%v", o.JSONResponse), func(t *testing.T) {
			p := newFastPairWith(t, o)
			var names []string
			cursor, pages := "", 0
			for {
				on, _ := p.compare(t, listPage("tools/list", cursor))
				var page struct {
					Result struct {
						Tools      []struct{ Name string } `json:"tools"`
						NextCursor string                  `json:"nextCursor"`
					} `json:"result"`
				}
				if err := json.Unmarshal([]byte(on.Body), &page); err != nil || len(page.Result.Tools) > 3 {
					t.Fatalf("page %d: %s", pages, on.Body)
				}
				for _, tl := range page.Result.Tools {
					names = append(names, tl.Name)
				}
				pages++
				if cursor = page.Result.NextCursor; cursor == "" || pages > 50 {
					break
				}
			}
			if want := len(fastTools()); len(names) != want || pages != (want+2)/3 {
				t.Errorf("%d tools in %d pages, want %d in %d: %v", len(names), pages, want, (want+2)/3, names)
			}
			for _, bad := range []string{"nope", "dGcxOi0x", "dGcxOjk5OQ", "x\\u0041"} {
				on, _ := p.compare(t, listPage("tools/list", bad))
				if !strings.Contains(on.Body, `"code":-32602`) {
					t.Errorf("cursor %q: %s", bad, on.Body)
				}
			}
			// Prompts: the SDK's cursors, at the same size.
			on, _ := p.compare(t, listPage("prompts/list", ""))
			var prompts struct {
				Result struct {
					Prompts    []json.RawMessage `json:"prompts"`
					NextCursor string            `json:"nextCursor"`
				} `json:"result"`
			}
			if json.Unmarshal([]byte(on.Body), &prompts) != nil || len(prompts.Result.Prompts) != 3 || prompts.Result.NextCursor == "" {
				t.Fatalf("prompts/list: %s", on.Body)
			}
			p.compare(t, listPage("prompts/list", prompts.Result.NextCursor))
		})
	}
}
