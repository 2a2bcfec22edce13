package yamlclient

import (
	"context"
	"errors"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type store struct {
	UnimplementedHandlers
	links []Bookmark
}

func (s *store) AddBookmark(ctx context.Context, in AddBookmarkInput) (AddBookmarkOutput, error) {
	s.links = append(s.links, Bookmark(in))
	return AddBookmarkOutput(in), nil
}

func (s *store) CountBookmarks(ctx context.Context, in CountBookmarksInput) (CountBookmarksOutput, error) {
	return CountBookmarksOutput(len(s.links)), nil
}

func (s *store) Stats(ctx context.Context, in StatsInput) (StatsOutput, error) {
	if in.Tag == "secret" {
		return StatsOutput{}, &runtime.ToolError{Message: "That tag is secret."}
	}
	out := StatsOutput{Tag: in.Tag}
	for _, l := range s.links {
		for _, t := range l.Tags {
			if t == in.Tag {
				out.Links++
			}
		}
	}
	return out, nil
}

// The generated client calls the Handlers through the in-process caller,
// with the generated types.
func TestClient(t *testing.T) {
	c := NewClient(runtime.InProcess(runtime.NewServer(Tools(&store{}), nil)))
	ctx := context.Background()
	b, err := c.AddBookmark(ctx, AddBookmarkInput{URL: "https://go.dev", Tags: []string{"go"}})
	if err != nil || b.URL != "https://go.dev" || len(b.Tags) != 1 {
		t.Errorf("AddBookmark: %+v, %v", b, err)
	}
	if _, err := c.AddBookmark(ctx, AddBookmarkInput{}); !errors.As(err, new(*runtime.ValidationError)) {
		t.Errorf("AddBookmark without a URL: %v", err)
	}
	if n, err := c.CountBookmarks(ctx, nil); err != nil || n != 1 {
		t.Errorf("CountBookmarks: %d, %v", n, err)
	}
	if st, err := c.Stats(ctx, StatsInput{Tag: "go"}); err != nil || st != (StatsOutput{Tag: "go", Links: 1}) {
		t.Errorf("Stats: %+v, %v", st, err)
	}
	var te *runtime.ToolError
	if _, err := c.Stats(ctx, StatsInput{Tag: "secret"}); !errors.As(err, &te) || te.Message != "That tag is secret." {
		t.Errorf("Stats secret: %v", err)
	}
	if _, err := c.Clear(ctx, ClearInput{}); !errors.As(err, &te) || te.Message != "tool clear is not implemented" {
		t.Errorf("Clear: %v", err)
	}
}
