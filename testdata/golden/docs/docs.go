// Package docs covers descriptions: doc and line comments, a named type's
// doc as the fallback, and the tool description taken from the function's
// doc comment.
package docs

import "context"

// Priority orders work. Higher runs first.
type Priority int

// Options is a nested, inlined struct; its doc describes fields of its type
// that have no comment of their own.
type Options struct {
	Verbose bool `json:"verbose"` // Print more.
}

type Input struct {
	// Title of the task.
	//
	// Shown in lists, so keep it short.
	Title string `json:"title"`
	Due   string `json:"due"` // Due date, as YYYY-MM-DD.
	// A doc comment wins over a line comment.
	Note     string   `json:"note"` // not this
	Priority Priority `json:"priority"`
	Options  Options  `json:"options"`
	// The tag's description wins over the comment.
	Tagged string `json:"tagged" jsonschema:"description=From the tag\\, with a comma"`
	Quoted string `json:"quoted" jsonschema_description:"From jsonschema_description, commas, and all"`
	Plain  string `json:"plain"`
}

// AddTask adds a task to the list.
//
// The task is stored until it is done. Lines of a paragraph
// are joined; paragraphs stay apart.
//
//	Indented lines
//	keep their breaks.
//
//toolgen:tool
func AddTask(ctx context.Context, in Input) (string, error) {
	return "added " + in.Title, nil
}

// Describe the tool in the directive instead.
//
//toolgen:tool description="Directive description wins." title="Describe it"
func Describe(ctx context.Context, in Input) (string, error) {
	return "", nil
}

//toolgen:tool
func Undocumented(ctx context.Context, in Input) (string, error) {
	return "", nil
}
