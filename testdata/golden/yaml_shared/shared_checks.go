package shared

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type impl struct {
	UnimplementedHandlers
	saved []Bookmark
}

// The input's visibility is the definition's type, and a Bookmark is the
// output: no conversions.
func (i *impl) AddBookmark(ctx context.Context, in AddBookmarkInput) (AddBookmarkOutput, error) {
	b := Bookmark{URL: in.URL, Visibility: in.Visibility}
	i.saved = append(i.saved, b)
	return b, nil
}

func (i *impl) ListBookmarks(ctx context.Context, in ListBookmarksInput) (ListBookmarksOutput, error) {
	return i.saved, nil
}

// The output that names an object definition is an object on the wire,
// not {"result": ...}.
func TestShared(t *testing.T) {
	var v Visibility = VisibilityPublic
	_ = AddBookmarkInput{Visibility: v}
	s := runtime.NewServer(Tools(&impl{}), nil)
	out := s.Invoke(context.Background(), &runtime.Call{Tool: "add_bookmark", Arguments: json.RawMessage(`{"url":"https://go.dev","visibility":"private","order":"newest"}`)})
	if out.Status != runtime.StatusOK {
		t.Fatalf("add_bookmark: %v %v %v", out.Status, out.Err, out.Issues())
	}
	got, _ := json.Marshal(out.Result.StructuredContent)
	if string(got) != `{"url":"https://go.dev","visibility":"private"}` {
		t.Errorf("structured content %s", got)
	}
}
