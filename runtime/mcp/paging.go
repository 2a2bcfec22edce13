package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/gob"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pages: tools/list gives the tools a page at a time, at most
// Options.PageSize of them (default DefaultPageSize), with a nextCursor
// while there are more. A cursor is opaque to the client; here it is the
// position of the page's first tool in the caller's list, so a list that
// changes between pages may page a tool twice or not at all (the client
// is told of the change: notifications/tools/list_changed). The prompts,
// the resources and their templates page alike, at the same size, with
// the go-sdk's cursors.

// DefaultPageSize is the most a page of a list holds by default: the
// go-sdk's page.
const DefaultPageSize = sdk.DefaultPageSize

// pageSize is the size of a page of a list.
func (s *server) pageSize() int {
	if s.mopts.PageSize > 0 {
		return s.mopts.PageSize
	}
	return DefaultPageSize
}

// span is a page: the items from..to-1 of a list.
type span struct{ from, to int }

func (p span) len() int { return p.to - p.from }

// cursorPrefix marks toolgen's cursors.
const cursorPrefix = "tg1:"

// pageOf is the page of a list of n items, size a page, that cursor ("":
// the first) asks for, and the cursor of the page after it ("": none).
// ok is false for a cursor this server did not give.
func pageOf(n, size int, cursor string) (page span, next string, ok bool) {
	from := 0
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		rest, found := strings.CutPrefix(string(b), cursorPrefix)
		if err != nil || !found {
			return span{}, "", false
		}
		if from, err = strconv.Atoi(rest); err != nil || from < 0 || from > n {
			return span{}, "", false
		}
	}
	to := min(from+size, n)
	if to < n {
		next = base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(to)))
	}
	return span{from, to}, next, true
}

// pageToken is what a go-sdk cursor holds: the key of the last item of
// the page before. Its name and field are the SDK's, so that gob encodes
// it as the SDK does and a cursor from either path is good on the other
// (replicas of different versions, a client that came from /sse).
type pageToken struct {
	LastUID string
}

// sdkPage is the page of items (sorted by key, one each) that cursor asks
// for, the go-sdk's way (paginateList): the size items after the key the
// cursor names, and the cursor of the next page when there are more.
func sdkPage[T any](items []T, key func(T) string, size int, cursor string) (page []T, next string, err error) {
	from := 0
	if cursor != "" {
		b, err := base64.URLEncoding.DecodeString(cursor)
		var tok pageToken
		if err != nil || gob.NewDecoder(bytes.NewReader(b)).Decode(&tok) != nil {
			return nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params"}
		}
		var found bool
		from, found = slices.BinarySearchFunc(items, tok.LastUID, func(it T, k string) int { return strings.Compare(key(it), k) })
		if found {
			from++
		}
	}
	to := min(from+size, len(items))
	page = items[from:to]
	if to < len(items) && len(page) > 0 {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(pageToken{LastUID: key(page[len(page)-1])}); err != nil {
			return nil, "", err
		}
		next = base64.URLEncoding.EncodeToString(buf.Bytes())
	}
	return page, next, nil
}
